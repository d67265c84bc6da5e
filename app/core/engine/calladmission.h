// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <memory>
#include <unordered_map>

struct BridgeCall;
class SchemaValidator;
class StepEngineState;
struct Tool;

/// The checks a call passes before it becomes a running step (StepEngine's class
/// comment): the call budget (limits.max_calls, refusals past it counted), a stopped
/// run, a call id in use, an oversized line, declared/active/bound, unreadable
/// arguments, the request cap, positional arguments mapped to names, input_schema,
/// then the replay memo (StepMemo) — and the refusals, each a failed step with zero
/// attempts and an error reply. Owns the compiled schema validators of the run's
/// tools. Engine-internal (stepenginestate.h).
class CallAdmission
{
public:
    explicit CallAdmission(StepEngineState &state);
    ~CallAdmission();

    /// A tool call from the script (StepEngine::submitCall).
    void submitCall(const BridgeCall &call);
    /// A {"type":"model"} frame: admitted by ModelSteps, then a step like a tool call's.
    void submitModel(const BridgeCall &call);
    /// Records `step` as refused (failed, or cancelled after Stop) and replies unless stopped.
    void refuse(Step step, ErrorCode code, const QString &message, nlohmann::json details = nlohmann::json::object(),
                bool indexCallId = true);
    /// One calls_refused event for the calls counted past the budget since the last one.
    void addRefusalSummary();
    /// The compiled input_schema (or output_schema) of `tool`, cached; nullptr with
    /// `error` when it does not compile.
    const SchemaValidator *validator(const Tool &tool, bool output, QString *error);
    /// Drops the compiled validators: the project's tools were replaced
    /// (StepEngine::setProject), and the pointers they are kept by with them.
    void forgetTools();

private:
    /// The refusal of a call past the budget once its step is recorded: a reply, a count.
    void refusePastBudget(const BridgeCall &call);
    /// Refuses `step` (moved from) when the run was stopped or its call id is in use by
    /// an unfinished call; false when neither.
    bool refusedAsStoppedOrReused(Step &step);

    StepEngineState &s;
    // By tool: pointers into the project (no name conversion per call); forgetTools()
    // when it is replaced.
    std::unordered_map<const Tool *, std::unique_ptr<SchemaValidator>> inputValidators;
    std::unordered_map<const Tool *, std::unique_ptr<SchemaValidator>> outputValidators;
    /// Past the budget (limits.max_calls): the first call refused for it is a step, the
    /// later ones are only counted here and written as one calls_refused event.
    bool budgetStepRecorded = false;
    qint64 refusedPastBudget = 0;
};
