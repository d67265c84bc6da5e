// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QString>
#include <QStringList>

/// The studio's persistent settings in one typed object (STYLE.md "Settings in one
/// typed object"): defaults live in defaults() only, every setter emits changed() with
/// the key when the value really changes, load()/save() go through QSettings (under
/// QStandardPaths' test mode in tests).
class Settings : public QObject
{
    Q_OBJECT
public:
    enum class Theme { System, Light, Dark };
    Q_ENUM(Theme)

    /// Every value in one plain struct, so defaults are written once.
    struct Values
    {
        QByteArray geometry;
        QByteArray windowState;
        QStringList recentProjects;
        QString lastProjectParent;
        // Defaults for new tools and projects (DESIGN.md "Steps: the engine").
        int maxAttempts = 3;
        int initialBackoffMs = 500;
        int attemptTimeoutMs = 30000;
        int maxCalls = 100;
        int runTimeoutMs = 300000;
        QString pythonPath; ///< empty: python3 from PATH
        QString nodePath;   ///< empty: node from PATH
        QFont editorFont;   ///< the system's fixed font by default
        int tabWidth = 4;
        Theme theme = Theme::System;
        QString language;      ///< "" = follow the system, "en", "de"
        int zoomPercent = 100; ///< View ▸ Zoom: the window's fonts, MinZoomPercent..MaxZoomPercent

        bool operator==(const Values &other) const = default;
    };

    static constexpr int MaxRecentProjects = 8;
    static constexpr int MinZoomPercent = 50;
    static constexpr int MaxZoomPercent = 300;

    explicit Settings(QObject *parent = nullptr);

    /// The one instance the application uses (created on first use).
    static Settings *instance();
    static Values defaults();

    const Values &values() const { return m_values; }
    /// Replaces every value, emitting changed() for each that differs.
    void setValues(const Values &values);

    void load();
    void save() const;

    QByteArray geometry() const { return m_values.geometry; }
    void setGeometry(const QByteArray &value) { set(&Values::geometry, value, "geometry"); }
    QByteArray windowState() const { return m_values.windowState; }
    void setWindowState(const QByteArray &value) { set(&Values::windowState, value, "windowState"); }
    QStringList recentProjects() const { return m_values.recentProjects; }
    void setRecentProjects(const QStringList &value) { set(&Values::recentProjects, value, "recentProjects"); }
    /// Moves `dir` to the front of the recent projects, keeping MaxRecentProjects.
    void addRecentProject(const QString &dir);
    QString lastProjectParent() const { return m_values.lastProjectParent; }
    void setLastProjectParent(const QString &value) { set(&Values::lastProjectParent, value, "lastProjectParent"); }

    int maxAttempts() const { return m_values.maxAttempts; }
    int initialBackoffMs() const { return m_values.initialBackoffMs; }
    int attemptTimeoutMs() const { return m_values.attemptTimeoutMs; }
    int maxCalls() const { return m_values.maxCalls; }
    int runTimeoutMs() const { return m_values.runTimeoutMs; }
    QString pythonPath() const { return m_values.pythonPath; }
    QString nodePath() const { return m_values.nodePath; }
    QFont editorFont() const { return m_values.editorFont; }
    void setEditorFont(const QFont &value) { set(&Values::editorFont, value, "editorFont"); }
    int tabWidth() const { return m_values.tabWidth; }
    void setTabWidth(int value) { set(&Values::tabWidth, value, "tabWidth"); }
    Theme theme() const { return m_values.theme; }
    void setTheme(Theme value) { set(&Values::theme, value, "theme"); }
    QString language() const { return m_values.language; }
    void setLanguage(const QString &value) { set(&Values::language, value, "language"); }
    int zoomPercent() const { return m_values.zoomPercent; }
    void setZoomPercent(int value)
    {
        set(&Values::zoomPercent, qBound(MinZoomPercent, value, MaxZoomPercent), "zoomPercent");
    }

Q_SIGNALS:
    /// `key` is the Values field's name ("tabWidth", "theme", …).
    void changed(const QString &key);

private:
    template<typename T>
    void set(T Values::*field, const T &value, const char *key)
    {
        if (m_values.*field == value)
            return;
        m_values.*field = value;
        Q_EMIT changed(QString::fromLatin1(key));
    }

    Values m_values;
};
