// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The step engine's private parts (not for use outside engine/): what StepEngine's
// pieces share. StepEngineState is the run's step ledger (steps, their flights, the
// indexes by call id and sequence) and owns one object per job: CallAdmission (the
// checks before a step exists), StepMemo (replay/resume/rerun/cassette answers and
// call identity), StepAttempts (handlers, timeouts, retries, the final state) and
// StepWriteBatch (journal writes and the replies that wait for them).

#include "engine/calladmission.h"
#include "engine/handlers/toolhandler.h"
#include "engine/lateprotocols.h"
#include "engine/stepattempts.h"
#include "engine/stepengine.h"
#include "engine/stepmemo.h"
#include "engine/stepwritebatch.h"
#include "project/schemavalidator.h"

#include <QDateTime>
#include <QHash>
#include <QPointer>

#include <atomic>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

class ModelSteps;
class QTimer;

namespace stepengine {

inline qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

/// Script-chosen names and ids are quoted in messages up to this many characters.
constexpr qsizetype ElidedChars = 128;

/// "30", "0.2" — seconds as the manifest spells them.
QString secondsText(int ms);
/// StepEngine::argsHash of arguments already serialised as compact JSON: the first
/// 128 bits of their sha256, as 32 lower-case hex digits.
QString hashOfCompactJson(std::string_view text);
std::size_t compactSize(const nlohmann::json &value);
StepError makeError(ErrorCode code, const QString &message, bool retryable, int attempts,
                    nlohmann::json details = nlohmann::json::object());
/// "WHAT at POINTER: MESSAGE" for a value a schema refused (the pointer elided).
QString mismatchText(const char *what, const SchemaValidator::Failure &failure);

/// Runtime state of an unfinished step: its handler and timers. Everything hangs off
/// `context`, deleted after the flight ends (StepAttempts::deleteSoon) so that a timer
/// may finish the step from its own signal.
struct Flight
{
    /// `context`, created on first use: a step answered at once (a mock without delay)
    /// needs none, so it costs no object per call.
    QObject *owner(QObject *parent)
    {
        if (!context)
            context = new QObject(parent);
        return context;
    }

    QObject *context = nullptr; ///< null until owner() is asked
    QPointer<ToolHandler> handler;
    QTimer *attemptTimer = nullptr;
    QTimer *retryTimer = nullptr;
    QTimer *totalTimer = nullptr;
    /// While the running attempt waits for a person's answer to its question: what was
    /// left of its attempt timeout (ms), -1 otherwise. The timeout is paused meanwhile.
    qint64 attemptLeftMs = -1;
    /// Questions asked by this step's attempts so far: the serial of the next is one more.
    int questionsAsked = 0;
    /// Arguments whose null was left out at admission (nullsleftout.h): the step keeps
    /// what the script sent, the handler gets the call without them.
    std::vector<std::string> nullsLeftOut;
};

} // namespace stepengine

class StepEngineState
{
public:
    explicit StepEngineState(StepEngine *engine);
    ~StepEngineState();

    StepEngine *q = nullptr;
    Project project;
    QString runId;
    QString keyPrefix; ///< "<runId>:", the start of every idempotency key
    QString workDir;
    Journal *journal = nullptr;
    QStringList boundTools;
    std::vector<Step> steps;
    std::vector<std::unique_ptr<stepengine::Flight>> flights; ///< parallel to steps; null once final
    int flying = 0;                                           ///< non-null entries of `flights` (inFlight())
    /// Unfinished steps by call id (at most one per id: a call reusing the id of an
    /// unfinished one is refused). Finished steps are found by indexOf()'s scan, so
    /// this stays as small as the calls in flight instead of growing (and rehashing)
    /// with every call of the run.
    QHash<QString, int> openByCallId;
    /// Steps refused because their call id was in use (ascending): indexOf() skips them.
    std::vector<int> unindexed;
    /// >0 while a signal passes a step by reference (emitStep); then `steps` does not
    /// reallocate in place: its old storage is kept in `retired` until the emission ends.
    int emitting = 0;
    std::vector<std::vector<Step>> retired;
    std::unordered_map<const Tool *, int> mockAttempts; ///< attempts made per mock tool in this run
    std::atomic<int> callCount{0};                      ///< written on the run thread, read by the window's meter
    std::atomic<qint64> largestRequest{0};              ///< bytes; likewise
    std::atomic<qint64> largestReply{0};                ///< bytes; likewise
    bool cancelled = false;
    QTimer *answerPoll = nullptr;
    std::vector<int> indexBySequence; ///< sequence − 1 → index in `steps`, −1 for none
    bool stepMode = false;
    bool approvesToolCalls = false;     ///< StepEngine::setApprovesToolCalls
    bool recordsRunStatus = false;      ///< StepEngine::setRecordsRunStatus
    bool resuming = false;              ///< the plan is a resume: answers may wait in the journal already
    std::unique_ptr<ModelSteps> models; ///< model steps: "model:<name>" (modelstep.h)

    StepWriteBatch batch;
    CallAdmission admission;
    StepMemo memo;
    StepAttempts attempts;
    /// Records of cancelled main-thread attempts coming back (MainThreadHandler's sink).
    std::shared_ptr<LateProtocols> lateProtocols;

    /// The tool of a step: a declared one, or a model step's policy (ModelSteps::tool).
    const Tool *toolOf(const QString &name) const;
    int inFlight() const
    {
        return flying; // counted, not scanned: finish() asks on every call
    }
    /// A call in flight waits for a person or is held by step mode (the run "waits").
    bool waitsForPerson() const
    {
        for (const int index : openByCallId)
            if (steps[std::size_t(index)].status == StepStatus::Waiting || steps[std::size_t(index)].paused)
                return true;
        return false;
    }

    // The ledger (stepengine.cpp).
    void notifyChanged(int index, bool now = false);
    /// The latest step with `callId` (refused duplicates aside), or -1.
    int indexOf(const QString &callId) const;
    /// Emits `signal` with step `index` by reference, without copying it.
    void emitStep(void (StepEngine::*signal)(const Step &), int index);
    int addStep(Step step, bool inFlight = false, bool indexCallId = true, bool recordIt = true);

    // Answers and step-mode decisions (stepengine.cpp).
    void pollAnswers();
    int heldIndex(const QString &callId, QString *reason) const;
    void decide(int index, HandlerOutcome outcome, const char *decision, nlohmann::json detail = {});
    /// A held step is decided: no longer paused, and its duration counts from now (its
    /// queuedAt moves here, docs/trace.md "Durations"); `decision` gets how long it was
    /// held (`held_ms`) and when it was queued (`queued_at_before`).
    void unhold(int index, nlohmann::json &decision);

    // The parts' entry points, named as the engine's steps use them.
    void record(int index, bool now) { batch.record(index, now); }
    void scheduleFlush(int ms) { batch.scheduleFlush(ms); }
    void flush() { batch.flush(); }
    void addEvent(int sequence, PolicyEventKind kind, nlohmann::json detail)
    {
        batch.addEvent(sequence, kind, std::move(detail));
    }
    void refuse(Step step, ErrorCode code, const QString &message, nlohmann::json details = nlohmann::json::object(),
                bool indexCallId = true)
    {
        admission.refuse(std::move(step), code, message, std::move(details), indexCallId);
    }
    CallIdentity identify(Step &step) { return memo.identify(step); }
    void runStep(Step step, std::vector<std::string> nullsLeftOut, bool approvable)
    {
        attempts.runStep(std::move(step), std::move(nullsLeftOut), approvable);
    }
    void startAttempt(int index) { attempts.startAttempt(index); }
    void finish(int index, StepStatus status) { attempts.finish(index, status); }
    void stopFlight(int index) { attempts.stopFlight(index); }
};
