// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolscommand.h"

#include "headlessrun.h"

#include "exchange/bundle.h"
#include "exchange/toolexport.h"
#include "exchange/toolimport.h"
#include "exchange/typings.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "python/pythonenv.h"
#include "python/secrets.h"
#include "trustcommand.h"

#include "mcp/mcpprojecttools.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTextStream>

#include <cstdio>

#include <unistd.h>

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("toolscommand", text, disambiguation, n);
}

void printErr(const QString &line)
{
    std::fputs(qPrintable(line + QLatin1Char('\n')), stderr);
}

void printOut(const QByteArray &text)
{
    std::fwrite(text.constData(), 1, std::size_t(text.size()), stdout);
    std::fflush(stdout);
}

QString usageText()
{
    return tr(
        "usage: toolstudio tools list PROJECT\n"
        "       toolstudio tools export PROJECT --format anthropic|openai-chat|openai-responses [--strict] [--output FILE]\n"
        "       toolstudio tools import PROJECT FILE [--as manual|mock] [--format bfcl|auto] [--rename OLD=NEW ...]\n"
        "       toolstudio tools secret PROJECT NAME [--host HOST ...] [--delete]   (the value is read from stdin; --host: the hosts the key may be sent to; with --host and no value, adds hosts to a set key)\n"
        "       toolstudio tools bundle export|import PROJECT FILE.zip\n"
        "       toolstudio tools typings PROJECT [--out DIR]   (toolstudio.pyi and toolstudio.d.ts; DIR defaults to PROJECT)\n"
        "       toolstudio tools install-requirements PROJECT   (pip-installs the requirements: of files that miss a module into PROJECT/.toolstudio/venv)\n"
        "--trust (any tools command): trust the project for this invocation and record the grant (toolstudio trust PROJECT)");
}

int usage()
{
    printErr(usageText());
    return 2;
}

bool trustRequested = false; // --trust after `tools`

enum class Use {
    Browse, ///< read the project: its Python tool files may stay unloaded (untrusted)
    Code,   ///< needs the tools of its Python tool files: an untrusted project is refused
};

/// The project in `dir`; with --trust, recorded as trusted first. nullopt with `*exitCode`
/// (2, or 3 when refused as not trusted) after printing why.
std::optional<Project> loadProject(const QString &dir, Use use = Use::Browse, int *exitCode = nullptr)
{
    int localExit = 0;
    if (!exitCode)
        exitCode = &localExit;
    *exitCode = ExitBadInput;
    const QString folder = QDir::current().absoluteFilePath(dir);
    ProjectError error;
    auto project = Project::load(folder, &error);
    if (project && trustRequested && !project->trusted) // loaded again: now its tool files are imported
        project = recordTrust(QStringLiteral("tools"), folder) ? Project::load(folder, &error) : std::nullopt;
    if (!project) {
        if (!error.message.isEmpty())
            printErr(error.toString());
        return std::nullopt;
    }
    if (!project->trusted && !project->pythonFiles.empty()) {
        if (use == Use::Code) {
            refuseUntrusted(QStringLiteral("tools"), *project);
            *exitCode = ExitNotTrusted;
            return std::nullopt;
        }
        printErr(tr("note: the project is not trusted, so its Python tool files are not loaded (add --trust, or "
                    "run: toolstudio trust %1)")
                     .arg(shellQuoted(project->dir)));
    }
    return project;
}

void printProblems(const Project &project)
{
    for (const QString &line : project.problems())
        printErr(tr("warning: %1").arg(line));
}

int listTools(const QStringList &args)
{
    if (args.size() != 1)
        return usage();
    auto project = loadProject(args.first());
    if (!project)
        return 2;
    // The tools of the MCP servers (started when the project is trusted); a server that
    // fails is named with its stderr tail and the other tools are still listed.
    const QStringList mcpProblems = McpProjectTools::connectAndAdd(*project);
    for (const Tool &tool : project->tools) {
        const PythonToolFile *file = project->pythonFileOf(tool.name);
        QString source = file ? file->path : QStringLiteral("toolstudio.json");
        if (tool.handler == HandlerKind::Mcp)
            source = QStringLiteral("mcp_servers.") + tool.name.section(QStringLiteral("__"), 0, 0);
        printOut(QStringLiteral("%1\t%2\t%3%4\n")
                     .arg(printableText(tool.name), handlerKindName(tool.handler), source,
                          tool.active ? QString() : QStringLiteral("\tinactive"))
                     .toUtf8());
        for (const QString &warning : tool.warnings)
            printErr(tr("warning: tool '%1' (%2): %3").arg(printableText(tool.name), source, printableText(warning)));
    }
    for (const QString &problem : mcpProblems)
        printErr(tr("warning: %1").arg(printableLines(problem)));
    printProblems(*project);
    return 0;
}

int exportTools(const QStringList &args)
{
    QString projectDir, format, output;
    bool strict = false;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--strict"))
            strict = true;
        else if (args[i] == QLatin1String("--format") && i + 1 < args.size())
            format = args[++i];
        else if (args[i].startsWith(QLatin1String("--format=")))
            format = args[i].mid(9);
        else if ((args[i] == QLatin1String("--output") || args[i] == QLatin1String("-o")) && i + 1 < args.size())
            output = args[++i];
        else if (projectDir.isEmpty() && !args[i].startsWith(QLatin1Char('-')))
            projectDir = args[i];
        else
            return usage();
    }
    const auto parsed = ToolExport::parseFormat(format);
    if (projectDir.isEmpty() || !parsed) {
        if (!format.isEmpty())
            printErr(tr("unknown format '%1' (anthropic, openai-chat, openai-responses)").arg(format));
        return usage();
    }
    int exitCode = 0;
    const auto project = loadProject(projectDir, Use::Code, &exitCode);
    if (!project)
        return exitCode;
    printProblems(*project);
    QStringList refused, changed;
    const auto list = ToolExport::exportTools(project->tools, *parsed, strict, &refused, &changed);
    if (!refused.isEmpty()) {
        for (const QString &line : std::as_const(refused))
            printErr(line);
        printErr(tr("nothing exported: %n tool(s) cannot be exported as %1%2", nullptr, int(refused.size()))
                     .arg(ToolExport::formatName(*parsed), strict ? QStringLiteral(" --strict") : QString()));
        return 1;
    }
    for (const QString &line : std::as_const(changed)) // names mapped, keys added: never silent
        printErr(line);
    // Secrets never leave masked: a description or default that quotes one shows ********.
    const QByteArray text = Secrets::load(project->dir).mask(QByteArray::fromStdString(list.dump(2) + '\n'));
    if (output.isEmpty()) {
        printOut(text);
        return 0;
    }
    QSaveFile file(output);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        printErr(tr("%1: cannot write: %2").arg(output, file.errorString()));
        return 1;
    }
    printErr(tr("%n tool(s) written to %1", nullptr, int(list.size())).arg(output));
    return 0;
}

int importTools(const QStringList &args)
{
    QStringList positional;
    ToolImport::As as = ToolImport::As::Manual;
    QString format;                 // "bfcl", or empty: detected
    QMap<QString, QString> renames; // --rename OLD=NEW: a person accepts a suggested name
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--rename") && i + 1 < args.size()) {
            const QString pair = args[++i];
            const qsizetype eq = pair.lastIndexOf(QLatin1Char('='));
            if (eq <= 0 || eq == pair.size() - 1) {
                printErr(tr("--rename %1: expected OLD=NEW").arg(pair));
                return usage();
            }
            renames.insert(pair.left(eq), pair.mid(eq + 1));
        } else if (args[i] == QLatin1String("--as") && i + 1 < args.size()) {
            const QString kind = args[++i];
            if (kind == QLatin1String("mock"))
                as = ToolImport::As::Mock;
            else if (kind != QLatin1String("manual"))
                return usage();
        } else if (args[i] == QLatin1String("--format") && i + 1 < args.size()) {
            format = args[++i];
            if (format == QLatin1String("auto"))
                format.clear();
            else if (format != QLatin1String("bfcl")) {
                printErr(tr("unknown import format '%1' (bfcl, or auto: the others are recognised by their shape)")
                             .arg(format));
                return usage();
            }
        } else {
            positional << args[i];
        }
    }
    if (positional.size() != 2)
        return usage();
    const QString dir = QDir::current().absoluteFilePath(positional[0]);
    if (!loadProject(dir))
        return 2;
    const ToolImport::Outcome outcome
        = ToolImport::importFile(dir, QDir::current().absoluteFilePath(positional[1]), as, renames, format);
    // What the outcome says quotes the file (names, Python errors of a .py file):
    // printable, whatever the file holds (issue 16 class 6).
    for (const QString &line : outcome.errors)
        printErr(printableLines(line));
    if (!outcome.errors.isEmpty()) {
        printErr(tr("nothing imported"));
        return 1;
    }
    for (const QString &line : outcome.notes)
        printErr(tr("note: %1").arg(printableLines(line)));
    QStringList refusedNames;
    for (const ToolImport::Refusal &refusal : outcome.refused) {
        printErr(printableLines(ToolImport::Outcome::describe(refusal)));
        refusedNames << elidedText(refusal.name);
    }
    if (!outcome.ok()) {
        printErr(tr("nothing imported: %1 of %n tool(s) refused", nullptr, outcome.total).arg(outcome.refused.size()));
        return 1;
    }
    // Exit 0 when at least one tool was imported, refusals or not (docs/project-format.md).
    if (refusedNames.isEmpty())
        printOut(tr("imported %n tool(s): %1\n", nullptr, int(outcome.imported.size()))
                     .arg(printableText(outcome.imported.join(QStringLiteral(", "))))
                     .toUtf8());
    else
        printOut(tr("imported %1 of %n tool(s): %2; refused: %3\n", nullptr, outcome.total)
                     .arg(outcome.imported.size())
                     .arg(printableText(outcome.imported.join(QStringLiteral(", "))),
                          printableText(refusedNames.join(QStringLiteral(", "))))
                     .toUtf8());
    return 0;
}

int setSecret(QStringList args)
{
    const bool remove = args.removeAll(QStringLiteral("--delete")) > 0;
    QStringList hosts;
    for (qsizetype i = args.indexOf(QStringLiteral("--host")); i >= 0; i = args.indexOf(QStringLiteral("--host"))) {
        if (i + 1 >= args.size())
            return usage();
        hosts << args.takeAt(i + 1);
        args.removeAt(i);
    }
    if (args.size() != 2 || (remove && !hosts.isEmpty()))
        return usage();
    const QString dir = QDir::current().absoluteFilePath(args[0]);
    if (!QFileInfo(dir).isDir()) {
        printErr(tr("%1: project folder does not exist").arg(dir));
        return 2;
    }
    QString error;
    Secrets secrets = Secrets::load(dir, &error);
    if (remove) {
        secrets.remove(args[1]);
    } else {
        // With --host and no value (a terminal, or an empty pipe) only the binding of a
        // key already set changes.
        const bool bindOnly = !hosts.isEmpty() && !secrets.value(args[1]).isEmpty();
        QString value;
        if (!(bindOnly && ::isatty(STDIN_FILENO)))
            value = QTextStream(stdin).readLine();
        if (!value.isEmpty()) {
            if (!secrets.set(args[1], value, &error)) {
                printErr(error);
                return 2;
            }
            if (!hosts.isEmpty())
                secrets.setHosts(args[1], hosts);
        } else if (bindOnly) {
            secrets.setHosts(args[1], secrets.hosts(args[1]) + hosts);
        } else {
            // An empty pipe (an unset variable) must not replace or delete the real secret.
            printErr(tr("secret %1: empty value on stdin, nothing saved (pipe the value in; "
                        "to delete the secret, use --delete)")
                         .arg(args[1]));
            return 2;
        }
    }
    if (!secrets.save(&error)) {
        printErr(error);
        return 1;
    }
    printErr(remove ? tr("secret %1 deleted").arg(args[1])
                    : tr("secret %1 saved in %2 (mode 0600)").arg(args[1], Secrets::filePath(dir)));
    if (!remove && !secrets.hosts(args[1]).isEmpty())
        printErr(tr("secret %1 goes only to %2").arg(args[1], secrets.hosts(args[1]).join(QStringLiteral(", "))));
    return 0;
}

int bundle(const QStringList &args)
{
    if (args.size() != 3 || (args[0] != QLatin1String("export") && args[0] != QLatin1String("import")))
        return usage();
    const QString dir = QDir::current().absoluteFilePath(args[1]);
    const QString zip = QDir::current().absoluteFilePath(args[2]);
    if (args[0] == QLatin1String("export")) {
        if (!loadProject(dir))
            return 2;
        QStringList exported;
        QString error;
        if (!Bundle::exportBundle(dir, zip, &exported, &error)) {
            printErr(error);
            return 1;
        }
        for (const QString &item : std::as_const(exported))
            printOut((item + QLatin1Char('\n')).toUtf8());
        printErr(tr("bundle written to %1 (no secrets)").arg(zip));
        return 0;
    }
    if (!loadProject(dir)) // with --trust, recorded first: reading the bundle's tool files runs them
        return 2;
    QStringList imported, errors;
    if (!Bundle::importBundle(dir, zip, &imported, &errors)) {
        for (const QString &line : std::as_const(errors))
            printErr(line);
        printErr(tr("nothing imported"));
        return 1;
    }
    printOut(tr("imported %n tool(s): %1\n", nullptr, int(imported.size()))
                 .arg(printableText(imported.join(QStringLiteral(", "))))
                 .toUtf8());
    return 0;
}

int typings(const QStringList &args)
{
    QString projectDir, outDir;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--out") && i + 1 < args.size())
            outDir = args[++i];
        else if (projectDir.isEmpty() && !args[i].startsWith(QLatin1Char('-')))
            projectDir = args[i];
        else
            return usage();
    }
    if (projectDir.isEmpty())
        return usage();
    int exitCode = 0;
    const auto project = loadProject(projectDir, Use::Code, &exitCode);
    if (!project)
        return exitCode;
    printProblems(*project);
    QStringList written;
    QString error;
    if (!Typings::write(*project, outDir.isEmpty() ? project->dir : QDir::current().absoluteFilePath(outDir), &written,
                        &error)) {
        printErr(error);
        return 1;
    }
    for (const QString &path : std::as_const(written))
        printOut((path + QLatin1Char('\n')).toUtf8());
    return 0;
}

/// `tools install-requirements PROJECT`: what Install Requirements… does in the window,
/// for every tool file that failed for a missing module. pip's output goes to stderr.
/// Exit 0 when there was nothing to install or the install succeeded, 1 when it failed
/// (pip's last lines on stderr; a venv it created is removed again).
int installRequirements(const QStringList &args)
{
    if (args.size() != 1)
        return usage();
    int exitCode = 0;
    const auto project = loadProject(args.first(), Use::Code, &exitCode);
    if (!project)
        return exitCode;
    QStringList requirements;
    for (const PythonToolFile &file : project->pythonFiles) {
        if (file.missingModule.isEmpty())
            continue;
        const QStringList own = PythonEnv::requirementsOf(file);
        if (own.isEmpty())
            printErr(tr("warning: %1 misses the module '%2' but has no requirements: line")
                         .arg(file.path, file.missingModule));
        for (const QString &requirement : own)
            if (!requirements.contains(requirement))
                requirements << requirement;
    }
    if (requirements.isEmpty()) {
        printErr(tr("nothing to install: no tool file names a requirement for a missing module"));
        return 0;
    }
    printErr(
        tr("installing into %1: %2").arg(PythonEnv::venvDir(project->dir), requirements.join(QStringLiteral(", "))));
    PythonEnv env(project->dir);
    QEventLoop loop;
    bool done = false;
    bool ok = false;
    QString error;
    QObject::connect(&env, &PythonEnv::output, &loop,
                     [](const QString &text) { std::fputs(qPrintable(text), stderr); });
    QObject::connect(&env, &PythonEnv::finished, &loop, [&](bool success, const QString &message) {
        done = true;
        ok = success;
        error = message;
        loop.quit();
    });
    env.install(requirements);
    if (!done)
        loop.exec();
    if (!ok) {
        printErr(tr("error: %1").arg(error));
        return 1;
    }
    if (const auto reloaded = loadProject(args.first()))
        printProblems(*reloaded);
    return 0;
}

} // namespace

int toolsCommand(const QStringList &argumentsIn)
{
    QStringList arguments = argumentsIn;
    trustRequested = arguments.removeAll(QStringLiteral("--trust")) > 0;
    if (arguments.isEmpty())
        return usage();
    const QString sub = arguments.first();
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h")) { // toolstudio help tools
        printOut(usageText().toUtf8() + '\n');
        return 0;
    }
    const QStringList rest = arguments.mid(1);
    if (sub == QLatin1String("list"))
        return listTools(rest);
    if (sub == QLatin1String("export"))
        return exportTools(rest);
    if (sub == QLatin1String("import"))
        return importTools(rest);
    if (sub == QLatin1String("secret"))
        return setSecret(rest);
    if (sub == QLatin1String("bundle"))
        return bundle(rest);
    if (sub == QLatin1String("typings"))
        return typings(rest);
    if (sub == QLatin1String("install-requirements"))
        return installRequirements(rest);
    // Exit status 2 (ExitBadInput), like every other usage error of every command.
    printErr(tr("toolstudio tools: unknown tools command '%1'").arg(sub));
    return usage();
}
