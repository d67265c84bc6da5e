// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answercommand.h"

#include "answerdelivery.h"
#include "answermodel.h"
#include "headlessrun.h"
#include "jsoninput.h"
#include "project/project.h"

#include "serveclient.h"
#include "servefile.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QUrl>

namespace {

/// Decides a call held by step mode in the project's live server (`toolstudio serve
/// --step-mode`, or the window serving with Step Mode on): `body` to its decision route.
int decide(const Project &project, const QString &runId, const QString &callId, const nlohmann::json &body)
{
    auto fail = [](const QString &message, int code) {
        printLine(stderr, QStringLiteral("toolstudio answer: %1").arg(printableText(message)));
        return code;
    };
    const auto server = ServeFile::readLive(project.dir);
    if (!server)
        return fail(QStringLiteral("%1 is not served: a call held by step mode is decided by the server that holds "
                                   "it (toolstudio serve --step-mode, or the window serving the project)")
                        .arg(project.dir),
                    ExitBadInput);
    const std::string path = "/v1/runs/" + QUrl::toPercentEncoding(runId).toStdString() + "/calls/"
        + QUrl::toPercentEncoding(callId).toStdString() + "/decision";
    const auto reply = ServeClient::post(*server, path, body, 30);
    if (!reply)
        return fail(QStringLiteral("cannot reach the server at %1").arg(QString::fromStdString(server->url)),
                    ExitRunFailed);
    if (reply->status == 200) {
        printLine(stdout,
                  QStringLiteral("decided: %1 of run %2 (%3)")
                      .arg(printableText(callId), printableText(runId),
                           QString::fromStdString(body.value("decision", std::string()))));
        return ExitCompleted;
    }
    QString message = QStringLiteral("the server answered HTTP %1").arg(reply->status);
    if (reply->body.is_object() && reply->body.contains("error") && reply->body["error"].is_object())
        message = QString::fromStdString(reply->body["error"].value("message", message.toStdString()));
    return fail(message, reply->status == 409 ? ExitRunFailed : ExitBadInput);
}

} // namespace

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
    const QCommandLineOption continueOption(
        QStringLiteral("continue"),
        QStringLiteral("Step mode: run the held served call's handler (the project's server decides it)."));
    const QCommandLineOption timeOutOption(QStringLiteral("time-out"),
                                           QStringLiteral("Step mode: end the held served call with a timeout error."));
    const QCommandLineOption insteadOption(
        QStringLiteral("instead"),
        QStringLiteral("Step mode: with --result or --error, end the held served call with it; its handler does "
                       "not run."));
    const QCommandLineOption questionOption(
        QStringLiteral("question"),
        QStringLiteral("The serial of the MCP server's question answered (as `run` prints it): refused when the "
                       "server has withdrawn it and asks another."),
        QStringLiteral("N"));
    const QCommandLineOption modelOption(
        QStringLiteral("model"),
        QStringLiteral("An MCP server's sampling request: ask the project's model NAME and answer with its reply."),
        QStringLiteral("NAME"));
    const QCommandLineOption preferredOption(
        QStringLiteral("preferred-model"),
        QStringLiteral("An MCP server's sampling request: ask the project's model the server prefers (its "
                       "modelPreferences.hints, as the window chooses) and answer with its reply."));
    parser.addOptions({resultOption, errorOption, retryableOption, attemptOption, questionOption, timeoutOption,
                       continueOption, timeOutOption, insteadOption, modelOption, preferredOption});
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("answer"), arguments, 3, 3, &exitCode);
    if (!positional)
        return exitCode;
    auto fail = [](const QString &message, int code) {
        printLine(stderr, QStringLiteral("toolstudio answer: %1").arg(printableText(message)));
        return code;
    };
    if (parser.isSet(continueOption) || parser.isSet(timeOutOption)) {
        if (parser.isSet(continueOption) + parser.isSet(timeOutOption) + parser.isSet(resultOption)
                + parser.isSet(errorOption) + parser.isSet(insteadOption)
            != 1)
            return fail(QStringLiteral("--continue and --time-out take no --result, --error or --instead, nor "
                                       "each other"),
                        ExitBadInput);
        const auto project = loadProjectFor(QStringLiteral("answer"), positional->at(0));
        if (!project)
            return ExitBadInput;
        return decide(*project, positional->at(1), positional->at(2),
                      {{"decision", parser.isSet(continueOption) ? "continue" : "time_out"}});
    }
    const bool byModel = parser.isSet(modelOption) || parser.isSet(preferredOption);
    if (parser.isSet(modelOption) && parser.isSet(preferredOption))
        return fail(QStringLiteral("give --model NAME or --preferred-model, not both"), ExitBadInput);
    if (byModel
        && (parser.isSet(resultOption) || parser.isSet(errorOption) || parser.isSet(insteadOption)
            || parser.isSet(retryableOption)))
        return fail(QStringLiteral("--model and --preferred-model take no --result, --error, --retryable or "
                                   "--instead: the model writes the answer"),
                    ExitBadInput);
    if (!byModel && parser.isSet(resultOption) == parser.isSet(errorOption))
        return fail(QStringLiteral("give exactly one of --result JSON, --error MESSAGE, --model NAME and "
                                   "--preferred-model"),
                    ExitBadInput);
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
    } else if (parser.isSet(errorOption)) {
        pending.answer.isError = true;
        pending.answer.message = parser.value(errorOption);
        pending.answer.retryable = parser.isSet(retryableOption);
    }

    const auto project = loadProjectFor(QStringLiteral("answer"), positional->at(0));
    if (!project)
        return ExitBadInput;
    if (byModel) {
        const ModelAnswer written = ModelAnswer::ask(*project, pending.runId, pending.callId,
                                                     parser.isSet(modelOption) ? parser.value(modelOption) : QString());
        if (written.exitCode != ExitCompleted)
            return fail(written.message, written.exitCode);
        if (!written.choice.isEmpty())
            printLine(stdout, written.choice);
        pending.answer.result = written.answer;
        pending.answer.question = written.serial;
        printLine(
            stdout,
            QStringLiteral("model %1 answered (%2): %3")
                .arg(printableText(QString::fromStdString(written.answer.value("model", std::string()))),
                     QString::fromStdString(written.answer.value("stopReason", std::string())),
                     printableText(elidedText(written.answer.contains("content") // a tool call: its tool_use blocks
                                                  ? QString::fromStdString(written.answer["content"].dump(
                                                      -1, ' ', false, nlohmann::json::error_handler_t::replace))
                                                  : QString::fromStdString(written.answer.value("text", std::string())),
                                              2000))));
        for (const QString &note : written.notes)
            printLine(stdout, QStringLiteral("  not as asked: %1").arg(printableText(note)));
    }
    if (parser.isSet(insteadOption)) {
        nlohmann::json body = {{"decision", pending.answer.isError ? "fail" : "answer"}};
        if (pending.answer.isError) {
            body["error"] = pending.answer.message.toStdString();
            body["retryable"] = pending.answer.retryable;
        } else {
            body["result"] = pending.answer.result;
        }
        return decide(*project, pending.runId, pending.callId, body);
    }
    if (parser.isSet(questionOption)) {
        bool number = false;
        pending.answer.question = parser.value(questionOption).toInt(&number);
        if (!number || pending.answer.question < 1)
            return fail(QStringLiteral("--question is the serial of a question, a whole number from 1"), ExitBadInput);
    }
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
