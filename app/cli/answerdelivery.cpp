// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answerdelivery.h"

#include "headlessrun.h"
#include "journal/journal.h"
#include "pendinganswerintake.h"
#include "project/project.h"
#include "serveclient.h"
#include "servefile.h"

#include <QElapsedTimer>
#include <QThread>
#include <QUrl>

#include <algorithm>

namespace {

/// Exit status for an error code of the server or the intake.
int exitFor(const std::string &code)
{
    return code == "unknown_run" || code == "held_by_step_mode" || code == "bad_request" ? ExitBadInput : ExitRunFailed;
}

AnswerDelivery failed(const QString &message, int exitCode, bool byEngine = false)
{
    AnswerDelivery delivery;
    delivery.message = message;
    delivery.exitCode = exitCode;
    delivery.refusedByEngine = byEngine;
    return delivery;
}

/// The answer through the project's server (docs/server.md): nullopt when it cannot be
/// reached.
std::optional<AnswerDelivery> deliverThroughServer(const ServeFile &server, const PendingAnswer &pending,
                                                   bool attemptGiven, double timeoutSeconds)
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
    if (pending.answer.question > 0)
        body["question"] = pending.answer.question;
    const std::string path = "/v1/runs/" + QUrl::toPercentEncoding(pending.runId).toStdString() + "/calls/"
        + QUrl::toPercentEncoding(pending.callId).toStdString()
        + "?timeout=" + QByteArray::number(std::clamp(timeoutSeconds, 0.0, 300.0)).toStdString();
    const auto reply = ServeClient::post(server, path, body, int(std::clamp(timeoutSeconds, 0.0, 300.0)) + 10);
    if (!reply)
        return std::nullopt;
    if (reply->status == 200 || reply->status == 202) {
        AnswerDelivery delivery;
        delivery.throughServer = true;
        delivery.state = reply->status == 200 ? AnswerDelivery::State::Accepted : AnswerDelivery::State::Kept;
        delivery.attempt = reply->body.is_object() ? reply->body.value("attempt", pending.attempt) : pending.attempt;
        return delivery;
    }
    std::string code = "http_" + std::to_string(reply->status);
    std::string message = "the server answered HTTP " + std::to_string(reply->status);
    if (reply->body.is_object() && reply->body.contains("error") && reply->body["error"].is_object()) {
        const nlohmann::json &error = reply->body["error"];
        code = error.value("code", code);
        message = error.value("message", message);
    }
    return failed(QString::fromStdString(message), exitFor(code), code == "refused" || code == "stale_attempt");
}

} // namespace

AnswerDelivery AnswerDelivery::deliver(const Project &project, PendingAnswer pending, bool attemptGiven,
                                       double timeoutSeconds)
{
    // A project being served takes the answer over HTTP; the journal otherwise.
    if (const auto server = ServeFile::readLive(project.dir))
        if (auto served = ::deliverThroughServer(*server, pending, attemptGiven, timeoutSeconds))
            return *served;
    Journal journal;
    QString error;
    if (!journal.open(project.journalPath(), &error))
        return failed(error, ExitBadInput);
    const PendingAnswerIntake::Submission submission = PendingAnswerIntake::submit(journal, project, pending);
    if (submission.refusal != PendingAnswerIntake::Refusal::None)
        return failed(submission.reason, exitFor(PendingAnswerIntake::refusalCode(submission.refusal)));
    AnswerDelivery delivery;
    delivery.attempt = submission.attempt;
    if (submission.kept) {
        delivery.state = State::Kept;
        return delivery;
    }
    QElapsedTimer clock;
    clock.start();
    const qint64 timeoutMs = qint64(timeoutSeconds * 1000);
    while (clock.elapsed() < timeoutMs) {
        const auto state = journal.pendingAnswer(submission.id);
        if (state && state->state == QLatin1String("accepted")) {
            delivery.state = State::Accepted;
            return delivery;
        }
        if (state && state->state == QLatin1String("refused"))
            return failed(QStringLiteral("refused: %1").arg(state->reason), ExitRunFailed);
        QThread::msleep(50);
    }
    return failed(QStringLiteral("the process running %1 did not pick the answer up within %2 s; it stays in the "
                                 "journal")
                      .arg(pending.runId)
                      .arg(timeoutSeconds),
                  ExitRunFailed);
}
