// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calladmission.h"

#include "bridgemessage.h"
#include "engine/modelstep.h"
#include "engine/nullsleftout.h"
#include "engine/stepenginestate.h"
#include "project/printabletext.h"
#include "project/schemavalidator.h"

#include <algorithm>
#include <limits>
#include <utility>

using namespace stepengine;

CallAdmission::CallAdmission(StepEngineState &state)
    : s(state)
{}

CallAdmission::~CallAdmission() = default;

void CallAdmission::forgetTools()
{
    inputValidators.clear();
    outputValidators.clear();
}

const SchemaValidator *CallAdmission::validator(const Tool &tool, bool output, QString *error)
{
    auto &cache = output ? outputValidators : inputValidators;
    auto it = cache.find(&tool);
    if (it == cache.end()) {
        const nlohmann::json &schema = output ? *tool.outputSchema : tool.inputSchema;
        it = cache.emplace(&tool, SchemaValidator::compile(schema, error)).first;
    }
    return it->second.get();
}

namespace {

QString budgetMessage(int call, int maxCalls)
{
    return QStringLiteral("call %1 exceeds the limit of %2 calls per run (limits.max_calls; refused calls count "
                          "too); later calls are refused without being recorded one by one")
        .arg(call)
        .arg(maxCalls);
}

} // namespace

void CallAdmission::refusePastBudget(const BridgeCall &call)
{
    ++refusedPastBudget;
    if (s.cancelled)
        return; // no reply after Stop, as refuse()
    const int maxCalls = s.project.limits.maxCalls;
    const StepError error = makeError(
        ErrorCode::MaxCallsExceeded,
        budgetMessage(int(std::min<qint64>(maxCalls + 1 + refusedPastBudget, std::numeric_limits<int>::max())),
                      maxCalls),
        false, 0);
    Q_EMIT s.q->replyReady(call.id, BridgeProtocol::encodeError(call.id, error.toBridge()));
}

void CallAdmission::addRefusalSummary()
{
    if (refusedPastBudget == 0)
        return;
    const qint64 count = std::exchange(refusedPastBudget, 0);
    s.addEvent(0, PolicyEventKind::CallsRefused,
               {{"count", count},
                {"max_calls", s.project.limits.maxCalls},
                {"text",
                 QStringLiteral("%1 more calls were refused past the limit of %2 calls per run "
                                "(limits.max_calls); they were counted, not recorded one by one")
                     .arg(count)
                     .arg(s.project.limits.maxCalls)
                     .toStdString()}});
}

void CallAdmission::refuse(Step step, ErrorCode code, const QString &message, nlohmann::json details, bool indexCallId)
{
    if (step.sequence == 0)
        s.identify(step);
    step.status = s.cancelled ? StepStatus::Cancelled : StepStatus::Failed;
    step.error = makeError(s.cancelled ? ErrorCode::Cancelled : code, message, false, 0, std::move(details));
    step.endedAt = step.queuedAt;
    const std::string id = step.callId.toStdString();
    const StepError error = *step.error;
    s.addStep(std::move(step), false, indexCallId);
    if (!s.cancelled)
        Q_EMIT s.q->replyReady(id, BridgeProtocol::encodeError(id, error.toBridge()));
}

bool CallAdmission::refusedAsStoppedOrReused(Step &step)
{
    if (s.cancelled) {
        refuse(std::move(step), ErrorCode::Cancelled, QStringLiteral("the run was stopped"));
        return true;
    }
    if (s.openByCallId.contains(step.callId)) {
        // Worded before the step is moved: arguments are evaluated in no fixed order.
        const QString message
            = QStringLiteral("call id '%1' is already in use by an unfinished call").arg(elidedText(step.callId));
        refuse(std::move(step), ErrorCode::ProtocolError, message, nlohmann::json::object(), false);
        return true;
    }
    return false;
}

void CallAdmission::submitCall(const BridgeCall &call)
{
    if (call.kind == BridgeCall::Kind::Model) {
        submitModel(call);
        return;
    }
    // The run's budget (limits.max_calls) counts every call the script makes, refused
    // ones too (issue 16). The first call past it is refused as a step of its own;
    // every later one only gets its reply and is counted (no step, no copy of its
    // arguments), so a script looping on refused calls costs no memory or journal.
    const int maxCalls = s.project.limits.maxCalls;
    if (s.callCount >= maxCalls && budgetStepRecorded) {
        refusePastBudget(call);
        return;
    }

    Step step;
    step.runId = s.runId;
    step.callId = QString::fromStdString(call.id);
    step.tool = QString::fromStdString(call.tool);
    // A name no declared tool has is kept elided in every step (stopped, duplicate id,
    // oversized and unknown calls alike): its step and trace lines stay small.
    if (step.tool.size() > ElidedChars && !s.project.tool(step.tool))
        step.tool = elidedText(step.tool, ElidedChars);
    step.args = call.args;
    step.queuedAt = now(); // sequence, identity and idempotency key: identify()

    if (s.callCount >= maxCalls) {
        budgetStepRecorded = true;
        refuse(std::move(step), ErrorCode::MaxCallsExceeded, budgetMessage(s.callCount + 1, maxCalls));
        return;
    }
    ++s.callCount;

    if (refusedAsStoppedOrReused(step))
        return;
    // 0. a line over the bridge's bound, answered by the id in its prefix (its
    // arguments were never read, so nothing else can be checked)
    if (call.oversizedLineBytes > 0) {
        const QString message
            = QStringLiteral("the call of %1 is %2 bytes on the bridge; the request limit is %3 bytes of arguments "
                             "(limits.request_bytes), so it was not read")
                  .arg(step.tool.isEmpty() ? QStringLiteral("call id ") + elidedText(step.callId)
                                           : elidedText(step.tool))
                  .arg(call.oversizedLineBytes)
                  .arg(s.project.limits.requestBytes);
        refuse(std::move(step), ErrorCode::RequestTooLarge, message);
        return;
    }

    // 1. declared, active, bound
    const Tool *tool = s.project.tool(step.tool);
    if (!tool) {
        const QString name = step.tool; // elided above when long
        refuse(std::move(step), ErrorCode::UnknownTool, QStringLiteral("no tool named '%1' in this project").arg(name));
        return;
    }
    step.maxAttempts = tool->retry.maxAttempts;
    if (!tool->active) {
        const QString message = QStringLiteral("tool '%1' is inactive").arg(step.tool);
        refuse(std::move(step), ErrorCode::InactiveTool, message);
        return;
    }
    if (!s.boundTools.isEmpty() && !s.boundTools.contains(step.tool)) {
        const QString message = QStringLiteral("tool '%1' is not bound to this script").arg(step.tool);
        refuse(std::move(step), ErrorCode::UnknownTool, message);
        return;
    }

    // 2. arguments the bridge could not read (not JSON, bad UTF-8 or a lone surrogate
    // in them): this call fails, the run goes on
    if (!call.argumentsError.empty()) {
        refuse(std::move(step), ErrorCode::InvalidArguments,
               QStringLiteral("invalid arguments for '%1': %2")
                   .arg(tool->name, QString::fromStdString(call.argumentsError)));
        return;
    }

    // 3. request cap
    const std::size_t argsBytes = call.argsBytes > 0 ? call.argsBytes : compactSize(call.args);
    s.largestRequest = std::max(s.largestRequest.load(), qint64(argsBytes));
    if (argsBytes > s.project.limits.requestBytes) {
        const QString message
            = QStringLiteral("arguments of %1 are %2 bytes; the request limit is %3 bytes (limits.request_bytes)")
                  .arg(step.tool)
                  .arg(argsBytes)
                  .arg(s.project.limits.requestBytes);
        refuse(std::move(step), ErrorCode::RequestTooLarge, message);
        return;
    }

    // 4. positional arguments → the schema's properties in declaration order
    const bool positional = step.args.is_array();
    if (positional) {
        const auto given = step.args.size();
        const auto declared = std::size_t(tool->parameterOrder.size());
        if (given > declared) {
            refuse(std::move(step), ErrorCode::InvalidArguments,
                   QStringLiteral(
                       "invalid arguments for '%1' at /%2: takes %3 positional argument(s) (%4) but %5 were given")
                       .arg(tool->name)
                       .arg(declared)
                       .arg(declared)
                       .arg(tool->parameterOrder.join(QStringLiteral(", ")))
                       .arg(given),
                   {{"pointer", "/" + std::to_string(declared)}});
            return;
        }
        nlohmann::json named = nlohmann::json::object();
        for (std::size_t i = 0; i < given; ++i)
            named[tool->parameterOrder.at(qsizetype(i)).toStdString()] = step.args[i];
        step.args = std::move(named);
    }

    // 5. input_schema
    QString compileError;
    const SchemaValidator *validator = this->validator(*tool, false, &compileError);
    if (!validator) {
        refuse(std::move(step), ErrorCode::ToolFailed,
               QStringLiteral("input_schema of %1 does not compile: %2").arg(tool->name, compileError));
        return;
    }
    // Refuses `step` when its arguments fail input_schema; true when refused. A strict-mode
    // null for a parameter that is not required is left out (nullsleftout.h).
    std::vector<std::string> nullsLeftOut;
    const auto refuseInvalid = [&](const char *whose) {
        nullsLeftOut.clear();
        const auto failure = validateLeavingOutNulls(*validator, step.args, &nullsLeftOut);
        if (!failure)
            return false;
        // The pointer names the script's own keys: elided in the message (a 200 KB key
        // was echoed whole into the error and the trace); `pointer` keeps it exact.
        const QString where = failure->pointer.isEmpty()
            ? QString()
            : QStringLiteral(" at %1").arg(elidedText(failure->pointer, ElidedChars));
        refuse(std::move(step), ErrorCode::InvalidArguments,
               QStringLiteral("invalid %1arguments for '%2'%3: %4")
                   .arg(QLatin1StringView(whose), tool->name, where, failure->message),
               {{"pointer", failure->pointer.toStdString()}});
        return true;
    };
    if (refuseInvalid(""))
        return;

    // 6. memo lookup when replaying (DESIGN.md "Replay"): a match is answered at once
    // The bridge serialised the arguments already (to count them): hash that text
    // unless positional arguments were mapped to names since.
    step.argsHash
        = !positional && !call.argsJson.empty() ? hashOfCompactJson(call.argsJson) : StepEngine::argsHash(step.args);
    const CallIdentity identity = s.identify(step);
    if (s.memo.plan) {
        if (s.memo.applyPlan(step, identity))
            return;
        // Arguments edited for a rerun (replay --from N --args) are checked like the script's own.
        if (step.originalArgs && refuseInvalid("edited "))
            return;
        if (s.memo.plan->offline) {
            refuse(std::move(step), ErrorCode::ToolFailed,
                   QStringLiteral("offline: this call is not in the cassette (no real tool runs against a cassette)"));
            return;
        }
    }

    // 7. record (queued), then run the first attempt — or hold it in step mode
    s.runStep(std::move(step), std::move(nullsLeftOut), tool->handler != HandlerKind::Manual);
}

void CallAdmission::submitModel(const BridgeCall &call)
{
    if (s.models->refuseWithoutStep()) {
        if (!s.cancelled) // past max_model_calls: answered and counted, as past max_calls
            Q_EMIT s.q->replyReady(
                call.id,
                BridgeProtocol::encodeError(
                    call.id,
                    makeError(ErrorCode::MaxModelCallsExceeded, s.models->budgetMessage(), false, 0).toBridge()));
        return;
    }
    Step step;
    step.runId = s.runId;
    step.callId = QString::fromStdString(call.id);
    step.queuedAt = now();
    const auto refusal = s.models->admit(call, step);
    if (refusedAsStoppedOrReused(step))
        return;
    if (refusal) {
        refuse(std::move(step), refusal->code, refusal->message);
        return;
    }
    step.argsHash = StepEngine::argsHash(step.args);
    const CallIdentity identity = s.identify(step);
    if (s.memo.plan) {
        if (s.memo.applyPlan(step, identity))
            return;
        if (s.memo.plan->offline) {
            refuse(std::move(step), ErrorCode::ModelFailed,
                   QStringLiteral("offline: this model call is not in the cassette (no model is asked against a "
                                  "cassette)"));
            return;
        }
    }
    s.runStep(std::move(step), {}, false);
}
