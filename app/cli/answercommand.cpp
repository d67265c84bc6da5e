// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answercommand.h"

#include "answerdelivery.h"
#include "headlessrun.h"
#include "jsoninput.h"
#include "project/project.h"

#include <QCommandLineParser>
#include <QDateTime>

int answerCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Answer a pending call of a run waiting in another process."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
    parser.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("The run id."));
    parser.addPositionalArgument(QStringLiteral("CALL_ID"), QStringLiteral("The call id (e.g. c3)."));
    const QCommandLineOption resultOption(QStringLiteral("result"), QStringLiteral("The result, as JSON."),
                                          QStringLiteral("JSON"));
    const QCommandLineOption errorOption(QStringLiteral("error"), QStringLiteral("Fail the call with MESSAGE."),
                                         QStringLiteral("MESSAGE"));
    const QCommandLineOption retryableOption(QStringLiteral("retryable"),
                                             QStringLiteral("With --error: the engine may try again."));
    const QCommandLineOption attemptOption(QStringLiteral("attempt"),
                                           QStringLiteral("The attempt answered (default: the current one)."),
                                           QStringLiteral("N"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout"),
                                           QStringLiteral("Seconds to wait for the running process (default 10)."),
                                           QStringLiteral("SECONDS"), QStringLiteral("10"));
    parser.addOptions({resultOption, errorOption, retryableOption, attemptOption, timeoutOption});
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("answer"), arguments, 3, 3, &exitCode);
    if (!positional)
        return exitCode;
    auto fail = [](const QString &message, int code) {
        printLine(stderr, QStringLiteral("toolstudio answer: %1").arg(printableText(message)));
        return code;
    };
    if (parser.isSet(resultOption) == parser.isSet(errorOption))
        return fail(QStringLiteral("give exactly one of --result JSON and --error MESSAGE"), ExitBadInput);
    PendingAnswer pending;
    pending.runId = positional->at(1);
    pending.callId = positional->at(2);
    pending.createdAt = QDateTime::currentMSecsSinceEpoch();
    if (parser.isSet(resultOption)) {
        const std::string text = parser.value(resultOption).toStdString();
        if (const std::string bound = JsonInput::limitProblem(text, "--result"); !bound.empty())
            return fail(QString::fromStdString(bound), ExitBadInput);
        pending.answer.result = JsonInput::read<nlohmann::json>(text);
        if (pending.answer.result.is_discarded())
            return fail(QStringLiteral("--result is not valid JSON (strings need quotes: '\"text\"')"), ExitBadInput);
    } else {
        pending.answer.isError = true;
        pending.answer.message = parser.value(errorOption);
        pending.answer.retryable = parser.isSet(retryableOption);
    }

    const auto project = loadProjectFor(QStringLiteral("answer"), positional->at(0));
    if (!project)
        return ExitBadInput;
    const double timeoutSeconds = parser.value(timeoutOption).toDouble();
    if (parser.isSet(attemptOption))
        pending.attempt = parser.value(attemptOption).toInt();
    const AnswerDelivery delivery
        = AnswerDelivery::deliver(*project, pending, parser.isSet(attemptOption), timeoutSeconds);
    switch (delivery.state) {
    case AnswerDelivery::State::Accepted:
        printLine(stdout,
                  QStringLiteral("accepted: %1 attempt %2 of run %3")
                      .arg(printableText(pending.callId))
                      .arg(delivery.attempt)
                      .arg(printableText(pending.runId)));
        return ExitCompleted;
    case AnswerDelivery::State::Kept:
        if (delivery.throughServer)
            printLine(stdout,
                      QStringLiteral("kept: run %1 is suspended; the answer to %2 (attempt %3) is applied "
                                     "when it is resumed")
                          .arg(printableText(pending.runId), printableText(pending.callId))
                          .arg(delivery.attempt));
        else
            printLine(stdout,
                      QStringLiteral("kept: run %1 is suspended; the answer to %2 (attempt %3) is applied when it "
                                     "is resumed (toolstudio resume %4 %5)")
                          .arg(printableText(pending.runId), printableText(pending.callId))
                          .arg(delivery.attempt)
                          .arg(shellQuoted(project->dir), shellQuoted(pending.runId)));
        return ExitCompleted;
    case AnswerDelivery::State::Failed:
        break;
    }
    return fail(delivery.refusedByEngine ? QStringLiteral("refused: ") + delivery.message : delivery.message,
                delivery.exitCode);
}
