// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "trustcommand.h"

#include "mcp/mcpprojecttools.h"

#include "headlessrun.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "project/projecttrust.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("trustcommand", text);
}

void printItems(FILE *stream, const QStringList &items, const QString &prefix)
{
    for (const QString &item : items)
        printLine(stream, prefix + printableText(item));
}

} // namespace

bool recordTrust(const QString &command, const QString &dir)
{
    QString error, note;
    const bool ok = ProjectTrust::grant(dir, &error, &note);
    if (!note.isEmpty())
        printLine(stderr, QStringLiteral("toolstudio %1: %2").arg(command, printableText(note)));
    if (!ok)
        printLine(stderr, QStringLiteral("toolstudio %1: %2").arg(command, printableText(error)));
    return ok;
}

namespace {

int listGrants()
{
    QString error;
    const auto grants = ProjectTrust::grants(&error);
    if (!error.isEmpty()) {
        printLine(stderr, QStringLiteral("toolstudio trust: %1").arg(printableText(error)));
        return ExitBadInput;
    }
    if (grants.empty())
        printLine(stdout, tr("no project is trusted (grants are kept in %1)").arg(ProjectTrust::storePath()));
    for (const ProjectTrust::Grant &grant : grants) {
        printLine(stdout, QStringLiteral("%1\t%2").arg(printableText(grant.dir), grant.grantedAt));
        printItems(stdout, grant.items, QStringLiteral("  "));
    }
    return ExitCompleted;
}

} // namespace

QCommandLineOption trustOption()
{
    return QCommandLineOption(QStringLiteral("trust"),
                              QStringLiteral("Trust the project (its tool files, command tools and scripts may "
                                             "run) for this invocation and record the grant."));
}

int trustCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Trust a project, so its code may run; or revoke or list grants."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
    const QCommandLineOption revokeOption(QStringLiteral("revoke"), QStringLiteral("Remove the project's grant."));
    const QCommandLineOption listOption(QStringLiteral("list"), QStringLiteral("List every grant."));
    parser.addOption(revokeOption);
    parser.addOption(listOption);
    int exitCode = ExitCompleted;
    const bool list = arguments.contains(QStringLiteral("--list"));
    const auto positional
        = parseArguments(parser, QStringLiteral("trust"), arguments, list ? 0 : 1, list ? 0 : 1, &exitCode);
    if (!positional)
        return exitCode;
    if (list)
        return listGrants();
    const QString dir = QDir::current().absoluteFilePath(positional->at(0));
    const QString folder = ProjectTrust::canonicalDir(dir);
    if (parser.isSet(revokeOption)) {
        bool removed = false;
        QString error, note;
        const bool ok = ProjectTrust::revoke(dir, &removed, &error, &note);
        if (!note.isEmpty())
            printLine(stderr, QStringLiteral("toolstudio trust: %1").arg(printableText(note)));
        if (!ok) {
            printLine(stderr, QStringLiteral("toolstudio trust: %1").arg(printableText(error)));
            return ExitBadInput;
        }
        printLine(stdout,
                  removed ? tr("%1 is no longer trusted").arg(folder)
                          : tr("%1 was not trusted; nothing changed").arg(folder));
        return ExitCompleted;
    }
    if (!recordTrust(QStringLiteral("trust"), dir))
        return ExitBadInput;
    printLine(stdout, tr("%1 is trusted; its code may run:").arg(folder));
    const TrustFingerprint now = ProjectTrust::fingerprint(dir);
    printItems(stdout, now.items, QStringLiteral("  "));
    if (now.items.isEmpty())
        printLine(stdout, tr("  (no tool files or command tools; its scripts run in the sandbox)"));
    return ExitCompleted;
}

bool refuseUntrusted(const QString &command, const Project &project)
{
    if (project.trusted)
        return true;
    const ProjectTrust::Check check = ProjectTrust::check(project.dir);
    const QString prefix = QStringLiteral("toolstudio %1: ").arg(command);
    if (!check.storeError.isEmpty())
        printLine(stderr, prefix + printableText(check.storeError));
    printLine(stderr, prefix + printableText(ProjectTrust::untrustedReason(project.dir)));
    if (check.state == ProjectTrust::State::Changed) {
        printLine(stderr, prefix + tr("what would run changed since it was trusted:"));
        printItems(stderr, check.added, QStringLiteral("  + "));
        printItems(stderr, check.removed, QStringLiteral("  - "));
    } else if (!check.now.items.isEmpty()) {
        printLine(stderr, prefix + tr("what would run:"));
        printItems(stderr, check.now.items, QStringLiteral("  "));
    }
    printLine(stderr,
              prefix
                  + tr("to trust it: add --trust (trusts it and records the grant), or first run: "
                       "toolstudio trust %1")
                        .arg(shellQuoted(check.dir)));
    return false;
}

std::optional<Project> loadProjectToRun(const QString &command, const QString &dir, bool trust, int *exitCode)
{
    std::optional<Project> project = loadProjectFor(command, dir);
    if (project && trust && !project->trusted) // loaded again: now its tool files are imported
        project = recordTrust(command, dir) ? loadProjectFor(command, dir) : std::nullopt;
    if (!project) {
        *exitCode = ExitBadInput;
        return std::nullopt;
    }
    if (!refuseUntrusted(command, *project)) {
        *exitCode = ExitNotTrusted;
        return std::nullopt;
    }
    // The tools of the project's MCP servers join the project's tools (docs/mcp.md); a
    // server that fails is named and the others' tools still load. `mcp list` lists on its own.
    if (command != QLatin1String("mcp"))
        for (const QString &problem : McpProjectTools::connectAndAdd(*project, [&command](const QString &note) {
                 printLine(stderr, QStringLiteral("toolstudio %1: %2").arg(command, note));
             }))
            printLine(stderr, QStringLiteral("toolstudio %1: warning: %2").arg(command, problem));
    return project;
}
