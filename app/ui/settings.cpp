// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QSettings>

namespace {

// The keys in the QSettings file; only this file knows them.
constexpr auto GeometryKey = "window/geometry";
constexpr auto StateKey = "window/state";
constexpr auto RecentKey = "recentProjects";
constexpr auto LastDirKey = "lastProjectParent";
constexpr auto MaxAttemptsKey = "defaults/maxAttempts";
constexpr auto BackoffKey = "defaults/initialBackoffMs";
constexpr auto AttemptTimeoutKey = "defaults/attemptTimeoutMs";
constexpr auto MaxCallsKey = "defaults/maxCalls";
constexpr auto RunTimeoutKey = "defaults/runTimeoutMs";
constexpr auto PythonKey = "interpreters/python";
constexpr auto NodeKey = "interpreters/node";
constexpr auto FontKey = "editor/font";
constexpr auto TabWidthKey = "editor/tabWidth";
constexpr auto ThemeKey = "ui/theme";
constexpr auto LanguageKey = "ui/language";
constexpr auto ZoomKey = "ui/zoomPercent";

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

QString themeName(Settings::Theme theme)
{
    switch (theme) {
    case Settings::Theme::Light:
        return QStringLiteral("light");
    case Settings::Theme::Dark:
        return QStringLiteral("dark");
    case Settings::Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Settings::Theme themeFromName(const QString &name, Settings::Theme fallback)
{
    if (name == QLatin1String("light"))
        return Settings::Theme::Light;
    if (name == QLatin1String("dark"))
        return Settings::Theme::Dark;
    if (name == QLatin1String("system"))
        return Settings::Theme::System;
    return fallback;
}

} // namespace

Settings::Settings(QObject *parent)
    : QObject(parent)
    , m_values(defaults())
{}

Settings *Settings::instance()
{
    static Settings *settings = [] {
        auto *s = new Settings(QCoreApplication::instance());
        s->load();
        return s;
    }();
    return settings;
}

Settings::Values Settings::defaults()
{
    Values values;
    values.editorFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    return values;
}

void Settings::setValues(const Values &values)
{
    set(&Values::geometry, values.geometry, "geometry");
    set(&Values::windowState, values.windowState, "windowState");
    set(&Values::recentProjects, values.recentProjects, "recentProjects");
    set(&Values::lastProjectParent, values.lastProjectParent, "lastProjectParent");
    set(&Values::maxAttempts, values.maxAttempts, "maxAttempts");
    set(&Values::initialBackoffMs, values.initialBackoffMs, "initialBackoffMs");
    set(&Values::attemptTimeoutMs, values.attemptTimeoutMs, "attemptTimeoutMs");
    set(&Values::maxCalls, values.maxCalls, "maxCalls");
    set(&Values::runTimeoutMs, values.runTimeoutMs, "runTimeoutMs");
    set(&Values::pythonPath, values.pythonPath, "pythonPath");
    set(&Values::nodePath, values.nodePath, "nodePath");
    set(&Values::editorFont, values.editorFont, "editorFont");
    set(&Values::tabWidth, values.tabWidth, "tabWidth");
    set(&Values::theme, values.theme, "theme");
    set(&Values::language, values.language, "language");
    set(&Values::zoomPercent, qBound(MinZoomPercent, values.zoomPercent, MaxZoomPercent), "zoomPercent");
}

void Settings::addRecentProject(const QString &dir)
{
    QStringList recent = m_values.recentProjects;
    recent.removeAll(dir);
    recent.prepend(dir);
    while (recent.size() > MaxRecentProjects)
        recent.removeLast();
    setRecentProjects(recent);
}

void Settings::load()
{
    const QSettings s;
    const Values d = defaults();
    Values v;
    v.geometry = s.value(key(GeometryKey)).toByteArray();
    v.windowState = s.value(key(StateKey)).toByteArray();
    v.recentProjects = s.value(key(RecentKey)).toStringList();
    v.lastProjectParent = s.value(key(LastDirKey)).toString();
    v.maxAttempts = s.value(key(MaxAttemptsKey), d.maxAttempts).toInt();
    v.initialBackoffMs = s.value(key(BackoffKey), d.initialBackoffMs).toInt();
    v.attemptTimeoutMs = s.value(key(AttemptTimeoutKey), d.attemptTimeoutMs).toInt();
    v.maxCalls = s.value(key(MaxCallsKey), d.maxCalls).toInt();
    v.runTimeoutMs = s.value(key(RunTimeoutKey), d.runTimeoutMs).toInt();
    v.pythonPath = s.value(key(PythonKey)).toString();
    v.nodePath = s.value(key(NodeKey)).toString();
    QFont font = d.editorFont;
    if (s.contains(key(FontKey)))
        font.fromString(s.value(key(FontKey)).toString());
    v.editorFont = font;
    v.tabWidth = qBound(1, s.value(key(TabWidthKey), d.tabWidth).toInt(), 16);
    v.theme = themeFromName(s.value(key(ThemeKey)).toString(), d.theme);
    v.language = s.value(key(LanguageKey)).toString();
    v.zoomPercent = s.value(key(ZoomKey), d.zoomPercent).toInt();
    setValues(v);
}

void Settings::save() const
{
    QSettings s;
    s.setValue(key(GeometryKey), m_values.geometry);
    s.setValue(key(StateKey), m_values.windowState);
    s.setValue(key(RecentKey), m_values.recentProjects);
    s.setValue(key(LastDirKey), m_values.lastProjectParent);
    s.setValue(key(MaxAttemptsKey), m_values.maxAttempts);
    s.setValue(key(BackoffKey), m_values.initialBackoffMs);
    s.setValue(key(AttemptTimeoutKey), m_values.attemptTimeoutMs);
    s.setValue(key(MaxCallsKey), m_values.maxCalls);
    s.setValue(key(RunTimeoutKey), m_values.runTimeoutMs);
    s.setValue(key(PythonKey), m_values.pythonPath);
    s.setValue(key(NodeKey), m_values.nodePath);
    s.setValue(key(FontKey), m_values.editorFont.toString());
    s.setValue(key(TabWidthKey), m_values.tabWidth);
    s.setValue(key(ThemeKey), themeName(m_values.theme));
    s.setValue(key(LanguageKey), m_values.language);
    s.setValue(key(ZoomKey), m_values.zoomPercent);
    s.sync();
}
