// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pendingcallsapi.h"

#include "answerbody.h"
#include "httpserver.h"
#include "journal/journal.h"
#include "project/printabletext.h"
#include "runsservice.h"
#include "servedstepmode.h"

#include <algorithm>

namespace {

QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/// `reply` as HTTP: its body, or its refusal as the API's error body.
void respond(const HttpResponder &responder, const RunsService::Reply &reply)
{
    if (reply.ok())
        responder.send(reply.status, reply.body);
    else
        responder.fail(reply.status, reply.code.c_str(), reply.message);
}

} // namespace

PendingCallsApi::PendingCallsApi(const Project &project, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_journal(std::make_unique<Journal>())
    , m_runs(new RunsService(project, m_journal.get(), this))
{}

PendingCallsApi::~PendingCallsApi() = default;

bool PendingCallsApi::open(QString *error)
{
    return m_journal->open(m_project.journalPath(), error);
}

void PendingCallsApi::install(HttpServer &server)
{
    server.route("GET", "/v1/runs", "/v1/runs",
                 "The project's runs in the order they started, as `toolstudio runs --json`.",
                 [this](const HttpRequest &, const HttpResponder &responder) { respond(responder, m_runs->runs()); });
    server.route("GET", "/v1/runs/([^/]+)", "/v1/runs/{run}", "One run as the run-export JSON (docs/run-export.md).",
                 [this](const HttpRequest &request, const HttpResponder &responder) {
                     respond(responder, m_runs->exportRun(fromUtf8(request.captures.at(0))));
                 });
    server.route("GET", "/v1/runs/([^/]+)/pending", "/v1/runs/{run}/pending",
                 "The run's calls that have not ended: which wait for an answer, which step mode holds.",
                 [this](const HttpRequest &request, const HttpResponder &responder) {
                     respond(responder, m_runs->pending(fromUtf8(request.captures.at(0))));
                 });
    server.route(
        "POST", "/v1/runs/([^/]+)/calls/([^/]+)", "/v1/runs/{run}/calls/{call_id}",
        "End a pending call: {\"type\": \"tool.result\", \"id\", \"attempt\", \"result\"} or "
        "{\"type\": \"tool.error\", \"id\", \"error\", \"retryable\", \"attempt\"}.",
        [this](const HttpRequest &request, const HttpResponder &responder) { answerCall(request, responder); });
    server.route(
        "POST", "/v1/runs/([^/]+)/calls/([^/]+)/decision", "/v1/runs/{run}/calls/{call_id}/decision",
        "Decide a served call held by step mode: {\"decision\": \"continue\"}, {\"decision\": \"answer\", "
        "\"result\"}, {\"decision\": \"fail\", \"error\", \"retryable\"} or {\"decision\": \"time_out\"}.",
        [this](const HttpRequest &request, const HttpResponder &responder) { decideCall(request, responder); });
}

void PendingCallsApi::decideCall(const HttpRequest &request, const HttpResponder &responder)
{
    const QString runId = fromUtf8(request.captures.at(0));
    const QString callId = fromUtf8(request.captures.at(1));
    QString problem;
    const auto decision = AnswerBody::readDecision(request.body, &problem);
    if (!decision)
        return responder.fail(400, "bad_request", problem);
    const QString run = elidedText(runId, AnswerBody::QuotedChars);
    const QString call = elidedText(callId, AnswerBody::QuotedChars);
    if (!m_stepMode || !m_stepMode->serves(runId)) {
        // Not a live served session's run: say what the journal knows of it.
        if (!m_journal->run(runId))
            return responder.fail(404, "unknown_run", QStringLiteral("no run '%1' in this project").arg(run));
        const std::vector<Step> steps = m_journal->steps(runId);
        if (std::none_of(steps.cbegin(), steps.cend(), [&](const Step &step) { return step.callId == callId; }))
            return responder.fail(404, "unknown_call", QStringLiteral("run %1 has no call '%2'").arg(run, call));
        return responder.fail(409, "not_held",
                              QStringLiteral("call '%1' of run %2 is not held by step mode in this server: only a "
                                             "served MCP session's call is decided here (a script run's held "
                                             "calls are decided where it runs)")
                                  .arg(call, run));
    }
    ServedStepMode::Refusal refusal = ServedStepMode::Refusal::None;
    if (!m_stepMode->decide(runId, callId, *decision, &problem, &refusal)) {
        if (refusal == ServedStepMode::Refusal::UnknownCall)
            return responder.fail(404, "unknown_call", QStringLiteral("run %1 has no call '%2'").arg(run, call));
        return responder.fail(409, refusal == ServedStepMode::Refusal::NotHeld ? "not_held" : "refused", problem);
    }
    static const char *const names[] = {"continue", "answer", "fail", "time_out"};
    responder.send(
        200,
        {{"run", runId.toStdString()}, {"call_id", callId.toStdString()}, {"decision", names[int(decision->kind)]}});
}

void PendingCallsApi::answerCall(const HttpRequest &request, const HttpResponder &responder)
{
    PendingAnswer pending;
    pending.runId = fromUtf8(request.captures.at(0));
    pending.callId = fromUtf8(request.captures.at(1));
    QString problem;
    const auto answer = AnswerBody::read(request.body, pending.callId, &pending.attempt, &problem);
    if (!answer)
        return responder.fail(400, "bad_request", problem);
    pending.answer = *answer;
    int waitMs = RunsService::DefaultAnswerWaitMs;
    if (const auto timeout = request.query.find("timeout"); timeout != request.query.end()) {
        bool ok = false;
        const double seconds = fromUtf8(timeout->second).toDouble(&ok);
        if (!ok || seconds < 0 || seconds > 300)
            return responder.fail(
                400, "bad_request",
                QStringLiteral("?timeout= must be seconds from 0 to 300, not '%1'").arg(fromUtf8(timeout->second)));
        waitMs = int(seconds * 1000);
    }
    m_runs->answer(pending, waitMs, [responder](const RunsService::Reply &reply) { respond(responder, reply); });
}
