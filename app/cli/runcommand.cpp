// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcommand.h"

#include "answerfile.h"
#include "headlessrun.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "trustcommand.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

namespace {

/// SCRIPT of `toolstudio run`: a path from the caller's cwd, a path relative to the
/// project, or the name of a script in the manifest (README "Headless use"), tried in
/// that order. Returns the absolute path, or empty with `*error` saying what was
/// looked for and which names the manifest has.
QString resolveScript(const Project &project, const QString &argument, QString *error)
{
    const QFileInfo fromCwd(argument);
    if (fromCwd.isFile())
        return fromCwd.absoluteFilePath();
    const QFileInfo inProject(QDir(project.dir).absoluteFilePath(argument));
    if (inProject.isFile())
        return inProject.absoluteFilePath();
    if (const ScriptEntry *entry = project.script(argument))
        return QDir::cleanPath(QDir(project.dir).absoluteFilePath(entry->path));
    QStringList looked{inProject.absoluteFilePath()};
    if (fromCwd.absoluteFilePath() != looked.first())
        looked.prepend(fromCwd.absoluteFilePath());
    QStringList names;
    for (const ScriptEntry &entry : project.scripts)
        names << entry.name;
    *error = names.isEmpty()
        ? QStringLiteral("script not found: '%1' is neither a file (looked for %2) nor a script name of the manifest "
                         "(it names no scripts)")
              .arg(argument, looked.join(QStringLiteral(" and ")))
        : QStringLiteral("script not found: '%1' is neither a file (looked for %2) nor a script name of the manifest "
                         "(scripts: %3)")
              .arg(argument, looked.join(QStringLiteral(" and ")), names.join(QStringLiteral(", ")));
    return QString();
}

} // namespace

int runCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run an agent script headless and print its trace."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PROJECT"),
                                 QStringLiteral("The project folder (with toolstudio.json)."));
    parser.addPositionalArgument(QStringLiteral("SCRIPT"),
                                 QStringLiteral("Script to run (default: the project's default script); a path "
                                                "relative to the project, any path, or a script name of the manifest."),
                                 QStringLiteral("[SCRIPT]"));
    const QCommandLineOption answersOption(QStringLiteral("answers"),
                                           QStringLiteral("Answers for manual calls: a JSON object keyed by tool "
                                                          "name or #N, each {\"result\": …} or {\"error\": …, "
                                                          "\"retryable\": false}."),
                                           QStringLiteral("FILE"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print JSON lines instead of text."));
    const QCommandLineOption stepOption(
        QStringLiteral("step"),
        QStringLiteral("Step mode: hold every call before it runs and read a decision per "
                       "line on stdin (c, a JSON, f MESSAGE, r MESSAGE, t, e)."));
    const QCommandLineOption waitOption(
        QStringLiteral("wait-for-answers"),
        QStringLiteral("Manual calls without an answer in FILE wait for `toolstudio answer` "
                       "instead of prompting or failing."));
    parser.addOption(answersOption);
    parser.addOption(jsonOption);
    parser.addOption(stepOption);
    parser.addOption(waitOption);
    parser.addOption(trustOption());
    QStringList argv = arguments;
    argv.prepend(QStringLiteral("toolstudio run"));
    if (!parser.parse(argv)) {
        printLine(
            stderr,
            QStringLiteral("toolstudio run: %1\n%2").arg(parser.errorText(), usageText(parser, QStringLiteral("run"))));
        return ExitBadInput;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        printLine(stdout, usageText(parser, QStringLiteral("run")));
        return ExitCompleted;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty() || positional.size() > 2) {
        printLine(stderr,
                  QStringLiteral("toolstudio run: expected PROJECT [SCRIPT]\n%1")
                      .arg(usageText(parser, QStringLiteral("run"))));
        return ExitBadInput;
    }

    int exitCode = ExitCompleted;
    const std::optional<Project> project
        = loadProjectToRun(QStringLiteral("run"), positional.at(0), parser.isSet(QStringLiteral("trust")), &exitCode);
    if (!project)
        return exitCode;
    // Python files or methods that did not load leave the project usable; say so.
    for (const QString &problem : project->problems())
        printLine(stderr, QStringLiteral("toolstudio run: warning: %1").arg(problem));
    std::optional<AnswerFile> answers;
    if (parser.isSet(answersOption)) {
        QString error;
        answers = AnswerFile::load(parser.value(answersOption), &error);
        if (!answers) {
            printLine(stderr, QStringLiteral("toolstudio run: %1").arg(error));
            return ExitBadInput;
        }
    }
    QString script = positional.size() > 1 ? positional.at(1) : QString();
    if (!script.isEmpty()) {
        QString error;
        script = resolveScript(*project, script, &error);
        if (script.isEmpty()) {
            printLine(stderr, QStringLiteral("toolstudio run: %1").arg(error));
            return ExitBadInput;
        }
    }
    HeadlessOptions options;
    options.projectDir = project->dir;
    options.answers = answers ? &*answers : nullptr;
    options.json = parser.isSet(jsonOption);
    options.stepMode = parser.isSet(stepOption);
    options.waitForJournalAnswers = parser.isSet(waitOption);
    HeadlessRun run(options);
    return run.exec(
        [&](RunController &controller, QString *error) { return controller.start(*project, script, error); });
}
