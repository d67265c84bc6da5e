// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "initcommand.h"

#include "headlessrun.h"
#include "project/projecttemplates.h"
#include "project/projecttrust.h"

#include <QCommandLineParser>
#include <QDir>

namespace {

/// DIR as a shell user would type it again: relative when it is under the current folder.
QString shown(const QString &dir)
{
    const QString relative = QDir::current().relativeFilePath(dir);
    return relative.startsWith(QLatin1String("..")) ? QDir::toNativeSeparators(dir) : relative;
}

int listTemplates()
{
    int width = 0;
    for (const ProjectTemplate &t : ProjectTemplates::all())
        width = std::max(width, int(t.name.size()));
    for (const ProjectTemplate &t : ProjectTemplates::all())
        printLine(stdout, QStringLiteral("%1  %2").arg(t.name.leftJustified(width), t.description));
    return ExitCompleted;
}

} // namespace

int initCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Make a new project in DIR from a template (default: empty), ready to run."));
    parser.addPositionalArgument(QStringLiteral("DIR"),
                                 QStringLiteral("The folder to make the project in (created when missing; one "
                                                "that has a toolstudio.json is refused)."));
    const QCommandLineOption templateOption(
        QStringLiteral("template"),
        QStringLiteral("The template: %1.").arg(ProjectTemplates::names().join(QStringLiteral(", "))),
        QStringLiteral("NAME"), QStringLiteral("empty"));
    const QCommandLineOption listOption(QStringLiteral("list"), QStringLiteral("List the templates and exit."));
    parser.addOption(templateOption);
    parser.addOption(listOption);
    int exitCode = ExitCompleted;
    const bool list = arguments.contains(QStringLiteral("--list"));
    const auto positional = parseArguments(parser, QStringLiteral("init"), arguments, list ? 0 : 1, 1, &exitCode);
    if (!positional)
        return exitCode;
    if (parser.isSet(listOption))
        return listTemplates();
    const QString dir = QDir::cleanPath(QDir::current().absoluteFilePath(positional->first()));
    const QString name = parser.value(templateOption);
    QStringList written;
    QString error;
    if (!ProjectTemplates::create(name, dir, &written, &error)) {
        printLine(stderr, QStringLiteral("toolstudio init: %1").arg(error));
        return ExitBadInput;
    }
    printLine(stdout,
              QStringLiteral("Created %1 from the template '%2': %3")
                  .arg(shown(dir), name, written.join(QStringLiteral(", "))));
    // Made from the studio's own files: trusted, so it runs without --trust. A grant
    // that cannot be recorded only costs the user a --trust.
    const bool trusted = ProjectTrust::grant(dir, &error);
    if (!trusted)
        printLine(stderr, QStringLiteral("toolstudio init: warning: %1").arg(error));
    QStringList run{trusted ? QStringLiteral("toolstudio run") : QStringLiteral("toolstudio run --trust"), shown(dir)};
    const QStringList extra = ProjectTemplates::find(name)->runArguments;
    for (const QString &argument : extra)
        run.append(argument.endsWith(QLatin1String(".json")) ? shown(QDir(dir).filePath(argument)) : argument);
    printLine(stdout,
              QStringLiteral("Run it:  %1\nOpen it: toolstudio %2").arg(run.join(QLatin1Char(' ')), shown(dir)));
    return ExitCompleted;
}
