// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/stepattempts.h"

#include "bridgemessage.h"
#include "engine/handlers/commandhandler.h"
#include "engine/handlers/mainthreadhandler.h"
#include "engine/handlers/manualhandler.h"
#include "engine/handlers/mockhandler.h"
#include "engine/handlers/pythonhandler.h"
#include "engine/modelstep.h"
#include "engine/nullsleftout.h"
#include "engine/stepenginestate.h"
#include "project/printabletext.h"
#include "project/projecttrust.h"
#include "project/retrybackoff.h"
#include "project/schemavalidator.h"
#include "python/toolworker.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace stepengine;

StepAttempts::StepAttempts(StepEngineState &state)
    : s(state)
{}

void StepAttempts::startAttempt(int index)
{
    Flight &flight = *s.flights[std::size_t(index)];
    Step &step = s.steps[std::size_t(index)];
    const Tool &tool = *s.toolOf(step.tool);

    Attempt attempt;
    attempt.number = int(step.attempts.size()) + 1;
    attempt.startedAt = now();
    step.attempts.push_back(attempt);
    if (step.startedAt == 0)
        step.startedAt = attempt.startedAt;
    step.nextAttemptAt = 0;

    if (tool.handler == HandlerKind::Command || tool.handler == HandlerKind::Python
        || tool.handler == HandlerKind::Mcp) {
        // Try it, a run, the CLI: every way to a host command, the tool worker or an MCP server.
        if (const QString refused = ProjectTrust::refusal(s.project); !refused.isEmpty()) {
            step.attempts.back().endedAt = step.attempts.back().startedAt;
            step.attempts.back().error = makeError(ErrorCode::ToolFailed, refused, false, attempt.number);
            step.error = step.attempts.back().error;
            finish(index, StepStatus::Failed);
            return;
        }
    }
    ToolHandler *handler = nullptr;
    const bool model = ModelSteps::isModelStep(step.tool);
    QString refused; ///< why a model step's handler was not made
    switch (tool.handler) {
    case HandlerKind::Mock: {
        const int mockIndex = s.mockAttempts[&tool]++; // one look-up per call
        const MockResponse &entry = MockHandler::entryFor(tool, mockIndex);
        if (entry.delayMs <= 0) {
            // Answered at once, without a handler object or a timer round (the hot path
            // of the bridge benchmark). The attempt is still recorded as started.
            step.status = StepStatus::Running;
            startTotalTimer(index, tool); // a retry's backoff still counts against it
            // Written with its outcome by finish() or the retry's batch below, so no
            // flush timer is started and stopped again per call.
            if (s.journal)
                s.batch.markDirty(index);
            s.emitStep(&StepEngine::stepChanged, index);
            if (s.flights[std::size_t(index)]) // a slot may have stopped the run
                completeAttempt(index, false, MockHandler::outcomeOf(entry));
            else
                s.scheduleFlush(20);
            return;
        }
        handler = new MockHandler(entry, flight.owner(s.q));
        break;
    }
    case HandlerKind::Manual: // a model step's policy says Manual: its handler is the model's (modelstep.h)
        handler
            = model ? s.models->makeHandler(step, flight.owner(s.q), &refused) : new ManualHandler(flight.owner(s.q));
        break;
    case HandlerKind::Command:
        handler = new CommandHandler(tool.command, flight.owner(s.q), tool.commandFileArgs);
        break;
    case HandlerKind::Python:
        // The project's tool worker is a main-thread object; the engine may run on the
        // run thread (RunController), then the handler lives on the main thread.
        if (QCoreApplication::instance() && s.q->thread() != QCoreApplication::instance()->thread())
            handler = new MainThreadHandler([] { return new PythonHandler; }, ToolWorker::cancelReport(),
                                            flight.owner(s.q));
        else
            handler = new PythonHandler(flight.owner(s.q));
        break;
    case HandlerKind::Mcp: {
        // Made by the library that registered it (McpHandler, mcp/ links the engine).
        bool mainThread = false;
        if (ToolHandler::Factory make = ToolHandler::factory(tool.handler, &mainThread)) {
            if (mainThread && QCoreApplication::instance() && s.q->thread() != QCoreApplication::instance()->thread()) {
                auto *proxy = new MainThreadHandler(
                    std::move(make), QStringLiteral("notifications/cancelled sent to the tool's MCP server"),
                    flight.owner(s.q));
                // A cancelled attempt's record is made on the main thread, after the
                // attempt ended here: it comes back to be journaled with the attempt.
                proxy->setCancelledProtocolSink(
                    [late = s.lateProtocols, index, number = attempt.number](nlohmann::json record) {
                        late->post(index, number, std::move(record));
                    });
                handler = proxy;
            } else {
                handler = make();
                handler->setParent(flight.owner(s.q));
            }
        }
        break;
    }
    }
    if (!handler) {
        // Python tools come with the tool worker (a later issue); fail clearly meanwhile.
        step.attempts.back().endedAt = step.attempts.back().startedAt;
        step.attempts.back().error = refused.isEmpty()
            ? makeError(ErrorCode::ToolFailed,
                        QStringLiteral("handler kind %1 is not available yet").arg(handlerKindName(tool.handler)),
                        false, attempt.number)
            : makeError(ErrorCode::ModelFailed, refused, false, attempt.number);
        step.error = step.attempts.back().error;
        finish(index, StepStatus::Failed);
        return;
    }
    flight.handler = handler;
    step.status = handler->waitsForPerson() ? StepStatus::Waiting : StepStatus::Running;
    if (handler->waitsForPerson()) // a person answers it: the attempt waits for them from its start
        step.attempts.back().personAsked(step.attempts.back().startedAt);

    QObject::connect(
        handler, &ToolHandler::finished, flight.context,
        [this, index, handler](const HandlerOutcome &outcome) { onAttemptFinished(index, handler, outcome); });
    QObject::connect(
        handler, &ToolHandler::personAsked, flight.context,
        [this, index, handler](const nlohmann::json &question) { onPersonAsked(index, handler, question); });
    QObject::connect(
        handler, &ToolHandler::personWithdrawn, flight.context,
        [this, index, handler](const nlohmann::json &question) { onPersonWithdrawn(index, handler, question); });
    QObject::connect(handler, &ToolHandler::progressed, flight.context, [this, index](const QString &line) {
        if (s.steps[std::size_t(index)].attempts.empty())
            return;
        s.steps[std::size_t(index)].attempts.back().progress = line;
        s.emitStep(&StepEngine::stepChanged, index);
    });
    // A streamed model reply: the chat shows it growing (through the step batches, so on
    // the GUI thread and at most once a frame); the journal gets the final reply only.
    QObject::connect(handler, &ToolHandler::streamed, flight.context, [this, index](const QString &text) {
        if (s.steps[std::size_t(index)].attempts.empty())
            return;
        s.steps[std::size_t(index)].attempts.back().streamed = text;
        s.emitStep(&StepEngine::stepChanged, index);
    });
    startTotalTimer(index, tool);

    HandlerRequest request;
    request.runId = s.runId;
    request.tool = tool.name;
    request.callId = step.callId;
    request.sequence = step.sequence;
    request.attempt = attempt.number;
    request.idempotencyKey = step.idempotencyKey;
    request.args = step.args;
    for (const std::string &name : flight.nullsLeftOut)
        request.args.erase(name);
    request.projectDir = s.project.dir;
    request.workDir = s.workDir;
    request.maxResultBytes = s.project.limits.replyBytes;
    const bool waits = handler->waitsForPerson();

    // Write-ahead before side effects (a command) and before a person is asked (so
    // `toolstudio answer` finds the call); a mock's attempt goes with the next batch.
    s.notifyChanged(index, tool.handler != HandlerKind::Mock);
    if (waits) {
        s.emitStep(&StepEngine::pendingCallOpened, index);
        watchAnswers();
    }
    // A slot above may have cancelled the run (Stop); then the handler is gone.
    if (!s.flights[std::size_t(index)] || s.flights[std::size_t(index)]->handler != handler)
        return;
    // The attempt's time starts with its call, after the write-ahead (attack40: a slow
    // journal write ate into the attempt timeout).
    if (tool.retry.attemptTimeoutMs > 0) {
        if (!flight.attemptTimer) {
            flight.attemptTimer = new QTimer(flight.owner(s.q));
            flight.attemptTimer->setSingleShot(true);
            QObject::connect(flight.attemptTimer, &QTimer::timeout, flight.context,
                             [this, index] { onAttemptTimeout(index); });
        }
        flight.attemptTimer->start(tool.retry.attemptTimeoutMs);
    }
    handler->start(request);
}

void StepAttempts::startTotalTimer(int index, const Tool &tool)
{
    Flight &flight = *s.flights[std::size_t(index)];
    if (tool.retry.totalTimeoutMs <= 0 || flight.totalTimer)
        return;
    flight.totalTimer = new QTimer(flight.owner(s.q));
    flight.totalTimer->setSingleShot(true);
    QObject::connect(flight.totalTimer, &QTimer::timeout, flight.context, [this, index] { onTotalTimeout(index); });
    flight.totalTimer->start(tool.retry.totalTimeoutMs);
}

void StepAttempts::onAttemptFinished(int index, ToolHandler *handler, HandlerOutcome outcome)
{
    Flight *flight = s.flights[std::size_t(index)].get();
    if (!flight || flight->handler != handler)
        return; // an attempt that was already timed out or cancelled
    if (flight->attemptTimer)
        flight->attemptTimer->stop();
    handler->disconnect(flight->context);
    deleteSoon(handler);
    flight->handler = nullptr;

    completeAttempt(index, s.steps[std::size_t(index)].status == StepStatus::Waiting, std::move(outcome));
}

/// The current attempt of step `index` ended with `outcome` (its handler is gone):
/// output_schema and reply cap, then success, a retry or failure.
void StepAttempts::completeAttempt(int index, bool wasWaiting, HandlerOutcome outcome)
{
    Step &step = s.steps[std::size_t(index)];
    const Tool &tool = *s.toolOf(step.tool);
    Attempt &attempt = step.attempts.back();
    attempt.endedAt = now();
    attempt.personAnswered(attempt.endedAt); // answered, or the question left open ends with it
    attempt.output = outcome.output;
    attempt.protocol = std::move(outcome.protocol);
    attempt.streamed.clear(); // the step's result (or error) is the reply now
    attempt.question.reset(); // a question left open ends with its attempt

    if (outcome.ok) {
        QString error;
        if (tool.outputSchema) {
            const SchemaValidator *validator = s.admission.validator(tool, true, &error);
            if (!validator) {
                outcome = HandlerOutcome::failure(
                    QStringLiteral("output_schema of %1 does not compile: %2").arg(tool.name, error), false);
            } else if (const auto failure = validator->validate(outcome.result)) {
                outcome = HandlerOutcome::failure(QStringLiteral("result of %1 does not match output_schema at %2: %3")
                                                      .arg(tool.name,
                                                           failure->pointer.isEmpty()
                                                               ? QStringLiteral("(root)")
                                                               : elidedText(failure->pointer, ElidedChars),
                                                           failure->message),
                                                  false);
                outcome.error.details = {{"pointer", failure->pointer.toStdString()}};
            }
        }
        if (outcome.ok) {
            const std::size_t size = compactSize(outcome.result);
            const bool model = ModelSteps::isModelStep(step.tool);
            const std::size_t cap = model ? s.project.limits.modelReplyBytes : s.project.limits.replyBytes;
            s.largestReply = std::max(s.largestReply.load(), qint64(size));
            if (size > cap)
                outcome = HandlerOutcome::failure(
                    QStringLiteral("result of %1 is %2 bytes; the reply limit is %3 bytes (limits.%4)")
                        .arg(tool.name)
                        .arg(size)
                        .arg(cap)
                        .arg(model ? QStringLiteral("model_reply_bytes") : QStringLiteral("reply_bytes")),
                    false, ErrorCode::ReplyTooLarge);
        }
    }
    // pendingCallClosed goes out after the step's new status (succeeded, retrying,
    // failed) is set, so a slot reading the step sees where it went.
    const QString callId = wasWaiting ? step.callId : QString();
    Attempt &last = step.attempts.back();
    if (outcome.ok) {
        last.succeeded = true;
        step.result = std::move(outcome.result);
        finish(index, StepStatus::Succeeded);
    } else {
        outcome.error.attempts = last.number;
        last.error = outcome.error;
        if (outcome.error.retryable && int(step.attempts.size()) < step.maxAttempts) {
            scheduleRetry(index);
        } else {
            step.error = outcome.error;
            step.error->attempts = int(step.attempts.size());
            finish(index, StepStatus::Failed);
        }
    }
    if (wasWaiting)
        Q_EMIT s.q->pendingCallClosed(callId);
}

void StepAttempts::onAttemptTimeout(int index)
{
    Flight *flight = s.flights[std::size_t(index)].get();
    if (!flight || !flight->handler)
        return;
    ToolHandler *handler = flight->handler;
    handler->disconnect(flight->context);
    handler->cancel();
    const Step &step = s.steps[std::size_t(index)];
    const int timeoutMs = s.toolOf(step.tool)->retry.attemptTimeoutMs;
    const bool person = handler->waitsForPerson();
    const QString report = handler->cancelReport();
    // Which bound fired, its value, and what became of the handler (DESIGN.md
    // "Explained timeouts").
    QString message = person
        ? QStringLiteral(
              "no answer from a person to attempt %1 within %2 s (the wait bound for a person, attempt_timeout_seconds = %2)")
              .arg(step.attempts.size())
              .arg(secondsText(timeoutMs))
        : QStringLiteral("attempt %1 timed out after %2 s (attempt_timeout_seconds = %2)")
              .arg(step.attempts.size())
              .arg(secondsText(timeoutMs));
    if (!report.isEmpty())
        message += QStringLiteral("; ") + report;
    HandlerOutcome outcome = HandlerOutcome::failure(message, true, ErrorCode::Timeout);
    outcome.error.details = {{"bound", person ? "wait" : "attempt"}, {"seconds", timeoutMs / 1000.0}};
    outcome.protocol = handler->cancelledProtocol(); // or later, from the main thread (LateProtocols)
    if (!report.isEmpty())
        outcome.error.details["handler"] = report.toStdString();
    s.addEvent(step.sequence, PolicyEventKind::Timeout,
               {{"bound", person ? "wait" : "attempt"},
                {"seconds", timeoutMs / 1000.0},
                {"attempt", step.attempts.size()},
                {"handler", report.toStdString()}});
    onAttemptFinished(index, handler, outcome);
}

void StepAttempts::onTotalTimeout(int index)
{
    Flight *flight = s.flights[std::size_t(index)].get();
    if (!flight)
        return;
    Step &step = s.steps[std::size_t(index)];
    const int timeoutMs = s.toolOf(step.tool)->retry.totalTimeoutMs;
    const bool wasWaiting = step.status == StepStatus::Waiting;
    QString report;
    nlohmann::json protocol;
    if (flight->handler) {
        flight->handler->disconnect(flight->context);
        flight->handler->cancel();
        report = flight->handler->cancelReport();
        protocol = flight->handler->cancelledProtocol();
    }
    QString message
        = QStringLiteral("step timed out after %1 s (total_timeout_seconds = %1)").arg(secondsText(timeoutMs));
    if (!report.isEmpty())
        message += QStringLiteral("; ") + report;
    nlohmann::json details = {{"bound", "total"}, {"seconds", timeoutMs / 1000.0}};
    if (!report.isEmpty())
        details["handler"] = report.toStdString();
    const StepError error = makeError(ErrorCode::Timeout, message, false, int(step.attempts.size()), details);
    s.addEvent(step.sequence, PolicyEventKind::Timeout,
               {{"bound", "total"},
                {"seconds", timeoutMs / 1000.0},
                {"attempt", step.attempts.size()},
                {"handler", report.toStdString()}});
    if (!step.attempts.empty() && step.attempts.back().endedAt == 0) {
        step.attempts.back().endedAt = now();
        step.attempts.back().personAnswered(step.attempts.back().endedAt);
        step.attempts.back().error = error;
        step.attempts.back().error->attempts = step.attempts.back().number;
        step.attempts.back().protocol = std::move(protocol);
    }
    step.error = error;
    stopFlight(index);
    const QString callId = step.callId;
    finish(index, StepStatus::Failed);
    if (wasWaiting)
        Q_EMIT s.q->pendingCallClosed(callId);
}

void StepAttempts::keepLateProtocol(int index, int number, nlohmann::json record)
{
    if (index < 0 || std::size_t(index) >= s.steps.size())
        return;
    Step &step = s.steps[std::size_t(index)];
    if (number < 1 || std::size_t(number) > step.attempts.size())
        return;
    Attempt &attempt = step.attempts[std::size_t(number) - 1];
    if (attempt.endedAt == 0 || attempt.protocol.is_object())
        return; // not ended yet (a resumed run reopened it), or kept already
    attempt.protocol = std::move(record);
    s.notifyChanged(index);
}

void StepAttempts::scheduleRetry(int index)
{
    Flight &flight = *s.flights[std::size_t(index)];
    Step &step = s.steps[std::size_t(index)];
    const RetryPolicy &policy = s.toolOf(step.tool)->retry;
    // Exponential backoff with jitter (DESIGN.md "Steps: the engine").
    int delayMs = retryBackoffMs(policy, int(step.attempts.size()), QRandomGenerator::global()->generateDouble());
    // A server's Retry-After (a model's 429; ModelHandler) is a floor under the backoff,
    // up to 10 minutes: a server asking for days (attack6: 2^63 s) does not park the run.
    constexpr int MaxRetryAfterMs = 10 * 60 * 1000;
    if (const auto &last = step.attempts.back().error; last && last->details.contains("retry_after_ms"))
        delayMs = std::max(delayMs, std::min(last->details["retry_after_ms"].get<int>(), MaxRetryAfterMs));

    step.status = StepStatus::Retrying;
    step.nextAttemptAt = now() + delayMs;
    s.addEvent(
        step.sequence, PolicyEventKind::RetryScheduled,
        {{"after_attempt", step.attempts.size()}, {"delay_ms", delayMs}, {"next_attempt_at", step.nextAttemptAt}});
    if (!flight.retryTimer) {
        flight.retryTimer = new QTimer(flight.owner(s.q));
        flight.retryTimer->setSingleShot(true);
        QObject::connect(flight.retryTimer, &QTimer::timeout, flight.context, [this, index] { startAttempt(index); });
    }
    flight.retryTimer->start(delayMs);
    s.notifyChanged(index);
}

void StepAttempts::deleteSoon(QObject *object)
{
    m_ended.emplace_back(object);
    if (!m_endedTimer) {
        m_endedTimer = new QTimer(s.q);
        m_endedTimer->setSingleShot(true);
        m_endedTimer->setInterval(EndedDeleteMs);
        QObject::connect(m_endedTimer, &QTimer::timeout, s.q, [this] { deleteEnded(); });
    }
    if (!m_endedTimer->isActive())
        m_endedTimer->start();
}

void StepAttempts::deleteEnded()
{
    for (const QPointer<QObject> &object : std::exchange(m_ended, {}))
        delete object.data();
}

void StepAttempts::stopFlight(int index)
{
    Flight *flight = s.flights[std::size_t(index)].get();
    if (!flight)
        return;
    for (QTimer *timer : {flight->attemptTimer, flight->retryTimer, flight->totalTimer})
        if (timer)
            timer->stop();
    if (flight->handler) {
        flight->handler->disconnect(flight->context);
        flight->handler->cancel();
        flight->handler = nullptr;
    }
}

void StepAttempts::finish(int index, StepStatus status)
{
    stopFlight(index);
    if (auto &flight = s.flights[std::size_t(index)]) {
        if (flight->context)
            deleteSoon(flight->context);
        flight.reset();
        --s.flying;
    }
    Step &step = s.steps[std::size_t(index)];
    if (!step.attempts.empty())
        step.attempts.back().question.reset();
    if (const auto open = s.openByCallId.find(step.callId); open != s.openByCallId.end() && *open == index)
        s.openByCallId.erase(open);
    step.status = status;
    step.endedAt = now();
    step.nextAttemptAt = 0;
    if (status == StepStatus::Succeeded)
        step.error.reset();
    const std::string id = step.callId.toStdString();
    const std::string line = status == StepStatus::Succeeded ? BridgeProtocol::encodeResult(id, *step.result)
                                                             : BridgeProtocol::encodeError(id, step.error->toBridge());
    // Write-ahead: the final step is committed before the script can see the reply.
    // With other calls in flight, the commit (and the reply) waits for this turn of
    // the event loop to end, so steps finishing together share one transaction.
    const bool batch = s.journal && s.inFlight() > 0 && !s.cancelled;
    if (batch) {
        if (status != StepStatus::Cancelled)
            s.batch.holdReply(id, line);
        s.notifyChanged(index, false);
        s.scheduleFlush(0);
        return;
    }
    s.notifyChanged(index, true);
    if (status != StepStatus::Cancelled)
        Q_EMIT s.q->replyReady(id, line);
}

void StepAttempts::runStep(Step step, std::vector<std::string> nullsLeftOut, bool approvable)
{
    const bool hold = s.stepMode || (s.approvesToolCalls && approvable);
    step.paused = hold;
    const int index = s.addStep(std::move(step), true);
    // A slot of stepAdded may have stopped the run; then the step is cancelled already.
    if (!s.flights[std::size_t(index)])
        return;
    if (!nullsLeftOut.empty()) {
        s.addEvent(s.steps[std::size_t(index)].sequence, PolicyEventKind::NullsLeftOut,
                   nullsLeftOutDetail(nullsLeftOut));
        s.flights[std::size_t(index)]->nullsLeftOut = std::move(nullsLeftOut);
    }
    if (hold) {
        s.addEvent(s.steps[std::size_t(index)].sequence, PolicyEventKind::StepPaused, nlohmann::json::object());
        s.record(index, true);
        s.emitStep(&StepEngine::stepPaused, index);
        return;
    }
    startAttempt(index);
}
