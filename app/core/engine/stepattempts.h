// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"
#include "project/step.h"

#include <QPointer>

#include <string>
#include <vector>

class QTimer;
class StepEngineState;
struct Tool;

/// An admitted step's attempts (DESIGN.md "Steps: the engine"): held in step mode or
/// started; each attempt's handler made by kind (trust checked for host code), the
/// attempt and total timeouts, output_schema and the reply cap on its outcome, retries
/// with exponential backoff and jitter, and the final state with its reply (written
/// ahead, batched when several calls are in flight). Engine-internal (stepenginestate.h).
class StepAttempts
{
public:
    explicit StepAttempts(StepEngineState &state);

    /// Records the admitted `step` (queued), then runs its first attempt or holds it: in
    /// step mode, or when tool calls are approved and `approvable` (a handler would run it).
    void runStep(Step step, std::vector<std::string> nullsLeftOut, bool approvable);
    void startAttempt(int index);
    /// Final `status`: the flight ends, the step is written and its reply sent (or held for the batch).
    void finish(int index, StepStatus status);
    /// Stops the step's timers and cancels its handler (the step stays unfinished).
    void stopFlight(int index);
    /// The person's answer to the question the running attempt of step `index` asks
    /// (Attempt::question): checked (PersonQuestion::check), journaled, handed to the
    /// handler; the step runs on. False with `reason` when refused.
    bool answerQuestion(int index, const ManualAnswer &answer, QString *reason);
    /// The protocol record of attempt `number` of step `index`, made after the attempt
    /// was ended by its timeout or Stop (LateProtocols): kept and journaled with it.
    void keepLateProtocol(int index, int number, nlohmann::json record);
    /// Deletes at once what ended flights left to deleteSoon() (the engine ends).
    void deleteEnded();

private:
    void onAttemptFinished(int index, ToolHandler *handler, HandlerOutcome outcome);
    void completeAttempt(int index, bool wasWaiting, HandlerOutcome outcome);
    void startTotalTimer(int index, const Tool &tool);
    void onAttemptTimeout(int index);
    void onTotalTimeout(int index);
    void scheduleRetry(int index);
    /// The running attempt asks a person: the step waits (its attempt timeout paused).
    void onPersonAsked(int index, ToolHandler *handler, const nlohmann::json &question);
    /// The handler no longer asks `question` (its MCP server cancelled the request): the
    /// step runs on, journaled as person_answered {"withdrawn": true}.
    void onPersonWithdrawn(int index, ToolHandler *handler, const nlohmann::json &question);
    /// Polls the journal for answers written by another process (`toolstudio answer`).
    void watchAnswers();
    /// Deletes `object` (an ended flight's context, a finished attempt's handler) with
    /// the others within EndedDeleteMs, from a timer of its own: not now (a timer or
    /// handler of it may be what ends the flight), and not by deleteLater(), which woke
    /// the run thread's event loop once more per call (and Qt once again to deliver it).
    void deleteSoon(QObject *object);

    static constexpr int EndedDeleteMs = 50;

    StepEngineState &s;
    std::vector<QPointer<QObject>> m_ended; ///< deleteSoon()'s; a handler may go with its context first
    QTimer *m_endedTimer = nullptr;
};
