// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runsservice.h"

#include "exchange/traceexport.h"
#include "journal/journal.h"
#include "pendinganswerintake.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTimer>

#include <memory>

namespace {

/// How often an answer's state is read back from the journal while the running process
/// (another one, today) takes it up; polling keeps the Qt thread free meanwhile.
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

RunsService::RunsService(const Project &project, Journal *journal, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_journal(journal)
{}

RunsService::Reply RunsService::failure(int status, const char *code, const QString &message)
{
    Reply reply;
    reply.status = status;
    reply.code = code;
    reply.message = message;
    return reply;
}

RunsService::Reply RunsService::runs() const
{
    nlohmann::json runs = nlohmann::json::array();
    for (const RunRecord &run : m_journal->runs())
        runs.push_back(
            runSummaryJson(run, m_journal->stepCount(run.id), QDir(m_project.dir).relativeFilePath(run.scriptPath)));
    return {200, {{"runs", runs}}, {}, {}};
}

RunsService::Reply RunsService::exportRun(const QString &runId) const
{
    const auto run = m_journal->run(runId);
    if (!run)
        return failure(404, "unknown_run", QStringLiteral("no run '%1' in this project").arg(runId));
    return {200,
            TraceExport::runJson(*run, m_journal->steps(runId), m_journal->events(runId), m_journal->output(runId, 1),
                                 m_journal->output(runId, 2)),
            {},
            {}};
}

RunsService::Reply RunsService::pending(const QString &runId) const
{
    const auto run = m_journal->run(runId);
    if (!run)
        return failure(404, "unknown_run", QStringLiteral("no run '%1' in this project").arg(runId));
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
    return {200,
            {{"run", runId.toStdString()}, {"status", runStatusName(run->status).toStdString()}, {"pending", pending}},
            {},
            {}};
}

void RunsService::answer(const PendingAnswer &answer, int waitMs, std::function<void(const Reply &)> done)
{
    const PendingAnswerIntake::Submission submission = PendingAnswerIntake::submit(*m_journal, m_project, answer);
    if (submission.refusal != PendingAnswerIntake::Refusal::None) {
        done(failure(refusalStatus(submission.refusal), PendingAnswerIntake::refusalCode(submission.refusal),
                     submission.reason));
        return;
    }
    const nlohmann::json body = {{"run", answer.runId.toStdString()},
                                 {"call_id", answer.callId.toStdString()},
                                 {"attempt", submission.attempt},
                                 {"status", submission.kept ? "kept" : "accepted"}};
    if (submission.kept) {
        done({202, body, {}, {}}); // applied when the suspended run is resumed
        return;
    }
    auto *timer = new QTimer(this);
    timer->setInterval(PollMs);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    const qint64 id = submission.id;
    connect(timer, &QTimer::timeout, this, [this, timer, clock, id, body, waitMs, done] {
        const auto state = m_journal->pendingAnswer(id);
        if (state && state->state == QLatin1String("accepted"))
            done({200, body, {}, {}});
        else if (state && state->state == QLatin1String("refused"))
            done(failure(409, PendingAnswerIntake::engineRefusalCode(state->reason), state->reason));
        else if (clock->elapsed() >= waitMs)
            done(failure(504, "not_picked_up",
                         QStringLiteral("the process running %1 did not pick the answer up within %2 s; it stays "
                                        "in the journal and is applied when the run takes it")
                             .arg(QString::fromStdString(body.value("run", "")))
                             .arg(waitMs / 1000.0)));
        else
            return;
        timer->stop();
        timer->deleteLater();
    });
    timer->start();
}
