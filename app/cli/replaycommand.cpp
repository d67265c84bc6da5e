// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "replaycommand.h"

#include "answerfile.h"
#include "headlessrun.h"
#include "project/jsonerror.h"
#include "trustcommand.h"

#include <QCommandLineParser>

namespace {

/// The options replay and resume share.
struct CommonOptions
{
    QCommandLineOption answers{QStringLiteral("answers"),
                               QStringLiteral("Answers for manual calls (see `toolstudio run`)."),
                               QStringLiteral("FILE")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print JSON lines instead of text.")};

    void addTo(QCommandLineParser &parser)
    {
        parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
        parser.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("A run id (see `toolstudio runs`)."));
        parser.addOption(answers);
        parser.addOption(json);
        parser.addOption(trustOption());
    }
};

int runWith(const QString &command, QCommandLineParser &parser, CommonOptions &common, const Project &project,
            bool waitForAnswers, const std::function<bool(RunController &, QString *)> &start)
{
    std::optional<AnswerFile> answers;
    if (parser.isSet(common.answers)) {
        QString error;
        answers = AnswerFile::load(parser.value(common.answers), &error);
        if (!answers) {
            printLine(stderr, QStringLiteral("toolstudio %1: %2").arg(command, error));
            return ExitBadInput;
        }
    }
    HeadlessOptions options;
    options.command = command;
    options.projectDir = project.dir;
    options.answers = answers ? &*answers : nullptr;
    options.json = parser.isSet(common.json);
    options.waitForJournalAnswers = waitForAnswers;
    HeadlessRun run(options);
    return run.exec(start);
}

} // namespace

int replayCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Replay a run with memoized results; rerun from a step; cassettes."));
    CommonOptions common;
    common.addTo(parser);
    const QCommandLineOption fromOption(
        QStringLiteral("from"), QStringLiteral("Rerun from step N (earlier steps memoized)."), QStringLiteral("N"));
    const QCommandLineOption argsOption(QStringLiteral("args"),
                                        QStringLiteral("With --from: the step's edited arguments (JSON object)."),
                                        QStringLiteral("JSON"));
    const QCommandLineOption saveOption(QStringLiteral("save-cassette"),
                                        QStringLiteral("Write RUN's tool results to FILE and exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption cassetteOption(
        QStringLiteral("cassette"),
        QStringLiteral("Run offline against FILE (RUN = a script path, or - for the cassette's)."),
        QStringLiteral("FILE"));
    parser.addOption(fromOption);
    parser.addOption(argsOption);
    parser.addOption(saveOption);
    parser.addOption(cassetteOption);
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("replay"), arguments, 2, 2, &exitCode);
    if (!positional)
        return exitCode;
    // Writing a cassette reads the journal only; every other replay runs the script.
    const auto project = parser.isSet(saveOption) ? loadProjectFor(QStringLiteral("replay"), positional->at(0))
                                                  : loadProjectToRun(QStringLiteral("replay"), positional->at(0),
                                                                     parser.isSet(QStringLiteral("trust")), &exitCode);
    if (!project)
        return parser.isSet(saveOption) ? ExitBadInput : exitCode;
    const QString runId = positional->at(1);

    if (parser.isSet(saveOption)) {
        RunController controller;
        QString error;
        if (!controller.saveCassette(*project, runId, parser.value(saveOption), &error)) {
            printLine(stderr, QStringLiteral("toolstudio replay: %1").arg(error));
            return ExitBadInput;
        }
        printLine(stdout, QStringLiteral("cassette of run %1 written to %2").arg(runId, parser.value(saveOption)));
        return ExitCompleted;
    }
    if (parser.isSet(cassetteOption)) {
        const QString cassette = parser.value(cassetteOption);
        const QString script = runId == QLatin1String("-") ? QString() : runId;
        return runWith(QStringLiteral("replay"), parser, common, *project, false,
                       [&](RunController &controller, QString *error) {
                           return controller.startWithCassette(*project, cassette, script, error);
                       });
    }
    if (parser.isSet(fromOption)) {
        bool ok = false;
        const int from = parser.value(fromOption).toInt(&ok);
        std::optional<nlohmann::json> edited;
        if (parser.isSet(argsOption)) {
            const QByteArray text = parser.value(argsOption).toUtf8();
            JsonInput::Problem problem;
            edited = JsonInput::read<nlohmann::json>(std::string_view(text.constData(), std::size_t(text.size())),
                                                     &problem);
            if (edited->is_discarded()) {
                printLine(stderr,
                          QStringLiteral("toolstudio replay: --args is not valid JSON at %1 "
                                         "(keys and strings need double quotes, e.g. '{\"n\": 7}')")
                              .arg(describeJsonProblem(text, problem)));
                return ExitBadInput;
            }
            if (!edited->is_object()) {
                printLine(stderr, QStringLiteral("toolstudio replay: --args must be a JSON object"));
                return ExitBadInput;
            }
        }
        if (!ok || from < 1) {
            printLine(stderr, QStringLiteral("toolstudio replay: --from needs a step number (1, 2, …)"));
            return ExitBadInput;
        }
        return runWith(QStringLiteral("replay"), parser, common, *project, false,
                       [&](RunController &controller, QString *error) {
                           return controller.rerunFrom(*project, runId, from, edited, error);
                       });
    }
    return runWith(
        QStringLiteral("replay"), parser, common, *project, false,
        [&](RunController &controller, QString *error) { return controller.startReplay(*project, runId, error); });
}

int resumeCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Resume a suspended run: replay it up to its open call."));
    CommonOptions common;
    common.addTo(parser);
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("resume"), arguments, 2, 2, &exitCode);
    if (!positional)
        return exitCode;
    const auto project = loadProjectToRun(QStringLiteral("resume"), positional->at(0),
                                          parser.isSet(QStringLiteral("trust")), &exitCode);
    if (!project)
        return exitCode;
    const QString runId = positional->at(1);
    return runWith(
        QStringLiteral("resume"), parser, common, *project, true,
        [&](RunController &controller, QString *error) { return controller.resume(*project, runId, error); });
}
