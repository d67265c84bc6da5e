// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answercommand.h"

#include "headlessrun.h"
#include "journal/journal.h"
#include "jsoninput.h"
#include "pendinganswerintake.h"
#include "project/project.h"
#include "serveclient.h"
#include "servefile.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <QUrl>

#include <algorithm>

namespace {

/// Exit status of `answer` for an error code of the server or the intake.
int exitFor(const std::string &code)
{
    return code == "unknown_run" || code == "held_by_step_mode" || code == "bad_request" ? ExitBadInput : ExitRunFailed;
}

/// The answer through the project's server (docs/server.md): nullopt when it cannot be
/// reached, else the exit status after printing what the server said.
std::optional<int> answerThroughServer(const ServeFile &server, const PendingAnswer &pending, bool attemptGiven,
                                       double timeoutSeconds)
{
    nlohmann::json body = {{"id", pending.callId.toStdString()}};
    if (pending.answer.isError) {
        body["type"] = "tool.error";
        body["error"] = pending.answer.message.toStdString();
        body["retryable"] = pending.answer.retryable;
    } else {
        body["type"] = "tool.result";
        body["result"] = pending.answer.result;
    }
    if (attemptGiven)
        body["attempt"] = pending.attempt;
    const std::string path = "/v1/runs/" + QUrl::toPercentEncoding(pending.runId).toStdString() + "/calls/"
        + QUrl::toPercentEncoding(pending.callId).toStdString()
        + "?timeout=" + QByteArray::number(std::clamp(timeoutSeconds, 0.0, 300.0)).toStdString();
    const auto reply = ServeClient::post(server, path, body, int(std::clamp(timeoutSeconds, 0.0, 300.0)) + 10);
    if (!reply)
        return std::nullopt;
    if (reply->status == 200 || reply->status == 202) {
        const int attempt = reply->body.is_object() ? reply->body.value("attempt", pending.attempt) : pending.attempt;
        if (reply->status == 200)
            printLine(stdout,
                      QStringLiteral("accepted: %1 attempt %2 of run %3")
                          .arg(printableText(pending.callId))
                          .arg(attempt)
                          .arg(printableText(pending.runId)));
        else
            printLine(stdout,
                      QStringLiteral("kept: run %1 is suspended; the answer to %2 (attempt %3) is applied "
                                     "when it is resumed")
                          .arg(printableText(pending.runId), printableText(pending.callId))
                          .arg(attempt));
        return ExitCompleted;
    }
    std::string code = "http_" + std::to_string(reply->status);
    std::string message = "the server answered HTTP " + std::to_string(reply->status);
    if (reply->body.is_object() && reply->body.contains("error") && reply->body["error"].is_object()) {
        const nlohmann::json &error = reply->body["error"];
        code = error.value("code", code);
        message = error.value("message", message);
    }
    const bool byEngine = code == "refused" || code == "stale_attempt";
    printLine(
        stderr,
        QStringLiteral("toolstudio answer: %1%2")
            .arg(byEngine ? QStringLiteral("refused: ") : QString(), printableText(QString::fromStdString(message))));
    return exitFor(code);
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
    // A project being served takes the answer over HTTP; the journal otherwise.
    if (const auto server = ServeFile::readLive(project->dir))
        if (const auto served = answerThroughServer(*server, pending, parser.isSet(attemptOption), timeoutSeconds))
            return *served;
    Journal journal;
    QString error;
    if (!journal.open(project->journalPath(), &error))
        return fail(error, ExitBadInput);
    const PendingAnswerIntake::Submission submission = PendingAnswerIntake::submit(journal, *project, pending);
    if (submission.refusal != PendingAnswerIntake::Refusal::None)
        return fail(submission.reason, exitFor(PendingAnswerIntake::refusalCode(submission.refusal)));
    pending.attempt = submission.attempt;
    const qint64 id = submission.id;
    if (submission.kept) {
        printLine(
            stdout,
            QStringLiteral("kept: run %1 is suspended; the answer to %2 (attempt %3) is applied when it is resumed "
                           "(toolstudio resume %4 %5)")
                .arg(printableText(pending.runId), printableText(pending.callId))
                .arg(pending.attempt)
                .arg(shellQuoted(project->dir), shellQuoted(pending.runId)));
        return ExitCompleted;
    }
    QElapsedTimer clock;
    clock.start();
    const qint64 timeoutMs = qint64(timeoutSeconds * 1000);
    while (clock.elapsed() < timeoutMs) {
        const auto state = journal.pendingAnswer(id);
        if (state && state->state == QLatin1String("accepted")) {
            printLine(stdout,
                      QStringLiteral("accepted: %1 attempt %2 of run %3")
                          .arg(printableText(pending.callId))
                          .arg(pending.attempt)
                          .arg(printableText(pending.runId)));
            return ExitCompleted;
        }
        if (state && state->state == QLatin1String("refused"))
            return fail(QStringLiteral("refused: %1").arg(state->reason), ExitRunFailed);
        QThread::msleep(50);
    }
    return fail(QStringLiteral("the process running %1 did not pick the answer up within %2 s; it stays in the journal")
                    .arg(pending.runId, parser.value(timeoutOption)),
                ExitRunFailed);
}
