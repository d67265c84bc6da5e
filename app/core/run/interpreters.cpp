// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/interpreters.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStringList>

QString Interpreters::defaultFor(const QString &scriptPath)
{
    const QString suffix = QFileInfo(scriptPath).suffix().toLower();
    QStringList candidates;
    QString name;
    if (suffix == QLatin1String("py")) {
        candidates = {QStringLiteral("/usr/bin/python3")};
        name = QStringLiteral("python3");
    } else if (suffix == QLatin1String("sh") || suffix == QLatin1String("bash")) {
        candidates = {QStringLiteral("/bin/bash"), QStringLiteral("/usr/bin/bash")};
        name = QStringLiteral("bash");
    } else if (suffix == QLatin1String("js") || suffix == QLatin1String("cjs")) {
        candidates = {QStringLiteral("/usr/bin/node")};
        name = QStringLiteral("node");
    } else {
        return {};
    }
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo(candidate).isExecutable())
            return candidate;
    }
    return QStandardPaths::findExecutable(name);
}

QString Interpreters::languageOf(const QString &scriptPath)
{
    const QString suffix = QFileInfo(scriptPath).suffix().toLower();
    if (suffix == QLatin1String("py"))
        return QStringLiteral("python");
    if (suffix == QLatin1String("js") || suffix == QLatin1String("cjs"))
        return QStringLiteral("node");
    return {};
}

void Interpreters::setOverride(const QString &language, const QString &path)
{
    m_overrides.insert(language, path.trimmed());
}

QString Interpreters::resolve(const QString &script, QString *error) const
{
    QString interpreter = defaultFor(script);
    const QString language = languageOf(script);
    const QString chosen = m_overrides.value(language);
    if (!language.isEmpty() && !chosen.isEmpty()) {
        const QFileInfo chosenInfo(chosen);
        if (!chosenInfo.isFile() || !chosenInfo.isExecutable()) {
            *error = QCoreApplication::translate(
                         "RunController",
                         "the %1 interpreter set in the preferences (%2) is not an executable file; "
                         "correct it, or clear it to use the default")
                         .arg(language, chosen);
            return {};
        }
        interpreter = chosenInfo.absoluteFilePath();
    }
    if (interpreter.isEmpty()) {
        const QString suffix = QFileInfo(script).suffix();
        *error = (suffix == QLatin1String("py") || suffix == QLatin1String("sh") || suffix == QLatin1String("js"))
            ? QCoreApplication::translate("RunController", "no interpreter for %1 is installed (python3, bash or node)")
                  .arg(script)
            : QCoreApplication::translate("RunController", "unknown script language for %1: use .py, .sh or .js")
                  .arg(script);
    }
    return interpreter;
}
