// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pendingcallsapi.h"

#include "answerbody.h"
#include "exchange/traceexport.h"
#include "httpserver.h"
#include "journal/journal.h"
#include "pendinganswerintake.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTimer>

namespace {

constexpr int PollMs = 50;

int refusalStatus(PendingAnswerIntake::Refusal refusal)
{
    using R = PendingAnswerIntake::Refusal;
    switch (refusal) {
    case R::UnknownRun:
    case R::UnknownCall:
        return 404;
    case R::StoreFailed:
        return 500;
    default:
        return 409;
    }
}

QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

nlohmann::json runSummaryJson(const RunRecord &run, int steps, const QString &script)
{
    nlohmann::json json = {{"id", run.id.toStdString()},
                           {"status", runStatusName(run.status).toStdString()},
                           {"kind", runKindName(run.kind).toStdString()},
                           {"started_at", run.startedAt},
                           {"ended_at", run.endedAt},
                           {"steps", steps},
                           {"script", script.toStdString()}};
    if (!run.sourceRun.isEmpty())
        json["source_run"] = run.sourceRun.toStdString();
    if (!run.error.isEmpty())
        json["error"] = run.error.toStdString();
    return json;
}

PendingCallsApi::PendingCallsApi(const Project &project, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_journal(std::make_unique<Journal>())
{}

PendingCallsApi::~PendingCallsApi() = default;

bool PendingCallsApi::open(QString *error)
{
    return m_journal->open(m_project.journalPath(), error);
}

void PendingCallsApi::install(HttpServer &server)
{
    server.route("GET", "/v1/runs", "/v1/runs", "The project's runs, newest first, as `toolstudio runs --json`.",
                 [this](const HttpRequest &, const HttpResponder &responder) { listRuns(responder); });
    server.route("GET", "/v1/runs/([^/]+)", "/v1/runs/{run}", "One run as the run-export JSON (docs/run-export.md).",
                 [this](const HttpRequest &request, const HttpResponder &responder) { exportRun(request, responder); });
    server.route(
        "GET", "/v1/runs/([^/]+)/pending", "/v1/runs/{run}/pending",
        "The run's calls that have not ended: which wait for an answer, which step mode holds.",
        [this](const HttpRequest &request, const HttpResponder &responder) { listPending(request, responder); });
    server.route(
        "POST", "/v1/runs/([^/]+)/calls/([^/]+)", "/v1/runs/{run}/calls/{call_id}",
        "End a pending call: {\"type\": \"tool.result\", \"id\", \"attempt\", \"result\"} or "
        "{\"type\": \"tool.error\", \"id\", \"error\", \"retryable\", \"attempt\"}.",
        [this](const HttpRequest &request, const HttpResponder &responder) { answerCall(request, responder); });
}

void PendingCallsApi::listRuns(const HttpResponder &responder)
{
    nlohmann::json runs = nlohmann::json::array();
    for (const RunRecord &run : m_journal->runs())
        runs.push_back(
            runSummaryJson(run, m_journal->stepCount(run.id), QDir(m_project.dir).relativeFilePath(run.scriptPath)));
    responder.send(200, {{"runs", runs}});
}

void PendingCallsApi::exportRun(const HttpRequest &request, const HttpResponder &responder)
{
    const QString runId = fromUtf8(request.captures.at(0));
    const auto run = m_journal->run(runId);
    if (!run)
        return responder.fail(404, "unknown_run", QStringLiteral("no run '%1' in this project").arg(runId));
    responder.send(200,
                   TraceExport::runJson(*run, m_journal->steps(runId), m_journal->events(runId),
                                        m_journal->output(runId, 1), m_journal->output(runId, 2)));
}

void PendingCallsApi::listPending(const HttpRequest &request, const HttpResponder &responder)
{
    const QString runId = fromUtf8(request.captures.at(0));
    const auto run = m_journal->run(runId);
    if (!run)
        return responder.fail(404, "unknown_run", QStringLiteral("no run '%1' in this project").arg(runId));
    nlohmann::json pending = nlohmann::json::array();
    for (const Step &step : m_journal->steps(runId)) {
        if (isFinal(step.status))
            continue;
        pending.push_back({{"call_id", step.callId.toStdString()},
                           {"sequence", step.sequence},
                           {"tool", step.tool.toStdString()},
                           {"args", step.args},
                           {"status", stepStatusName(step.status).toStdString()},
                           {"attempt", step.attempts.empty() ? 1 : step.attempts.back().number},
                           {"held_by_step_mode", PendingAnswerIntake::heldByStepMode(*m_journal, runId, step)}});
    }
    responder.send(
        200,
        {{"run", runId.toStdString()}, {"status", runStatusName(run->status).toStdString()}, {"pending", pending}});
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
    int waitMs = DefaultAnswerWaitMs;
    if (const auto timeout = request.query.find("timeout"); timeout != request.query.end()) {
        bool ok = false;
        const double seconds = fromUtf8(timeout->second).toDouble(&ok);
        if (!ok || seconds < 0 || seconds > 300)
            return responder.fail(
                400, "bad_request",
                QStringLiteral("?timeout= must be seconds from 0 to 300, not '%1'").arg(fromUtf8(timeout->second)));
        waitMs = int(seconds * 1000);
    }
    const PendingAnswerIntake::Submission submission = PendingAnswerIntake::submit(*m_journal, m_project, pending);
    if (submission.refusal != PendingAnswerIntake::Refusal::None)
        return responder.fail(refusalStatus(submission.refusal), PendingAnswerIntake::refusalCode(submission.refusal),
                              submission.reason);
    const nlohmann::json reply = {{"run", pending.runId.toStdString()},
                                  {"call_id", pending.callId.toStdString()},
                                  {"attempt", submission.attempt},
                                  {"status", submission.kept ? "kept" : "accepted"}};
    if (submission.kept)
        return responder.send(202, reply); // applied when the suspended run is resumed
    awaitResolution(submission.id, reply, waitMs, responder);
}

void PendingCallsApi::awaitResolution(qint64 id, const nlohmann::json &accepted, int waitMs,
                                      const HttpResponder &responder)
{
    // The running process (another one, today) takes journal answers up every 250 ms;
    // polling here keeps the Qt thread free for other requests meanwhile.
    auto *timer = new QTimer(this);
    timer->setInterval(PollMs);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto check = [this, timer, clock, id, accepted, waitMs, responder] {
        const auto state = m_journal->pendingAnswer(id);
        if (state && state->state == QLatin1String("accepted"))
            responder.send(200, accepted);
        else if (state && state->state == QLatin1String("refused"))
            responder.fail(409, PendingAnswerIntake::engineRefusalCode(state->reason), state->reason);
        else if (clock->elapsed() >= waitMs)
            responder.fail(504, "not_picked_up",
                           QStringLiteral("the process running %1 did not pick the answer up within %2 s; it stays "
                                          "in the journal and is applied when the run takes it")
                               .arg(QString::fromStdString(accepted.value("run", "")))
                               .arg(waitMs / 1000.0));
        else
            return;
        timer->stop();
        timer->deleteLater();
    };
    connect(timer, &QTimer::timeout, this, check);
    timer->start();
}
