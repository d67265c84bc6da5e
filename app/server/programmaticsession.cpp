// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "programmaticsession.h"

#include "project/printabletext.h"
#include "run/runcontroller.h"
#include "run/warmlauncher.h"
#include "servedfolder.h"

#include <QDateTime>
#include <QFile>
#include <QRandomGenerator>
#include <QTimer>

namespace {

/// 32 random bytes from the system's generator, base64url without padding.
std::string randomToken()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), 8);
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals).toStdString();
}

std::string text(const QByteArray &bytes)
{
    return bytes.toStdString();
}

} // namespace

ProgrammaticSession::ProgrammaticSession(const Project &project, const ProgrammaticLimits &limits, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_limits(limits)
    , m_controller(new RunController(this))
    , m_quiet(new QTimer(this))
    , m_expiry(new QTimer(this))
    , m_timeout(new QTimer(this))
{
    // One run per controller: nothing to pre-warm for.
    m_controller->warmLauncher()->setEnabled(false);
    m_quiet->setSingleShot(true);
    m_quiet->setInterval(QuietMs);
    connect(m_quiet, &QTimer::timeout, this, [this] { replyIfPaused(); });
    m_expiry->setSingleShot(true);
    connect(m_expiry, &QTimer::timeout, this, [this] {
        m_expired = true;
        stopRun(QStringLiteral("session_expired"),
                QStringLiteral("session %1 expired: no continuation came within %2 s (toolstudio serve "
                               "--session-expiry); its program was stopped")
                    .arg(m_id)
                    .arg(m_limits.sessionExpirySeconds));
    });
    m_timeout->setSingleShot(true);
    connect(m_timeout, &QTimer::timeout, this, [this] {
        stopRun(QStringLiteral("timeout"),
                QStringLiteral("the program did not finish within its timeout of %1 s (time spent waiting for tool "
                               "results counts); it was stopped")
                    .arg(m_timeoutSeconds));
    });
    connect(m_controller, &RunController::pendingCallOpened, this, &ProgrammaticSession::onPendingCall);
    connect(m_controller, &RunController::pendingCallClosed, this, [this](const QString &callId) {
        m_open.erase(callId);
        m_answered.erase(callId);
    });
    // The script says it is blocked on its calls (the shims' wait hint): every call it
    // has made is open, and no other can come before a result, so the reply goes now.
    // The reply waits until every call the script made before the hint has opened here
    // (a call reaches the engine and is journaled before it opens, so the hint can come
    // first). A call refused before it opens never does: the quiet window answers then.
    connect(m_controller, &RunController::scriptWaiting, this, [this](int callsMade) {
        m_waitFor = callsMade;
        replyOnWaitHint();
    });
    connect(m_controller, &RunController::stepsUpdated, this, &ProgrammaticSession::onSteps);
    connect(m_controller, &RunController::outputReceived, this,
            [this](int stream, const QByteArray &chunk) { (stream == 1 ? m_stdout : m_stderr) += chunk; });
    connect(m_controller, &RunController::finished, this, &ProgrammaticSession::onFinished);
}

ProgrammaticSession::~ProgrammaticSession()
{
    if (!m_controller->isActive())
        return;
    // The server stops. A session paused for the client is kept: its run is recorded
    // suspended, and a restarted studio goes on with it (revive). One whose program
    // runs is stopped: what it did after its last reply is not the client's to resume.
    if (m_durable && !m_tokenHash.empty() && !m_responder && !m_open.empty()) {
        m_controller->suspend();
        return;
    }
    m_controller->stop();
    saveEnded(
        QStringLiteral("session_ended"),
        QStringLiteral("session %1 was stopped with its server while its program ran; start a new one").arg(m_id));
}

Project ProgrammaticSession::servedProject(const ProgrammaticRequest &request)
{
    // The project as this session sees it: its folder and journal, and the request's
    // tools only, each a manual tool the client answers (one attempt, waiting at most
    // callWaitSeconds), with a call's payload and result capped at 1 MiB.
    Project served = m_project;
    served.tools.clear();
    for (Tool tool : request.tools) {
        tool.handler = HandlerKind::Manual;
        tool.active = true;
        tool.retry = RetryPolicy{};
        tool.retry.maxAttempts = 1;
        tool.retry.attemptTimeoutMs = m_limits.callWaitSeconds * 1000;
        tool.retry.totalTimeoutMs = 0;
        served.tools.push_back(std::move(tool));
    }
    served.scripts.clear();
    served.defaultScript.clear();
    served.pythonFiles.clear();
    served.mcpServers.clear();
    m_timeoutSeconds = request.timeoutSeconds > 0 ? request.timeoutSeconds : m_limits.defaultTimeoutSeconds;
    served.limits.requestBytes = ProgrammaticRequest::MaxResultBytes;
    served.limits.replyBytes = ProgrammaticRequest::MaxResultBytes;
    // The run's own clock pauses while calls wait, so the session's wall clock (m_timeout)
    // ends an overlong program first, with its own words.
    served.limits.runTimeoutMs = (m_timeoutSeconds + 5) * 1000;
    return served;
}

bool ProgrammaticSession::start(const ProgrammaticRequest &request, QString *error)
{
    Project served = servedProject(request);
    // The program is kept with the project, as a script of the run (0600).
    const ServedFolder folder(served.dir, true);
    const QString name = QString::fromStdString(randomToken()).left(12).replace(QLatin1Char('-'), QLatin1Char('x'))
        + (request.language == QLatin1String("bash") ? QStringLiteral(".sh") : QStringLiteral(".py"));
    const QString path = folder.pathOf(name);
    if (!folder.write(name, request.code.toUtf8(), error)) {
        *error = QStringLiteral("cannot keep the program: %1").arg(*error);
        return false;
    }
    m_project = served;
    m_controller->prepareServed(request.files, request.code.toUtf8());
    m_clock.start();
    if (!m_controller->start(served, path, error))
        return false;
    m_id = m_controller->record().id;
    m_timeout->start(m_timeoutSeconds * 1000);
    // Kept for a restarted studio (revive); the program is the run's script already.
    m_durable = !request.startSpec.empty();
    QString keepError;
    if (m_durable && !ServedSessionRecord::saveStart(m_project.dir, m_id, request.startSpec, &keepError))
        m_stderr += QStringLiteral("toolstudio serve: %1; this session does not survive a restart of the studio\n")
                        .arg(keepError)
                        .toUtf8();
    return true;
}

bool ProgrammaticSession::revive(const QString &runId, const ProgrammaticRequest &start,
                                 const ServedSessionRecord &record, const std::map<int, QString> &reopen,
                                 const std::vector<ProgrammaticResult> *results, const std::string &usedTokenHash,
                                 const HttpResponder &responder, QString *error)
{
    const Project served = servedProject(start);
    m_project = served;
    m_id = runId;
    m_durable = true;
    m_elapsedBefore = record.elapsedMs;
    m_saves = record.serial;
    // The program prints again from its start: what the client had as partial output
    // is not sent twice; the final stdout is the re-run's, the whole program's once.
    m_stdoutSent = record.stdoutSent;
    m_stderrSent = record.stderrSent;
    m_previousTokenHash = usedTokenHash;
    m_reopen = reopen;
    if (results)
        for (const ProgrammaticResult &result : *results)
            for (const auto &[sequence, callId] : reopen)
                if (callId == result.callId) {
                    ManualAnswer answer;
                    answer.isError = result.isError;
                    answer.result = result.result;
                    answer.message = result.errorMessage;
                    m_deferred[sequence] = answer;
                }
    m_controller->prepareServed(start.files); // the program: its kept file
    m_clock.start();
    if (!m_controller->resume(served, runId, error))
        return false;
    m_timeout->start(int(std::max<qint64>(1000, qint64(m_timeoutSeconds) * 1000 - m_elapsedBefore)));
    m_responder = responder;
    return true;
}

void ProgrammaticSession::saveState(qint64 pausedAt)
{
    if (!m_durable || m_id.isEmpty())
        return;
    ServedSessionRecord record;
    record.serial = ++m_saves;
    record.tokenHash = m_tokenHash;
    record.previousTokenHash = m_previousTokenHash;
    record.pausedAt = pausedAt;
    record.elapsedMs = m_elapsedBefore + m_clock.elapsed();
    record.stdoutSent = m_stdoutSent;
    record.stderrSent = m_stderrSent;
    for (const auto &[id, call] : m_open)
        record.waiting.push_back({call.sequence, clientId(id)});
    QString error;
    if (!record.save(m_project.dir, m_id, &error))
        qWarning("toolstudio serve: session %s does not survive a restart of the studio: %s", qPrintable(m_id),
                 qPrintable(error));
}

void ProgrammaticSession::saveEnded(const QString &code, const QString &message)
{
    if (!m_durable || m_id.isEmpty())
        return;
    ServedSessionRecord record;
    record.serial = ++m_saves;
    record.endedCode = code;
    record.endedMessage = message;
    QString error;
    if (!record.save(m_project.dir, m_id, &error))
        qWarning("toolstudio serve: %s", qPrintable(error));
    ServedSessionRecord::removeStart(m_project.dir, m_id);
}

QString ProgrammaticSession::clientId(const QString &callId) const
{
    const auto known = m_clientIds.find(callId);
    return known == m_clientIds.end() ? callId : known->second;
}

QString ProgrammaticSession::engineId(const QString &callId) const
{
    const auto known = m_engineIds.find(callId);
    return known == m_engineIds.end() ? callId : known->second;
}

bool ProgrammaticSession::tokenMatches(const std::string &token) const
{
    return ServedSessionRecord::sameHash(ServedSessionRecord::hash(token), m_tokenHash);
}

bool ProgrammaticSession::previousTokenMatches(const std::string &token) const
{
    return !m_tokenHash.empty() && !m_lastReply.is_null()
        && ServedSessionRecord::sameHash(ServedSessionRecord::hash(token), m_previousTokenHash);
}

void ProgrammaticSession::resendLastReply(const HttpResponder &responder)
{
    nlohmann::json body = m_lastReply;
    // The output since then goes with it, as it would have.
    body["partial_stdout"] = body.value("partial_stdout", "") + text(m_stdout.mid(m_stdoutSent));
    body["partial_stderr"] = body.value("partial_stderr", "") + text(m_stderr.mid(m_stderrSent));
    m_lastReply = body;
    m_stdoutSent = m_stdout.size();
    m_stderrSent = m_stderr.size();
    responder.send(200, std::move(body));
}

QString ProgrammaticSession::unknownCallMessage(const QString &session, const QString &callId,
                                                const QStringList &waiting)
{
    return QStringLiteral("session %1 has no call '%2' waiting for a result; the calls waiting are: %3")
        .arg(session, callId, waiting.isEmpty() ? QStringLiteral("none") : waiting.join(QStringLiteral(", ")));
}

bool ProgrammaticSession::check(const std::vector<ProgrammaticResult> &results, int *status, const char **code,
                                QString *message) const
{
    for (const ProgrammaticResult &result : results) {
        const QString callId = engineId(result.callId);
        if (m_open.count(callId))
            continue;
        if (m_answered.count(callId)) {
            *status = 409;
            *code = "already_ended";
            *message = QStringLiteral("call '%1' already has a result from an earlier continuation; nothing was "
                                      "delivered")
                           .arg(result.callId);
            return false;
        }
        const auto ended = m_ended.find(callId);
        if (ended == m_ended.end()) {
            *status = 404;
            *code = "unknown_call";
            QStringList waiting;
            for (const auto &[id, call] : m_open)
                waiting << clientId(id);
            *message = unknownCallMessage(m_id, result.callId, waiting);
            return false;
        }
        const Step &step = ended->second;
        *status = 409;
        *code = "already_ended";
        *message = step.status == StepStatus::Memoized
            ? QStringLiteral("call '%1' already has a result from an earlier continuation; nothing was delivered")
                  .arg(result.callId)
            : step.error
            ? QStringLiteral("call '%1' already ended: %2 (%3); nothing was delivered")
                  .arg(result.callId, QString::fromStdString(step.error->message), step.error->codeName())
            : QStringLiteral("call '%1' already has a result, given by a person (in the window, with toolstudio "
                             "answer or POST /v1/runs/{run}/calls/{call_id}); nothing was delivered")
                  .arg(result.callId);
        return false;
    }
    return true;
}

void ProgrammaticSession::resume(const std::vector<ProgrammaticResult> &results, const HttpResponder &responder)
{
    m_previousTokenHash = m_tokenHash;
    m_lastReply = nullptr;
    m_waitFor = -1;      // the script hints again once it waits on what is left
    m_tokenHash.clear(); // single-use
    m_expiry->stop();
    m_responder = responder;
    for (const ProgrammaticResult &result : results) {
        ManualAnswer answer;
        answer.isError = result.isError;
        answer.result = result.result;
        answer.message = result.errorMessage;
        deliver(engineId(result.callId), answer);
    }
    // Calls the client left unanswered are listed again, unless the program ends or
    // makes new calls first.
    if (!m_open.empty())
        m_quiet->start();
}

void ProgrammaticSession::deliver(const QString &callId, const ManualAnswer &answer)
{
    // Posted: the window's event loop (Serve Project) never waits for the run thread.
    // A refusal comes back queued, before the run's end unless the script ended first.
    const auto open = m_open.find(callId);
    if (open == m_open.end())
        return;
    const int attempt = open->second.attempt;
    m_answered.insert(m_open.extract(open));
    m_controller->answer(callId, attempt, answer, this, [this, callId](bool accepted, const QString &reason) {
        if (accepted)
            return;
        m_stderr += QStringLiteral("toolstudio serve: the result for call %1 was refused: %2\n")
                        .arg(clientId(callId), reason)
                        .toUtf8();
        // Not delivered: the call waits for the client again (unless it closed).
        if (auto node = m_answered.extract(callId))
            m_open.insert(std::move(node));
    });
}

void ProgrammaticSession::awaitReply(const HttpResponder &responder)
{
    m_responder = responder;
}

void ProgrammaticSession::onPendingCall(const Step &step)
{
    if (!m_stopCode.isEmpty())
        return; // stopping (a divergence): nothing more goes to the client
    // A revived session: a call that waited opens again under its number (and keeps the
    // id the client was given); any other call before they all have is not the program
    // the client talked to.
    if (const auto reopened = m_reopen.find(step.sequence); reopened != m_reopen.end()) {
        if (reopened->second != step.callId) {
            m_clientIds[step.callId] = reopened->second;
            m_engineIds[reopened->second] = step.callId;
        }
        m_reopen.erase(reopened);
    } else if (!m_reopen.empty()) {
        diverged(step);
        return;
    }
    const Attempt *attempt = step.currentAttempt();
    m_open[step.callId] = OpenCall{step.tool, step.args, attempt ? attempt->number : 1, step.sequence};
    m_callsOpened.insert(step.callId);
    if (const auto deferred = m_deferred.find(step.sequence); deferred != m_deferred.end()) {
        const ManualAnswer answer = deferred->second;
        m_deferred.erase(deferred);
        deliver(step.callId, answer);
    }
    m_quiet->start();
    replyOnWaitHint();
}

void ProgrammaticSession::diverged(const Step &step)
{
    QStringList waited;
    for (const auto &[sequence, callId] : m_reopen)
        waited << QStringLiteral("%1 (step %2)").arg(callId).arg(sequence);
    const QString call = QStringLiteral("%1(%2)").arg(
        step.tool,
        clippedText(QString::fromStdString(step.args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)),
                    120));
    stopRun(QStringLiteral("resume_diverged"),
            QStringLiteral("session %1 cannot go on after the studio restarted: its program, run again from its "
                           "start, made %2 (step %3), a call its journal does not have, before the calls it was "
                           "waiting on (%4). Calls are matched by tool, arguments and the number of identical calls "
                           "before them, so a program whose calls depend on time, randomness or changed input "
                           "diverges; it was stopped and nothing was delivered")
                .arg(m_id, call)
                .arg(step.sequence)
                .arg(waited.join(QStringLiteral(", "))));
}

void ProgrammaticSession::replyOnWaitHint()
{
    // A revived run's memoized calls never open: they count as made.
    if (m_waitFor < 0 || m_open.empty() || qsizetype(m_callsOpened.size() + m_memoized.size()) < m_waitFor)
        return;
    m_waitFor = -1;
    m_quiet->stop();
    replyIfPaused();
}

void ProgrammaticSession::onSteps(const QList<Step> &steps)
{
    for (const Step &step : steps) {
        m_steps[step.sequence] = true;
        if (step.status == StepStatus::Memoized)
            m_memoized.insert(step.callId);
        if (isFinal(step.status))
            m_ended[step.callId] = step;
    }
    replyOnWaitHint();
}

void ProgrammaticSession::replyIfPaused()
{
    if (!m_responder || m_open.empty() || !m_controller->isActive())
        return;
    const std::string token = randomToken();
    m_tokenHash = ServedSessionRecord::hash(token);
    nlohmann::json calls = nlohmann::json::array();
    for (const auto &[id, call] : m_open)
        calls.push_back(
            {{"id", clientId(id).toStdString()}, {"name", call.tool.toStdString()}, {"arguments", call.arguments}});
    nlohmann::json body = {{"status", "tool_call_required"},
                           {"session_id", m_id.toStdString()},
                           {"continuation_token", token},
                           {"tool_calls", calls},
                           {"partial_stdout", text(m_stdout.mid(m_stdoutSent))},
                           {"partial_stderr", text(m_stderr.mid(m_stderrSent))}};
    m_stdoutSent = m_stdout.size();
    m_stderrSent = m_stderr.size();
    m_expiry->start(m_limits.sessionExpirySeconds * 1000);
    m_lastReply = body;
    // On disk before the client has the token: a studio restarted from here on knows it.
    saveState(QDateTime::currentMSecsSinceEpoch());
    sendReply(200, std::move(body));
}

void ProgrammaticSession::sendReply(int status, nlohmann::json body)
{
    if (!m_responder)
        return;
    const HttpResponder responder = *m_responder;
    m_responder.reset();
    responder.send(status, std::move(body));
}

nlohmann::json ProgrammaticSession::outputFilesJson() const
{
    nlohmann::json files = nlohmann::json::array();
    for (const RunFile &file : m_controller->outputFiles()) {
        QFile in(m_controller->outputFilesDir() + QLatin1Char('/') + file.name);
        if (!in.open(QIODevice::ReadOnly))
            continue;
        files.push_back({{"name", file.name.toStdString()}, {"content", in.readAll().toBase64().toStdString()}});
    }
    return files;
}

void ProgrammaticSession::stopRun(const QString &code, const QString &message)
{
    if (!m_controller->isActive())
        return;
    m_stopCode = code;
    m_stopMessage = message;
    m_controller->stop();
}

void ProgrammaticSession::onFinished(const RunRecord &run)
{
    m_quiet->stop();
    m_expiry->stop();
    m_timeout->stop();
    m_tokenHash.clear();
    m_open.clear();
    m_answered.clear();
    if (!m_reopen.empty() && m_stopCode.isEmpty()) {
        // A revived program that ended before making the calls it waited on again.
        QStringList waited;
        for (const auto &[sequence, callId] : m_reopen)
            waited << QStringLiteral("%1 (step %2)").arg(callId).arg(sequence);
        m_stopCode = QStringLiteral("resume_diverged");
        m_stopMessage = QStringLiteral("session %1 cannot go on after the studio restarted: its program, run again "
                                       "from its start, ended without making the calls it was waiting on (%2); "
                                       "nothing was delivered")
                            .arg(m_id, waited.join(QStringLiteral(", ")));
    }
    // The program ended by itself (any exit status) = completed; stopped by the
    // session, killed or never started = error.
    const bool exited = run.status == RunStatus::Completed
        || (run.status == RunStatus::Failed && run.error.startsWith(QLatin1String("the script exited with status")));
    nlohmann::json body = {{"status", exited && m_stopCode.isEmpty() ? "completed" : "error"},
                           {"session_id", m_id.toStdString()},
                           {"stdout", text(m_stdout)},
                           {"stderr", text(m_stderr)},
                           {"files", outputFilesJson()},
                           {"tool_calls_made", m_steps.size()},
                           {"execution_time", m_elapsedBefore + m_clock.elapsed()},
                           {"exit_code", run.exitCode}};
    QString code = QStringLiteral("session_ended");
    QString message = QStringLiteral("session %1 has ended (%2); start a new one").arg(m_id, runStatusName(run.status));
    if (!m_stopCode.isEmpty()) {
        body["error"] = {{"code", m_stopCode.toStdString()}, {"message", m_stopMessage.toStdString()}};
        code = m_stopCode;
        message = m_stopMessage;
    } else if (!exited) {
        body["error"] = {{"code", "run_failed"}, {"message", run.error.toStdString()}};
    }
    saveEnded(code, message);
    sendReply(200, std::move(body));
    if (onEnded)
        onEnded(this, code, message);
}
