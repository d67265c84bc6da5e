// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// StepEngine's held steps (DESIGN.md "Step mode"): step mode and tool approval hold a
// step before its first attempt; a person continues it (as called or with edited
// arguments or messages), answers it instead, fails it or times it out.
#include "engine/stepengine.h"

#include "engine/handlers/manualmodelhandler.h"
#include "engine/modelstep.h"
#include "engine/nullsleftout.h"
#include "engine/stepenginestate.h"
#include "llm/modelmessage.h"
#include "project/schemavalidator.h"

using namespace stepengine;

int StepEngineState::heldIndex(const QString &callId, QString *reason) const
{
    const int index = indexOf(callId);
    QString why;
    if (index < 0)
        why = QStringLiteral("no call with id '%1'").arg(callId);
    else if (!steps[std::size_t(index)].paused || !flights[std::size_t(index)])
        why = QStringLiteral("call '%1' is not held in step mode (%2)")
                  .arg(callId, stepStatusName(steps[std::size_t(index)].status));
    if (why.isEmpty())
        return index;
    if (reason)
        *reason = why;
    return -1;
}

void StepEngineState::unhold(int index, nlohmann::json &decision)
{
    Step &step = steps[std::size_t(index)];
    step.paused = false;
    const qint64 released = now();
    if (step.queuedAt <= 0 || released < step.queuedAt)
        return; // a clock that went back: the step keeps its queue time
    decision["held_ms"] = released - step.queuedAt;
    decision["queued_at_before"] = step.queuedAt;
    step.heldAt = step.queuedAt; // the timeline's waiting segment: held from then until now
    step.queuedAt = released;
}

void StepEngineState::decide(int index, HandlerOutcome outcome, const char *decision, nlohmann::json detail)
{
    Step &step = steps[std::size_t(index)];
    if (!detail.is_object())
        detail = nlohmann::json::object();
    detail["decision"] = decision;
    detail["ok"] = outcome.ok;
    unhold(index, detail);
    Attempt attempt;
    attempt.number = int(step.attempts.size()) + 1;
    attempt.startedAt = attempt.endedAt = step.queuedAt;
    if (step.startedAt == 0)
        step.startedAt = attempt.startedAt;
    addEvent(step.sequence, PolicyEventKind::StepDecision, std::move(detail));
    Q_EMIT q->stepReleased(step.callId);
    if (outcome.ok) {
        attempt.succeeded = true;
        step.attempts.push_back(attempt);
        step.result = std::move(outcome.result);
        finish(index, StepStatus::Succeeded);
        return;
    }
    outcome.error.attempts = attempt.number;
    attempt.error = outcome.error;
    step.attempts.push_back(attempt);
    step.error = outcome.error;
    finish(index, StepStatus::Failed);
}

void StepEngine::setStepMode(bool on)
{
    d->stepMode = on;
}

bool StepEngine::stepMode() const
{
    return d->stepMode;
}

void StepEngine::setApprovesToolCalls(bool on)
{
    d->approvesToolCalls = on;
}

bool StepEngine::approvesToolCalls() const
{
    return d->approvesToolCalls;
}

bool StepEngine::continueStep(const QString &callId, QString *reason)
{
    const int index = d->heldIndex(callId, reason);
    if (index < 0)
        return false;
    release(index, {{"decision", "continue"}});
    return true;
}

bool StepEngine::continueStepWith(const QString &callId, const nlohmann::json &args, QString *reason)
{
    const int index = d->heldIndex(callId, reason);
    if (index < 0)
        return false;
    Step &step = d->steps[std::size_t(index)];
    if (ModelSteps::isModelStep(step.tool))
        return continueModelStepWith(index, args, reason);
    const Tool *tool = d->toolOf(step.tool);
    if (!tool) {
        if (reason)
            *reason = QStringLiteral("only a tool call's arguments can be edited");
        return false;
    }
    QString error;
    const SchemaValidator *validator = d->admission.validator(*tool, false, &error);
    if (!validator) {
        if (reason)
            *reason = error;
        return false;
    }
    // The request cap and a strict-mode null hold for the person's arguments as for the
    // script's (CallAdmission::submitCall): the names left out are the edited ones'.
    if (const std::size_t bytes = compactSize(args); bytes > d->project.limits.requestBytes) {
        if (reason)
            *reason = QStringLiteral("the edited arguments are %1 bytes; the request limit is %2 bytes "
                                     "(limits.request_bytes)")
                          .arg(bytes)
                          .arg(d->project.limits.requestBytes);
        return false;
    }
    std::vector<std::string> nullsLeftOut;
    if (const auto failure = validateLeavingOutNulls(*validator, args, &nullsLeftOut)) {
        if (reason)
            *reason = mismatchText("the edited arguments do not match input_schema", *failure);
        return false;
    }
    if (d->flights[std::size_t(index)])
        d->flights[std::size_t(index)]->nullsLeftOut = std::move(nullsLeftOut);
    nlohmann::json decision = {{"decision", "continue"}};
    if (args != step.args) {
        decision["edited_args"] = args;
        decision["original_args"] = step.args;
        step.originalArgs = step.args;
        step.args = args;
    }
    release(index, std::move(decision));
    return true;
}

bool StepEngine::continueModelStepWith(int index, const nlohmann::json &messages, QString *reason)
{
    Step &step = d->steps[std::size_t(index)];
    // The person's messages are checked as the script's were (ModelSteps::admit): the
    // neutral shape, then the whole request against limits.model_request_bytes.
    if (const QString problem = ModelMessage::checkMessages(messages); !problem.isEmpty()) {
        if (reason)
            *reason = QStringLiteral("the edited messages cannot be sent: %1").arg(problem);
        return false;
    }
    nlohmann::json request = step.args;
    request["messages"] = messages;
    if (const std::size_t bytes = compactSize(request); bytes > d->project.limits.modelRequestBytes) {
        if (reason)
            *reason = QStringLiteral("the request with the edited messages is %1 bytes; the limit is %2 bytes "
                                     "(limits.model_request_bytes)")
                          .arg(bytes)
                          .arg(d->project.limits.modelRequestBytes);
        return false;
    }
    nlohmann::json decision = {{"decision", "continue"}};
    if (request != step.args) {
        // As for a tool call's arguments: the request sent is the edited one, the
        // script's stays in original_args and in the step's identity (argsHash).
        decision["edited_args"] = request;
        decision["original_args"] = step.args;
        step.originalArgs = step.args;
        step.args = std::move(request);
    }
    release(index, std::move(decision));
    return true;
}

void StepEngine::release(int index, nlohmann::json decision)
{
    Step &step = d->steps[std::size_t(index)];
    d->unhold(index, decision);
    d->addEvent(step.sequence, PolicyEventKind::StepDecision, std::move(decision));
    Q_EMIT stepReleased(step.callId);
    if (d->flights[std::size_t(index)])
        d->startAttempt(index);
}

bool StepEngine::answerStep(const QString &callId, const ManualAnswer &answer, QString *reason)
{
    const int index = d->heldIndex(callId, reason);
    if (index < 0)
        return false;
    const Step &step = d->steps[std::size_t(index)];
    if (!answer.isError && ModelSteps::isModelStep(step.tool)) {
        // A person answers instead of the model: the reply is checked as a `manual`
        // model's is (ManualModelHandler::replyOf: the turn shape, tools the request
        // offered, arguments that are objects) and becomes the step's result.
        QString error;
        const auto reply = ManualModelHandler::replyOf(answer.result, ModelSteps::offeredTools(step.args), &error);
        if (!reply) {
            if (reason)
                *reason = error;
            return false;
        }
        d->decide(index, HandlerOutcome::success(*reply), "answer");
        return true;
    }
    const Tool &tool = *d->toolOf(step.tool);
    if (!answer.isError && tool.outputSchema) {
        QString error;
        if (const SchemaValidator *validator = d->admission.validator(tool, true, &error)) {
            if (const auto failure = validator->validate(answer.result)) {
                if (reason)
                    *reason = mismatchText("the result does not match output_schema", *failure);
                return false;
            }
        }
    }
    if (!answer.isError) {
        d->decide(index, HandlerOutcome::success(answer.result), "answer");
        return true;
    }
    const QString message = answer.message.trimmed().isEmpty()
        ? QStringLiteral("the call was failed by hand (step mode)")
        : answer.message;
    d->decide(index, HandlerOutcome::failure(message, answer.retryable), "fail");
    return true;
}

bool StepEngine::timeOutStep(const QString &callId, QString *reason)
{
    const int index = d->heldIndex(callId, reason);
    if (index < 0)
        return false;
    HandlerOutcome outcome = HandlerOutcome::failure(
        QStringLiteral("timed out by hand in step mode (injected timeout; the handler did not run)"), true,
        ErrorCode::Timeout);
    outcome.error.details = {{"bound", "injected"}};
    d->decide(index, outcome, "time_out");
    return true;
}

void StepEngine::continueToEnd()
{
    d->stepMode = false;
    for (std::size_t i = 0; i < d->steps.size(); ++i) {
        if (d->steps[i].paused && d->flights[i])
            continueStep(d->steps[i].callId);
    }
}

int StepEngine::pausedCount() const
{
    int count = 0;
    for (std::size_t i = 0; i < d->steps.size(); ++i)
        count += d->steps[i].paused && d->flights[i] ? 1 : 0;
    return count;
}
