// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "programmaticapi.h"

#include "engine/replaysource.h"
#include "httpserver.h"
#include "journal/journal.h"
#include "jsoninput.h"
#include "servedsessionrecord.h"

#include <QDateTime>

namespace {

constexpr int MaxEndedKept = 1000;

/// The error body of this API: the server's {"error": {"code", "message"}} with
/// "status": "error" (and the session when known), as seed 003's clients read it.
nlohmann::json errorBody(const char *code, const QString &message, const QString &sessionId = {})
{
    nlohmann::json body = httpErrorBody(code, message.toStdString());
    body["status"] = "error";
    if (!sessionId.isEmpty())
        body["session_id"] = sessionId.toStdString();
    return body;
}

nlohmann::json invalidToken(const QString &sessionId)
{
    return errorBody("invalid_token",
                     QStringLiteral("the continuation_token is not the current one of session %1: a token works "
                                    "once, for the session whose latest response issued it")
                         .arg(sessionId),
                     sessionId);
}

nlohmann::json unknownSession(const QString &sessionId)
{
    return errorBody("unknown_session",
                     QStringLiteral("no session '%1' on this server: a session_id comes from a "
                                    "tool_call_required response of this server")
                         .arg(sessionId));
}

} // namespace

ProgrammaticApi::ProgrammaticApi(const Project &project, const ProgrammaticLimits &limits, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_limits(limits)
{}

ProgrammaticApi::~ProgrammaticApi() = default; // sessions are children: their runs stop

int ProgrammaticApi::longestReplySeconds()
{
    return ProgrammaticRequest::MaxTimeoutSeconds + 30;
}

void ProgrammaticApi::install(HttpServer &server)
{
    server.route(
        "POST", "/v1/exec/programmatic", "/v1/exec/programmatic",
        "Run code whose declared tools the client answers: {\"code\", \"language\", \"tools\"}, then "
        "{\"session_id\", \"continuation_token\", \"tool_results\"} while the status is "
        "tool_call_required.",
        [this](const HttpRequest &request, const HttpResponder &responder) { exec(request, responder, true); });
    server.route(
        "POST", "/v1/exec", "/v1/exec", "Run code without tools: {\"code\", \"language\", \"files\"}.",
        [this](const HttpRequest &request, const HttpResponder &responder) { exec(request, responder, false); });
}

void ProgrammaticApi::exec(const HttpRequest &request, const HttpResponder &responder, bool withTools)
{
    ProgrammaticRequest::Problem problem;
    const auto parsed = ProgrammaticRequest::parse(request.body, withTools, &problem);
    if (!parsed) {
        responder.send(problem.status, errorBody(problem.code, problem.message));
        return;
    }
    if (parsed->continuation)
        continueSession(*parsed, responder);
    else
        startSession(*parsed, responder);
}

bool ProgrammaticApi::roomForOne(const HttpResponder &responder) const
{
    if (m_sessions.size() < m_limits.maxSessions)
        return true;
    responder.send(503,
                   errorBody("too_many_sessions",
                             QStringLiteral("%1 sessions are running, the most this server keeps at once; "
                                            "finish one or wait for one to end")
                                 .arg(m_sessions.size())));
    return false;
}

bool ProgrammaticApi::roomToWait(const HttpResponder &responder) const
{
    int waiting = 0;
    for (const ProgrammaticSession *session : m_sessions)
        waiting += session->busy() ? 1 : 0;
    if (waiting < MaxClientsWaiting)
        return true;
    responder.send(503,
                   errorBody("too_many_running",
                             QStringLiteral("%1 programs are running while their clients wait for the reply, the "
                                            "most this server holds at once (each holds one of its threads); "
                                            "nothing was started or continued: retry when one has paused for a "
                                            "tool or ended")
                                 .arg(waiting)));
    return false;
}

void ProgrammaticApi::startSession(const ProgrammaticRequest &request, const HttpResponder &responder)
{
    if (!roomForOne(responder) || !roomToWait(responder))
        return;
    auto *session = new ProgrammaticSession(m_project, m_limits, this);
    QString error;
    if (!session->start(request, &error)) {
        delete session;
        responder.send(500, errorBody("cannot_start", QStringLiteral("the program could not start: %1").arg(error)));
        return;
    }
    adopt(session);
    session->awaitReply(responder);
}

void ProgrammaticApi::adopt(ProgrammaticSession *session)
{
    m_sessions.insert(session->id(), session);
    session->onEnded = [this](ProgrammaticSession *ended, const QString &code, const QString &message) {
        m_sessions.remove(ended->id());
        m_ended.insert(ended->id(), {code, message});
        m_endedOrder << ended->id();
        while (m_endedOrder.size() > MaxEndedKept)
            m_ended.remove(m_endedOrder.takeFirst());
        ended->deleteLater();
    };
}

void ProgrammaticApi::continueSession(const ProgrammaticRequest &request, const HttpResponder &responder)
{
    ProgrammaticSession *session = m_sessions.value(request.sessionId);
    if (!session) {
        const auto ended = m_ended.find(request.sessionId);
        if (ended != m_ended.end())
            responder.send(410, errorBody(ended->first.toUtf8().constData(), ended->second, request.sessionId));
        else
            reviveSession(request, responder);
        return;
    }
    if (session->busy()) {
        responder.send(409,
                       errorBody("session_busy",
                                 QStringLiteral("session %1 is being continued by another request; one "
                                                "continuation at a time, each with the token of the latest "
                                                "response")
                                     .arg(session->id()),
                                 session->id()));
        return;
    }
    if (session->previousTokenMatches(request.continuationToken)) {
        // The client lost the reply to its previous continuation (its connection closed
        // first) and asks again: it gets that reply, with the current token.
        session->resendLastReply(responder);
        return;
    }
    if (!session->tokenMatches(request.continuationToken)) {
        responder.send(403, invalidToken(session->id()));
        return;
    }
    int status = 400;
    const char *code = "bad_request";
    QString message;
    if (!session->check(request.results, &status, &code, &message)) {
        responder.send(status, errorBody(code, message, session->id()));
        return;
    }
    if (!roomToWait(responder))
        return; // the token is not spent: the client may send the same results again
    session->resume(request.results, responder);
}

void ProgrammaticApi::reviveSession(const ProgrammaticRequest &request, const HttpResponder &responder)
{
    const QString &id = request.sessionId;
    const auto record = ServedSessionRecord::load(m_project.dir, id);
    if (!record) {
        responder.send(404, unknownSession(id));
        return;
    }
    auto endWith = [&](const char *code, const QString &message) {
        ServedSessionRecord ended;
        ended.serial = record->serial + 1;
        ended.endedCode = QString::fromLatin1(code);
        ended.endedMessage = message;
        QString error;
        ended.save(m_project.dir, id, &error);
        ServedSessionRecord::removeStart(m_project.dir, id);
        responder.send(410, errorBody(code, message, id));
    };
    if (!record->endedCode.isEmpty()) {
        responder.send(410, errorBody(record->endedCode.toUtf8().constData(), record->endedMessage, id));
        return;
    }
    // The token its latest pause issued, or the one the continuation before it used.
    const std::string hash = ServedSessionRecord::hash(request.continuationToken);
    const bool issued = ServedSessionRecord::sameHash(hash, record->tokenHash);
    if (!issued && !ServedSessionRecord::sameHash(hash, record->previousTokenHash)) {
        responder.send(403, invalidToken(id));
        return;
    }
    if (!roomForOne(responder) || !roomToWait(responder))
        return;
    QString error;
    auto source = loadReplaySource(m_project.journalPath(), id, &error);
    if (!source) {
        endWith("session_ended",
                QStringLiteral("session %1 cannot go on: its run is not in the journal (%2)").arg(id, error));
        return;
    }
    if (source->run.status != RunStatus::Suspended) {
        if (isFinal(source->run.status))
            endWith("session_ended",
                    QStringLiteral("session %1 has ended (%2); start a new one")
                        .arg(id, runStatusName(source->run.status)));
        else
            responder.send(409,
                           errorBody("session_busy",
                                     QStringLiteral("session %1 is run by another process of the studio").arg(id), id));
        return;
    }
    // The calls the client was given at the pause that still wait in the journal. One
    // that ended says a continuation came after the pause (the studio stopped while the
    // program ran on): its token is used up, a retry with it is a lost reply.
    std::map<int, QString> reopen;
    QStringList waiting;
    bool continued = false;
    for (const ServedSessionRecord::WaitingCall &call : record->waiting)
        for (const Step &step : source->steps)
            if (step.sequence == call.sequence) {
                continued = continued || isFinal(step.status);
                if (!isFinal(step.status)) {
                    reopen[call.sequence] = call.callId;
                    waiting << call.callId;
                }
            }
    if (!issued && continued) {
        responder.send(403, invalidToken(id));
        return;
    }
    const bool deliver = issued && !continued;
    // Its waiting time counts from its pause, the studio's restart included.
    if (!continued && record->pausedAt > 0
        && QDateTime::currentMSecsSinceEpoch() - record->pausedAt > qint64(m_limits.sessionExpirySeconds) * 1000) {
        const QString message = QStringLiteral("session %1 expired: no continuation came within %2 s (toolstudio "
                                               "serve --session-expiry); its program was stopped")
                                    .arg(id)
                                    .arg(m_limits.sessionExpirySeconds);
        Journal journal;
        if (journal.open(m_project.journalPath())) {
            source->run.status = RunStatus::Cancelled;
            source->run.error = message;
            source->run.endedAt = QDateTime::currentMSecsSinceEpoch();
            journal.recordRun(source->run);
        }
        endWith("session_expired", message);
        return;
    }
    if (deliver)
        for (const ProgrammaticResult &result : request.results)
            if (!waiting.contains(result.callId)) {
                responder.send(
                    404,
                    errorBody("unknown_call", ProgrammaticSession::unknownCallMessage(id, result.callId, waiting), id));
                return;
            }
    // The request it started with, checked as then (the program is its run's script).
    // Read as any outside JSON (the folder is the project's; a planted file 300 000
    // levels deep overflowed the stack in dump()).
    nlohmann::ordered_json spec
        = JsonInput::read<nlohmann::ordered_json>(ServedSessionRecord::loadStart(m_project.dir, id));
    ProgrammaticRequest::Problem problem;
    std::optional<ProgrammaticRequest> start;
    if (spec.is_object()) {
        spec["code"] = "#";
        start = ProgrammaticRequest::parse(spec.dump(), true, &problem);
    }
    if (!start) {
        endWith("session_ended",
                QStringLiteral("session %1 cannot go on: the request that started it is no longer kept in "
                               ".toolstudio/served/")
                    .arg(id));
        return;
    }
    start->startSpec.clear();
    auto *session = new ProgrammaticSession(m_project, m_limits, this);
    if (!session->revive(id, *start, *record, reopen, deliver ? &request.results : nullptr, hash, responder, &error)) {
        delete session;
        responder.send(
            500, errorBody("cannot_start", QStringLiteral("the program could not start again: %1").arg(error), id));
        return;
    }
    adopt(session);
}
