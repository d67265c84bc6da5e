// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "programmaticapi.h"

#include "httpserver.h"

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

void ProgrammaticApi::startSession(const ProgrammaticRequest &request, const HttpResponder &responder)
{
    if (m_sessions.size() >= m_limits.maxSessions) {
        responder.send(503,
                       errorBody("too_many_sessions",
                                 QStringLiteral("%1 sessions are running, the most this server keeps at once; "
                                                "finish one or wait for one to end")
                                     .arg(m_sessions.size())));
        return;
    }
    auto *session = new ProgrammaticSession(m_project, m_limits, this);
    QString error;
    if (!session->start(request, &error)) {
        delete session;
        responder.send(500, errorBody("cannot_start", QStringLiteral("the program could not start: %1").arg(error)));
        return;
    }
    m_sessions.insert(session->id(), session);
    session->onEnded = [this](ProgrammaticSession *ended, const QString &code, const QString &message) {
        m_sessions.remove(ended->id());
        m_ended.insert(ended->id(), {code, message});
        m_endedOrder << ended->id();
        while (m_endedOrder.size() > MaxEndedKept)
            m_ended.remove(m_endedOrder.takeFirst());
        ended->deleteLater();
    };
    session->awaitReply(responder);
}

void ProgrammaticApi::continueSession(const ProgrammaticRequest &request, const HttpResponder &responder)
{
    ProgrammaticSession *session = m_sessions.value(request.sessionId);
    if (!session) {
        const auto ended = m_ended.find(request.sessionId);
        if (ended != m_ended.end())
            responder.send(410, errorBody(ended->first.toUtf8().constData(), ended->second, request.sessionId));
        else
            responder.send(404,
                           errorBody("unknown_session",
                                     QStringLiteral("no session '%1' on this server: a session_id comes from a "
                                                    "tool_call_required response of this server")
                                         .arg(request.sessionId)));
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
        responder.send(403,
                       errorBody("invalid_token",
                                 QStringLiteral("the continuation_token is not the current one of session %1: "
                                                "a token works once, for the session whose latest response "
                                                "issued it")
                                     .arg(session->id()),
                                 session->id()));
        return;
    }
    int status = 400;
    const char *code = "bad_request";
    QString message;
    if (!session->check(request.results, &status, &code, &message)) {
        responder.send(status, errorBody(code, message, session->id()));
        return;
    }
    session->resume(request.results, responder);
}
