// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/stepengine.h"

#include "bridgemessage.h"
#include "engine/callidentity.h"
#include "engine/handlers/commandhandler.h"
#include "engine/handlers/mainthreadhandler.h"
#include "engine/handlers/manualhandler.h"
#include "engine/handlers/mockhandler.h"
#include "engine/handlers/pythonhandler.h"
#include "engine/memoreplyorder.h"
#include "engine/modelstep.h"
#include "engine/nullsleftout.h"
#include "journal/journal.h"
#include "project/durationtext.h"
#include "project/printabletext.h"
#include "project/projecttrust.h"
#include "project/schemavalidator.h"
#include "python/toolworker.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace {

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

/// Script-chosen names and ids are quoted in messages up to this many characters.
constexpr qsizetype ElidedChars = 128;

/// "30", "0.2" — seconds as the manifest spells them.
QString secondsText(int ms)
{
    return QString::number(ms / 1000.0, 'g', 6);
}

/// StepEngine::argsHash of arguments already serialised as compact JSON: the first
/// 128 bits of their sha256, as 32 lower-case hex digits.
QString hashOfCompactJson(std::string_view text)
{
    const QByteArray digest
        = QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())), QCryptographicHash::Sha256);
    static constexpr char Digits[] = "0123456789abcdef";
    QString hex(32, Qt::Uninitialized);
    QChar *out = hex.data();
    for (int i = 0; i < 16; ++i) {
        const auto byte = static_cast<unsigned char>(digest[i]);
        *out++ = QLatin1Char(Digits[byte >> 4]);
        *out++ = QLatin1Char(Digits[byte & 0xF]);
    }
    return hex;
}

std::size_t compactSize(const nlohmann::json &value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
}

StepError makeError(ErrorCode code, const QString &message, bool retryable, int attempts,
                    nlohmann::json details = nlohmann::json::object())
{
    StepError error;
    error.code = code;
    error.message = message.toStdString();
    error.retryable = retryable;
    error.attempts = attempts;
    error.details = std::move(details);
    return error;
}

/// Runtime state of an unfinished step: its handler and timers. Everything hangs off
/// `context`, deleted later so that a timer may finish the step from its own signal.
struct Flight
{
    /// `context`, created on first use: a step answered at once (a mock without delay)
    /// needs none, so it costs no object and no deferred delete (a wake-up of the
    /// run thread's event loop) per call.
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
    /// Arguments whose null was left out at admission (nullsleftout.h): the step keeps
    /// what the script sent, the handler gets the call without them.
    std::vector<std::string> nullsLeftOut;
};

} // namespace

class StepEngineState
{
public:
    StepEngine *q = nullptr;
    Project project;
    QString runId;
    QString keyPrefix; ///< "<runId>:", the start of every idempotency key
    QString workDir;
    Journal *journal = nullptr;
    QStringList boundTools;
    std::vector<Step> steps;
    std::vector<std::unique_ptr<Flight>> flights; ///< parallel to steps; null once final
    int flying = 0;                               ///< non-null entries of `flights` (inFlight())
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
    // By tool: pointers into `project`, which never changes (no name conversion per call).
    std::unordered_map<const Tool *, std::unique_ptr<SchemaValidator>> inputValidators;
    std::unordered_map<const Tool *, std::unique_ptr<SchemaValidator>> outputValidators;
    std::unordered_map<const Tool *, int> mockAttempts; ///< attempts made per mock tool in this run
    std::atomic<int> callCount{0};                      ///< written on the run thread, read by the window's meter
    std::atomic<qint64> largestRequest{0};              ///< bytes; likewise
    std::atomic<qint64> largestReply{0};                ///< bytes; likewise
    /// Past the budget (limits.max_calls): the first call refused for it is a step, the
    /// later ones are only counted here and written as one calls_refused event.
    bool budgetStepRecorded = false;
    qint64 refusedPastBudget = 0;
    bool cancelled = false;

    // Batched journal writes (write-ahead kept: a reply waits for its commit).
    std::set<int> dirty;                                          ///< steps to (re)write
    std::vector<PolicyEvent> events;                              ///< events to write
    std::vector<std::pair<std::string, std::string>> heldReplies; ///< sent after the next commit
    QTimer *flushTimer = nullptr;
    QTimer *answerPoll = nullptr;

    // Replay / resume / rerun / cassette.
    std::optional<ReplayPlan> plan;
    PlanIndex planIndex;     ///< plan->steps by identity
    int rerunIndex = -1;     ///< Rerun: the plan's step `rerunFrom`
    bool memoActive = false; ///< Replay, cassette: no divergence yet
    /// Memoized replies, sent in recorded completion order (MemoReplyOrder). A reply
    /// whose call the recorded run had in flight when the previous one completed goes
    /// MemoGapMs after it (so that the script sees the first one alone, as it did); any
    /// other goes at once. A reply held for a call the script has not made yet goes
    /// anyway after MemoHoldMs.
    static constexpr int MemoGapMs = 5;
    static constexpr int MemoHoldMs = 1000;
    bool memoReleaseAll = false; ///< the hold ran out: every queued reply goes
    MemoReplyOrder memoOrder;
    QElapsedTimer memoSent;          ///< since the last memoized reply went
    QTimer *memoTimer = nullptr;     ///< single shot: the rest of a gap
    QTimer *memoHoldTimer = nullptr; ///< single shot: the hold bound

    // Call identity (docs/steps.md "Call identity"); sequence = display order.
    CallCounter callCounter;
    int nextSequence = 1;             ///< for a call with no recorded sequence to keep
    std::vector<int> indexBySequence; ///< sequence − 1 → index in `steps`, −1 for none

    bool stepMode = false;
    std::unique_ptr<ModelSteps> models; ///< model steps: "model:<name>" (modelstep.h)

    /// The tool of a step: a declared one, or a model step's policy (ModelSteps::tool).
    const Tool *toolOf(const QString &name) const
    {
        const Tool *model = models->tool(name);
        return model ? model : project.tool(name);
    }
    /// A {"type":"model"} frame: admitted by ModelSteps, then a step like a tool call's.
    void submitModel(const BridgeCall &call);
    /// Records the admitted `step` (queued), then runs its first attempt or holds it.
    void runStep(Step step, std::vector<std::string> nullsLeftOut);
    void flush();
    void scheduleFlush(int ms);
    void record(int index, bool now);
    void addEvent(int sequence, PolicyEventKind kind, nlohmann::json detail);
    /// The refusal of a call past the budget once its step is recorded: a reply, a count.
    void refusePastBudget(const BridgeCall &call);
    /// One calls_refused event for the calls refusePastBudget() counted since the last one.
    void addRefusalSummary();
    int inFlight() const;
    /// Gives `step` its identity, idempotency key and sequence (a resumed call keeps its recorded one).
    CallIdentity identify(Step &step);
    bool applyPlan(Step &step, const CallIdentity &identity);
    void queueMemoReply(int planIndex, std::string id, std::string line);
    /// Sends what may go now (`now`) or on the next turn of the event loop.
    void scheduleMemoReplies(bool now);
    /// `all`: held or not; `noGap`: without gaps (the run's end).
    void sendMemoReplies(bool all = false, bool noGap = false);
    void diverge(Step &step, const QString &why);
    void pollAnswers();
    int heldIndex(const QString &callId, QString *reason) const;
    void decide(int index, HandlerOutcome outcome, const char *decision);

    const SchemaValidator *validator(const Tool &tool, bool output, QString *error);
    void commit(const Step &step);
    void notifyChanged(int index, bool now = false);
    /// The latest step with `callId` (refused duplicates aside), or -1.
    int indexOf(const QString &callId) const;
    /// Emits `signal` with step `index` by reference, without copying it.
    void emitStep(void (StepEngine::*signal)(const Step &), int index);
    int addStep(Step step, bool inFlight = false, bool indexCallId = true, bool recordIt = true);
    void refuse(Step step, ErrorCode code, const QString &message, nlohmann::json details = nlohmann::json::object(),
                bool indexCallId = true);
    void startAttempt(int index);
    void onAttemptFinished(int index, ToolHandler *handler, HandlerOutcome outcome);
    void completeAttempt(int index, bool wasWaiting, HandlerOutcome outcome);
    void startTotalTimer(int index, const Tool &tool);
    void onAttemptTimeout(int index);
    void onTotalTimeout(int index);
    void scheduleRetry(int index);
    void finish(int index, StepStatus status);
    void stopFlight(int index);
};

const SchemaValidator *StepEngineState::validator(const Tool &tool, bool output, QString *error)
{
    auto &cache = output ? outputValidators : inputValidators;
    auto it = cache.find(&tool);
    if (it == cache.end()) {
        const nlohmann::json &schema = output ? *tool.outputSchema : tool.inputSchema;
        it = cache.emplace(&tool, SchemaValidator::compile(schema, error)).first;
    }
    return it->second.get();
}

int StepEngineState::inFlight() const
{
    return flying; // counted, not scanned: finish() asks on every call
}

void StepEngineState::scheduleFlush(int ms)
{
    if (!flushTimer) {
        flushTimer = new QTimer(q);
        flushTimer->setSingleShot(true);
        QObject::connect(flushTimer, &QTimer::timeout, q, [this] { flush(); });
    }
    // An earlier deadline wins: held replies must not wait for a later batch.
    if (!flushTimer->isActive() || flushTimer->remainingTime() > ms)
        flushTimer->start(ms);
}

void StepEngineState::flush()
{
    if (flushTimer)
        flushTimer->stop();
    if (journal && (!dirty.empty() || !events.empty())) {
        std::vector<const Step *> batch;
        batch.reserve(dirty.size());
        for (const int index : dirty)
            batch.push_back(&steps[std::size_t(index)]);
        if (!journal->commit(batch, events))
            Q_EMIT q->journalFailed(QStringLiteral("journal: %1 step(s) were not recorded: %2")
                                        .arg(batch.size())
                                        .arg(journal->lastError()));
    }
    dirty.clear();
    events.clear();
    // Slots may submit calls (and flush again): send from a copy.
    const auto replies = std::move(heldReplies);
    heldReplies.clear();
    for (const auto &[id, line] : replies)
        Q_EMIT q->replyReady(id, line);
}

/// Marks step `index` for writing: at once (`now`, write-ahead before a handler with
/// side effects or a reply) or with the next batch.
void StepEngineState::record(int index, bool now)
{
    if (!journal)
        return;
    dirty.insert(index);
    if (now)
        flush();
    else
        scheduleFlush(20);
}

void StepEngineState::addEvent(int sequence, PolicyEventKind kind, nlohmann::json detail)
{
    PolicyEvent event{runId, sequence, now(), kind, std::move(detail)};
    if (journal)
        events.push_back(event);
    Q_EMIT q->policyEvent(event);
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

void StepEngineState::refusePastBudget(const BridgeCall &call)
{
    ++refusedPastBudget;
    if (cancelled)
        return; // no reply after Stop, as refuse()
    const int maxCalls = project.limits.maxCalls;
    const StepError error = makeError(
        ErrorCode::MaxCallsExceeded,
        budgetMessage(int(std::min<qint64>(maxCalls + 1 + refusedPastBudget, std::numeric_limits<int>::max())),
                      maxCalls),
        false, 0);
    Q_EMIT q->replyReady(call.id, BridgeProtocol::encodeError(call.id, error.toBridge()));
}

void StepEngineState::addRefusalSummary()
{
    if (refusedPastBudget == 0)
        return;
    const qint64 count = std::exchange(refusedPastBudget, 0);
    addEvent(0, PolicyEventKind::CallsRefused,
             {{"count", count},
              {"max_calls", project.limits.maxCalls},
              {"text",
               QStringLiteral("%1 more calls were refused past the limit of %2 calls per run "
                              "(limits.max_calls); they were counted, not recorded one by one")
                   .arg(count)
                   .arg(project.limits.maxCalls)
                   .toStdString()}});
}

void StepEngineState::notifyChanged(int index, bool now)
{
    record(index, now);
    emitStep(&StepEngine::stepChanged, index);
}

int StepEngineState::indexOf(const QString &callId) const
{
    if (const auto open = openByCallId.constFind(callId); open != openByCallId.cend())
        return *open;
    // A finished call (rare: answers and look-ups after the fact), newest first.
    for (int index = int(steps.size()) - 1; index >= 0; --index) {
        if (steps[std::size_t(index)].callId == callId
            && !std::binary_search(unindexed.cbegin(), unindexed.cend(), index))
            return index;
    }
    return -1;
}

void StepEngineState::emitStep(void (StepEngine::*signal)(const Step &), int index)
{
    // No copy per signal: a slot that submits a call cannot move the step it was given
    // (addStep keeps the old storage alive while an emission is under way).
    ++emitting;
    Q_EMIT(q->*signal)(steps[std::size_t(index)]);
    if (--emitting == 0)
        retired.clear();
}

int StepEngineState::addStep(Step step, bool inFlight, bool indexCallId, bool recordIt)
{
    const int index = int(steps.size());
    if (!indexCallId)
        unindexed.push_back(index);
    else if (inFlight)
        openByCallId.insert(step.callId, index);
    if (emitting > 0 && steps.size() == steps.capacity()) {
        // A slot holds a reference into `steps`: grow into new storage by copying and
        // keep the old one until the emission ends.
        std::vector<Step> grown;
        grown.reserve(std::max<std::size_t>(16, steps.capacity() * 2));
        grown.insert(grown.end(), steps.cbegin(), steps.cend());
        retired.push_back(std::exchange(steps, std::move(grown)));
    }
    if (step.sequence > 0) {
        if (indexBySequence.size() < std::size_t(step.sequence))
            indexBySequence.resize(std::size_t(step.sequence), -1);
        indexBySequence[std::size_t(step.sequence - 1)] = index;
    }
    steps.push_back(std::move(step));
    std::unique_ptr<Flight> flight;
    if (inFlight) {
        flight = std::make_unique<Flight>();
        ++flying;
    }
    flights.push_back(std::move(flight));
    // A step that runs is recorded by startAttempt(), before a handler with side
    // effects starts; a final one (refused, memoized) before its reply.
    if (!inFlight && recordIt)
        record(index, true);
    emitStep(&StepEngine::stepAdded, index);
    if (!steps[std::size_t(index)].divergence.isEmpty())
        emitStep(&StepEngine::divergenceFound, index);
    return index;
}

void StepEngineState::refuse(Step step, ErrorCode code, const QString &message, nlohmann::json details,
                             bool indexCallId)
{
    if (step.sequence == 0)
        identify(step);
    step.status = cancelled ? StepStatus::Cancelled : StepStatus::Failed;
    step.error = makeError(cancelled ? ErrorCode::Cancelled : code, message, false, 0, std::move(details));
    step.endedAt = step.queuedAt;
    const std::string id = step.callId.toStdString();
    const StepError error = *step.error;
    addStep(std::move(step), false, indexCallId);
    if (!cancelled)
        Q_EMIT q->replyReady(id, BridgeProtocol::encodeError(id, error.toBridge()));
}

void StepEngineState::startAttempt(int index)
{
    Flight &flight = *flights[std::size_t(index)];
    Step &step = steps[std::size_t(index)];
    const Tool &tool = *toolOf(step.tool);

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
        if (const QString refused = ProjectTrust::refusal(project); !refused.isEmpty()) {
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
        const int mockIndex = mockAttempts[&tool]++; // one look-up per call
        const MockResponse &entry = MockHandler::entryFor(tool, mockIndex);
        if (entry.delayMs <= 0) {
            // Answered at once, without a handler object or a timer round (the hot path
            // of the bridge benchmark). The attempt is still recorded as started.
            step.status = StepStatus::Running;
            startTotalTimer(index, tool); // a retry's backoff still counts against it
            // Written with its outcome by finish() or the retry's batch below, so no
            // flush timer is started and stopped again per call.
            if (journal)
                dirty.insert(index);
            emitStep(&StepEngine::stepChanged, index);
            if (flights[std::size_t(index)]) // a slot may have stopped the run
                completeAttempt(index, false, MockHandler::outcomeOf(entry));
            else
                scheduleFlush(20);
            return;
        }
        handler = new MockHandler(entry, flight.owner(q));
        break;
    }
    case HandlerKind::Manual: // a model step's policy says Manual: its handler is the model's (modelstep.h)
        handler = model ? models->makeHandler(step, flight.owner(q), &refused) : new ManualHandler(flight.owner(q));
        break;
    case HandlerKind::Command:
        handler = new CommandHandler(tool.command, flight.owner(q), tool.commandFileArgs);
        break;
    case HandlerKind::Python:
        // The project's tool worker is a main-thread object; the engine may run on the
        // run thread (RunController), then the handler lives on the main thread.
        if (QCoreApplication::instance() && q->thread() != QCoreApplication::instance()->thread())
            handler
                = new MainThreadHandler([] { return new PythonHandler; }, ToolWorker::cancelReport(), flight.owner(q));
        else
            handler = new PythonHandler(flight.owner(q));
        break;
    case HandlerKind::Mcp: {
        // Made by the library that registered it (McpHandler, mcp/ links the engine).
        bool mainThread = false;
        if (ToolHandler::Factory make = ToolHandler::factory(tool.handler, &mainThread)) {
            if (mainThread && QCoreApplication::instance() && q->thread() != QCoreApplication::instance()->thread()) {
                handler = new MainThreadHandler(std::move(make),
                                                QStringLiteral("notifications/cancelled sent to the tool's MCP server"),
                                                flight.owner(q));
            } else {
                handler = make();
                handler->setParent(flight.owner(q));
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

    QObject::connect(
        handler, &ToolHandler::finished, flight.context,
        [this, index, handler](const HandlerOutcome &outcome) { onAttemptFinished(index, handler, outcome); });
    QObject::connect(handler, &ToolHandler::progressed, flight.context, [this, index](const QString &line) {
        if (steps[std::size_t(index)].attempts.empty())
            return;
        steps[std::size_t(index)].attempts.back().progress = line;
        emitStep(&StepEngine::stepChanged, index);
    });
    if (tool.retry.attemptTimeoutMs > 0) {
        if (!flight.attemptTimer) {
            flight.attemptTimer = new QTimer(flight.owner(q));
            flight.attemptTimer->setSingleShot(true);
            QObject::connect(flight.attemptTimer, &QTimer::timeout, flight.context,
                             [this, index] { onAttemptTimeout(index); });
        }
        flight.attemptTimer->start(tool.retry.attemptTimeoutMs);
    }
    startTotalTimer(index, tool);

    HandlerRequest request;
    request.runId = runId;
    request.tool = tool.name;
    request.callId = step.callId;
    request.sequence = step.sequence;
    request.attempt = attempt.number;
    request.idempotencyKey = step.idempotencyKey;
    request.args = step.args;
    for (const std::string &name : flight.nullsLeftOut)
        request.args.erase(name);
    request.projectDir = project.dir;
    request.workDir = workDir;
    request.maxResultBytes = project.limits.replyBytes;
    const bool waits = handler->waitsForPerson();

    // Write-ahead before side effects (a command) and before a person is asked (so
    // `toolstudio answer` finds the call); a mock's attempt goes with the next batch.
    notifyChanged(index, tool.handler != HandlerKind::Mock);
    if (waits) {
        emitStep(&StepEngine::pendingCallOpened, index);
        if (journal) {
            if (!answerPoll) {
                answerPoll = new QTimer(q);
                answerPoll->setInterval(250);
                QObject::connect(answerPoll, &QTimer::timeout, q, [this] { pollAnswers(); });
            }
            answerPoll->start();
            QTimer::singleShot(0, q, [this] { pollAnswers(); }); // answers stored while the run was suspended
        }
    }
    // A slot above may have cancelled the run (Stop); then the handler is gone.
    if (flights[std::size_t(index)] && flights[std::size_t(index)]->handler == handler)
        handler->start(request);
}

/// The step's total timeout runs from its first attempt's start (once per step).
void StepEngineState::startTotalTimer(int index, const Tool &tool)
{
    Flight &flight = *flights[std::size_t(index)];
    if (tool.retry.totalTimeoutMs <= 0 || flight.totalTimer)
        return;
    flight.totalTimer = new QTimer(flight.owner(q));
    flight.totalTimer->setSingleShot(true);
    QObject::connect(flight.totalTimer, &QTimer::timeout, flight.context, [this, index] { onTotalTimeout(index); });
    flight.totalTimer->start(tool.retry.totalTimeoutMs);
}

void StepEngineState::onAttemptFinished(int index, ToolHandler *handler, HandlerOutcome outcome)
{
    Flight *flight = flights[std::size_t(index)].get();
    if (!flight || flight->handler != handler)
        return; // an attempt that was already timed out or cancelled
    if (flight->attemptTimer)
        flight->attemptTimer->stop();
    handler->disconnect(flight->context);
    handler->deleteLater();
    flight->handler = nullptr;

    completeAttempt(index, steps[std::size_t(index)].status == StepStatus::Waiting, std::move(outcome));
}

/// The current attempt of step `index` ended with `outcome` (its handler is gone):
/// output_schema and reply cap, then success, a retry or failure.
void StepEngineState::completeAttempt(int index, bool wasWaiting, HandlerOutcome outcome)
{
    Step &step = steps[std::size_t(index)];
    const Tool &tool = *toolOf(step.tool);
    Attempt &attempt = step.attempts.back();
    attempt.endedAt = now();
    attempt.output = outcome.output;

    if (outcome.ok) {
        QString error;
        if (tool.outputSchema) {
            const SchemaValidator *validator = this->validator(tool, true, &error);
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
            const std::size_t cap = model ? project.limits.modelReplyBytes : project.limits.replyBytes;
            largestReply = std::max(largestReply.load(), qint64(size));
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
        Q_EMIT q->pendingCallClosed(callId);
}

void StepEngineState::onAttemptTimeout(int index)
{
    Flight *flight = flights[std::size_t(index)].get();
    if (!flight || !flight->handler)
        return;
    ToolHandler *handler = flight->handler;
    handler->disconnect(flight->context);
    handler->cancel();
    const Step &step = steps[std::size_t(index)];
    const int timeoutMs = toolOf(step.tool)->retry.attemptTimeoutMs;
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
    if (!report.isEmpty())
        outcome.error.details["handler"] = report.toStdString();
    addEvent(step.sequence, PolicyEventKind::Timeout,
             {{"bound", person ? "wait" : "attempt"},
              {"seconds", timeoutMs / 1000.0},
              {"attempt", step.attempts.size()},
              {"handler", report.toStdString()}});
    onAttemptFinished(index, handler, outcome);
}

void StepEngineState::onTotalTimeout(int index)
{
    Flight *flight = flights[std::size_t(index)].get();
    if (!flight)
        return;
    Step &step = steps[std::size_t(index)];
    const int timeoutMs = toolOf(step.tool)->retry.totalTimeoutMs;
    const bool wasWaiting = step.status == StepStatus::Waiting;
    QString report;
    if (flight->handler) {
        flight->handler->disconnect(flight->context);
        flight->handler->cancel();
        report = flight->handler->cancelReport();
    }
    QString message
        = QStringLiteral("step timed out after %1 s (total_timeout_seconds = %1)").arg(secondsText(timeoutMs));
    if (!report.isEmpty())
        message += QStringLiteral("; ") + report;
    nlohmann::json details = {{"bound", "total"}, {"seconds", timeoutMs / 1000.0}};
    if (!report.isEmpty())
        details["handler"] = report.toStdString();
    const StepError error = makeError(ErrorCode::Timeout, message, false, int(step.attempts.size()), details);
    addEvent(step.sequence, PolicyEventKind::Timeout,
             {{"bound", "total"},
              {"seconds", timeoutMs / 1000.0},
              {"attempt", step.attempts.size()},
              {"handler", report.toStdString()}});
    if (!step.attempts.empty() && step.attempts.back().endedAt == 0) {
        step.attempts.back().endedAt = now();
        step.attempts.back().error = error;
        step.attempts.back().error->attempts = step.attempts.back().number;
    }
    step.error = error;
    stopFlight(index);
    const QString callId = step.callId;
    finish(index, StepStatus::Failed);
    if (wasWaiting)
        Q_EMIT q->pendingCallClosed(callId);
}

void StepEngineState::scheduleRetry(int index)
{
    Flight &flight = *flights[std::size_t(index)];
    Step &step = steps[std::size_t(index)];
    const RetryPolicy &policy = toolOf(step.tool)->retry;
    // Exponential backoff with jitter (DESIGN.md "Steps: the engine"):
    // min(initial × factor^(n−1), cap) ± jitter, n = attempts made so far.
    const double n = double(step.attempts.size());
    double backoff = std::min(policy.initialBackoffMs * std::pow(policy.factor, n - 1), double(policy.maxBackoffMs));
    if (policy.jitter > 0)
        backoff *= 1.0 + policy.jitter * (2.0 * QRandomGenerator::global()->generateDouble() - 1.0);
    int delayMs = int(std::clamp(backoff, 0.0, double(std::max(policy.maxBackoffMs, 0))));
    // A server's Retry-After (a model's 429; ModelHandler) is a floor under the backoff,
    // up to 10 minutes: a server asking for days (attack6: 2^63 s) does not park the run.
    constexpr int MaxRetryAfterMs = 10 * 60 * 1000;
    if (const auto &last = step.attempts.back().error; last && last->details.contains("retry_after_ms"))
        delayMs = std::max(delayMs, std::min(last->details["retry_after_ms"].get<int>(), MaxRetryAfterMs));

    step.status = StepStatus::Retrying;
    step.nextAttemptAt = now() + delayMs;
    addEvent(step.sequence, PolicyEventKind::RetryScheduled,
             {{"after_attempt", step.attempts.size()}, {"delay_ms", delayMs}, {"next_attempt_at", step.nextAttemptAt}});
    if (!flight.retryTimer) {
        flight.retryTimer = new QTimer(flight.owner(q));
        flight.retryTimer->setSingleShot(true);
        QObject::connect(flight.retryTimer, &QTimer::timeout, flight.context, [this, index] { startAttempt(index); });
    }
    flight.retryTimer->start(delayMs);
    notifyChanged(index);
}

void StepEngineState::stopFlight(int index)
{
    Flight *flight = flights[std::size_t(index)].get();
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

void StepEngineState::finish(int index, StepStatus status)
{
    stopFlight(index);
    if (auto &flight = flights[std::size_t(index)]) {
        if (flight->context)
            flight->context->deleteLater();
        flight.reset();
        --flying;
    }
    Step &step = steps[std::size_t(index)];
    if (const auto open = openByCallId.find(step.callId); open != openByCallId.end() && *open == index)
        openByCallId.erase(open);
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
    const bool batch = journal && inFlight() > 0 && !cancelled;
    if (batch) {
        if (status != StepStatus::Cancelled)
            heldReplies.emplace_back(id, line);
        notifyChanged(index, false);
        scheduleFlush(0);
        return;
    }
    notifyChanged(index, true);
    if (status != StepStatus::Cancelled)
        Q_EMIT q->replyReady(id, line);
}

StepEngine::StepEngine(const Project &project, const QString &runId, Journal *journal, const QStringList &boundTools,
                       QObject *parent)
    : QObject(parent)
    , d(std::make_unique<StepEngineState>())
{
    d->q = this;
    d->project = project;
    d->models = std::make_unique<ModelSteps>(d->project, boundTools);
    d->runId = runId;
    d->keyPrefix = runId + QLatin1Char(':');
    d->journal = journal;
    d->boundTools = boundTools;
}

StepEngine::~StepEngine()
{
    // Pending writes still go to the journal; held replies have nobody to go to.
    d->heldReplies.clear();
    d->flush();
    // Nothing is emitted any more; running commands are killed with their handlers.
    for (std::size_t i = 0; i < d->flights.size(); ++i) {
        d->stopFlight(int(i));
        if (d->flights[i])
            delete d->flights[i]->context; // before the state its lambdas use is gone
    }
}

void StepEngine::submitCall(const BridgeCall &call)
{
    if (call.kind == BridgeCall::Kind::Model) {
        d->submitModel(call);
        return;
    }
    // The run's budget (limits.max_calls) counts every call the script makes, refused
    // ones too (issue 16). The first call past it is refused as a step of its own;
    // every later one only gets its reply and is counted (no step, no copy of its
    // arguments), so a script looping on refused calls costs no memory or journal.
    const int maxCalls = d->project.limits.maxCalls;
    if (d->callCount >= maxCalls && d->budgetStepRecorded) {
        d->refusePastBudget(call);
        return;
    }

    Step step;
    step.runId = d->runId;
    step.callId = QString::fromStdString(call.id);
    step.tool = QString::fromStdString(call.tool);
    // A name no declared tool has is kept elided in every step (stopped, duplicate id,
    // oversized and unknown calls alike): its step and trace lines stay small.
    if (step.tool.size() > ElidedChars && !d->project.tool(step.tool))
        step.tool = elidedText(step.tool, ElidedChars);
    step.args = call.args;
    step.queuedAt = now(); // sequence, identity and idempotency key: identify()

    if (d->callCount >= maxCalls) {
        d->budgetStepRecorded = true;
        d->refuse(std::move(step), ErrorCode::MaxCallsExceeded, budgetMessage(d->callCount + 1, maxCalls));
        return;
    }
    ++d->callCount;

    if (d->cancelled) {
        d->refuse(std::move(step), ErrorCode::Cancelled, QStringLiteral("the run was stopped"));
        return;
    }
    if (d->openByCallId.contains(step.callId)) {
        d->refuse(std::move(step), ErrorCode::ProtocolError,
                  QStringLiteral("call id '%1' is already in use by an unfinished call").arg(elidedText(step.callId)),
                  nlohmann::json::object(), false);
        return;
    }
    // 0. a line over the bridge's bound, answered by the id in its prefix (its
    // arguments were never read, so nothing else can be checked)
    if (call.oversizedLineBytes > 0) {
        d->refuse(
            std::move(step), ErrorCode::RequestTooLarge,
            QStringLiteral("the call of %1 is %2 bytes on the bridge; the request limit is %3 bytes of arguments "
                           "(limits.request_bytes), so it was not read")
                .arg(step.tool.isEmpty() ? QStringLiteral("call id ") + elidedText(step.callId) : elidedText(step.tool))
                .arg(call.oversizedLineBytes)
                .arg(d->project.limits.requestBytes));
        return;
    }

    // 1. declared, active, bound
    const Tool *tool = d->project.tool(step.tool);
    if (!tool) {
        const QString name = step.tool; // elided above when long
        d->refuse(std::move(step), ErrorCode::UnknownTool,
                  QStringLiteral("no tool named '%1' in this project").arg(name));
        return;
    }
    step.maxAttempts = tool->retry.maxAttempts;
    if (!tool->active) {
        d->refuse(std::move(step), ErrorCode::InactiveTool, QStringLiteral("tool '%1' is inactive").arg(step.tool));
        return;
    }
    if (!d->boundTools.isEmpty() && !d->boundTools.contains(step.tool)) {
        d->refuse(std::move(step), ErrorCode::UnknownTool,
                  QStringLiteral("tool '%1' is not bound to this script").arg(step.tool));
        return;
    }

    // 2. arguments the bridge could not read (not JSON, bad UTF-8 or a lone surrogate
    // in them): this call fails, the run goes on
    if (!call.argumentsError.empty()) {
        d->refuse(std::move(step), ErrorCode::InvalidArguments,
                  QStringLiteral("invalid arguments for '%1': %2")
                      .arg(tool->name, QString::fromStdString(call.argumentsError)));
        return;
    }

    // 3. request cap
    const std::size_t argsBytes = call.argsBytes > 0 ? call.argsBytes : compactSize(call.args);
    d->largestRequest = std::max(d->largestRequest.load(), qint64(argsBytes));
    if (argsBytes > d->project.limits.requestBytes) {
        d->refuse(std::move(step), ErrorCode::RequestTooLarge,
                  QStringLiteral("arguments of %1 are %2 bytes; the request limit is %3 bytes (limits.request_bytes)")
                      .arg(step.tool)
                      .arg(argsBytes)
                      .arg(d->project.limits.requestBytes));
        return;
    }

    // 4. positional arguments → the schema's properties in declaration order
    const bool positional = step.args.is_array();
    if (positional) {
        const auto given = step.args.size();
        const auto declared = std::size_t(tool->parameterOrder.size());
        if (given > declared) {
            d->refuse(std::move(step), ErrorCode::InvalidArguments,
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
    const SchemaValidator *validator = d->validator(*tool, false, &compileError);
    if (!validator) {
        d->refuse(std::move(step), ErrorCode::ToolFailed,
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
        d->refuse(std::move(step), ErrorCode::InvalidArguments,
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
    step.argsHash = !positional && !call.argsJson.empty() ? hashOfCompactJson(call.argsJson) : argsHash(step.args);
    const CallIdentity identity = d->identify(step);
    if (d->plan) {
        if (d->applyPlan(step, identity))
            return;
        // Arguments edited for a rerun (replay --from N --args) are checked like the script's own.
        if (step.originalArgs && refuseInvalid("edited "))
            return;
        if (d->plan->offline) {
            d->refuse(
                std::move(step), ErrorCode::ToolFailed,
                QStringLiteral("offline: this call is not in the cassette (no real tool runs against a cassette)"));
            return;
        }
    }

    // 7. record (queued), then run the first attempt — or hold it in step mode
    d->runStep(std::move(step), std::move(nullsLeftOut));
}

void StepEngineState::runStep(Step step, std::vector<std::string> nullsLeftOut)
{
    const bool hold = stepMode;
    step.paused = hold;
    const int index = addStep(std::move(step), true);
    // A slot of stepAdded may have stopped the run; then the step is cancelled already.
    if (!flights[std::size_t(index)])
        return;
    if (!nullsLeftOut.empty()) {
        addEvent(steps[std::size_t(index)].sequence, PolicyEventKind::NullsLeftOut, nullsLeftOutDetail(nullsLeftOut));
        flights[std::size_t(index)]->nullsLeftOut = std::move(nullsLeftOut);
    }
    if (hold) {
        addEvent(steps[std::size_t(index)].sequence, PolicyEventKind::StepPaused, nlohmann::json::object());
        record(index, true);
        emitStep(&StepEngine::stepPaused, index);
        return;
    }
    startAttempt(index);
}

void StepEngineState::submitModel(const BridgeCall &call)
{
    if (models->refuseWithoutStep()) {
        if (!cancelled) // past max_model_calls: answered and counted, as past max_calls
            Q_EMIT q->replyReady(
                call.id,
                BridgeProtocol::encodeError(
                    call.id,
                    makeError(ErrorCode::MaxModelCallsExceeded, models->budgetMessage(), false, 0).toBridge()));
        return;
    }
    Step step;
    step.runId = runId;
    step.callId = QString::fromStdString(call.id);
    step.queuedAt = now();
    const auto refusal = models->admit(call, step);
    if (cancelled) {
        refuse(std::move(step), ErrorCode::Cancelled, QStringLiteral("the run was stopped"));
        return;
    }
    if (openByCallId.contains(step.callId)) {
        refuse(std::move(step), ErrorCode::ProtocolError,
               QStringLiteral("call id '%1' is already in use by an unfinished call").arg(elidedText(step.callId)),
               nlohmann::json::object(), false);
        return;
    }
    if (refusal) {
        refuse(std::move(step), refusal->code, refusal->message);
        return;
    }
    step.argsHash = StepEngine::argsHash(step.args);
    const CallIdentity identity = identify(step);
    if (plan) {
        if (applyPlan(step, identity))
            return;
        if (plan->offline) {
            refuse(std::move(step), ErrorCode::ModelFailed,
                   QStringLiteral("offline: this model call is not in the cassette (no model is asked against a "
                                  "cassette)"));
            return;
        }
    }
    runStep(std::move(step), {});
}

QString StepEngine::argsHash(const nlohmann::json &args)
{
    return hashOfCompactJson(args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void StepEngine::setReplayPlan(ReplayPlan plan)
{
    d->planIndex.reset(plan.steps); // identities from the recorded sequence order
    d->memoOrder.reset(plan.steps);
    d->rerunIndex = -1;
    for (std::size_t i = 0; i < plan.steps.size(); ++i)
        if (plan.mode == ReplayPlan::Mode::Rerun && plan.steps[i].sequence == plan.rerunFrom)
            d->rerunIndex = int(i);
    // Resume keeps the recorded rows: a new call gets a sequence after all of them.
    d->nextSequence = plan.mode == ReplayPlan::Mode::Resume ? d->planIndex.maxSequence() + 1 : 1;
    d->plan = std::move(plan);
    d->memoActive = true;
}

bool StepEngine::isReplaying() const
{
    return d->plan && d->memoActive;
}

const Step *StepEngine::stepBySequence(int sequence) const
{
    if (sequence < 1 || std::size_t(sequence) > d->indexBySequence.size())
        return nullptr;
    const int index = d->indexBySequence[std::size_t(sequence - 1)];
    return index < 0 ? nullptr : &d->steps[std::size_t(index)];
}

namespace {

QString callText(const QString &tool, const nlohmann::json &args)
{
    // A preview: cut on a character, saying how many bytes were dropped (docs/trace.md "Clipped text").
    const QString text = QString::fromStdString(args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return QStringLiteral("%1(%2)").arg(tool, clippedText(text, 120));
}

} // namespace

CallIdentity StepEngineState::identify(Step &step)
{
    const CallIdentity identity = callCounter.next(step.tool, identityHash(step));
    step.idempotencyKey = keyPrefix + identity.text(); // "<runId>:<tool>:<argsHash>:<n>"
    int recorded = -1;
    if (plan && plan->mode == ReplayPlan::Mode::Resume)
        recorded = planIndex.find(identity);
    // A resumed call keeps its recorded row (and number); every other call gets the next one.
    step.sequence = recorded >= 0 ? plan->steps[std::size_t(recorded)].sequence : nextSequence++;
    return identity;
}

void StepEngineState::diverge(Step &step, const QString &why)
{
    scheduleMemoReplies(false); // no reply is held past a divergence (memoActive is false from here)
    step.divergence = why;
    addEvent(
        step.sequence, PolicyEventKind::Divergence,
        {{"reason", why.toStdString()}, {"tool", step.tool.toStdString()}, {"args_hash", step.argsHash.toStdString()}});
}

void StepEngineState::queueMemoReply(int planIndex, std::string id, std::string line)
{
    memoOrder.add(planIndex, std::move(id), std::move(line));
    scheduleMemoReplies(true);
}

void StepEngineState::scheduleMemoReplies(bool now)
{
    if (memoOrder.empty())
        return;
    if (!memoTimer) {
        memoTimer = new QTimer(q);
        memoTimer->setSingleShot(true);
        QObject::connect(memoTimer, &QTimer::timeout, q, [this] { sendMemoReplies(); });
    }
    if (memoTimer->isActive())
        return; // a gap (or a turn) under way ends with the timer
    if (now)
        sendMemoReplies();
    else
        memoTimer->start(0);
}

/// The memoized replies that may go, in the order the recorded run completed them
/// (MemoReplyOrder); after a divergence, or when a held reply has waited MemoHoldMs for
/// a call the script did not make, held or not. Nothing polls: a held reply goes when
/// the call it waits for arrives (applyPlan) or at the hold bound, a reply that needs a
/// gap when the gap's single-shot timer ends.
void StepEngineState::sendMemoReplies(bool all, bool noGap)
{
    memoReleaseAll = memoReleaseAll || all;
    while (!cancelled) {
        const bool release = memoReleaseAll || !memoActive;
        switch (memoOrder.next(release)) {
        case MemoReplyOrder::State::Empty:
            memoReleaseAll = false;
            if (memoHoldTimer)
                memoHoldTimer->stop();
            return;
        case MemoReplyOrder::State::Held:
            if (!memoHoldTimer) {
                memoHoldTimer = new QTimer(q);
                memoHoldTimer->setSingleShot(true);
                QObject::connect(memoHoldTimer, &QTimer::timeout, q, [this] { sendMemoReplies(true); });
            }
            if (!memoHoldTimer->isActive())
                memoHoldTimer->start(MemoHoldMs);
            return;
        case MemoReplyOrder::State::Ready:
            break;
        }
        if (!noGap && memoTimer && memoOrder.wantsGap() && memoSent.isValid() && memoSent.elapsed() < MemoGapMs) {
            memoTimer->start(int(MemoGapMs - memoSent.elapsed()));
            return;
        }
        const MemoReplyOrder::Reply reply = memoOrder.take();
        memoSent.start();
        Q_EMIT q->replyReady(reply.id, reply.line);
    }
}

/// Returns true when the call was answered from the plan (memoized). Every call looks
/// up its own identity (docs/steps.md "Call identity"), whatever order it arrives in.
bool StepEngineState::applyPlan(Step &step, const CallIdentity &identity)
{
    if (!memoActive)
        return false; // Replay past its divergence: every call runs for real
    const ReplayPlan &p = *plan;
    const int found = planIndex.find(identity);
    if (found >= 0) { // a held memoized reply may have waited for this call
        memoOrder.arrived(found);
        scheduleMemoReplies(false); // after this call's step is added
    }
    if (p.mode == ReplayPlan::Mode::Rerun && found >= 0 && found == rerunIndex) {
        nlohmann::json detail = {{"from_sequence", p.rerunFrom}};
        if (p.editedArgs) {
            step.originalArgs = step.args;
            step.args = *p.editedArgs;
            step.argsHash = StepEngine::argsHash(step.args);
            detail["edited_args"] = step.args;
            detail["original_args"] = *step.originalArgs;
        }
        addEvent(step.sequence, PolicyEventKind::RerunFrom, std::move(detail));
        return false;
    }
    // Rerun: only the steps before `rerunFrom` are answered from the record; a call
    // that is not one of them runs for real, and later calls still look theirs up.
    if (p.mode == ReplayPlan::Mode::Rerun && (found < 0 || p.steps[std::size_t(found)].sequence >= p.rerunFrom))
        return false;
    if (found < 0) {
        if (p.mode == ReplayPlan::Mode::Resume) // a call the run had not made yet: real
            return false;
        // Replay and cassette stop answering from the record at the first call with no
        // match (a cassette then fails every later call: it is offline).
        const auto atSequence = std::find_if(p.steps.cbegin(), p.steps.cend(),
                                             [&](const Step &old) { return old.sequence == step.sequence; });
        const QString what = atSequence != p.steps.cend()
            ? QStringLiteral("expected %1, got %2")
                  .arg(callText(atSequence->tool, atSequence->args), callText(step.tool, step.args))
            : QStringLiteral("%1 is a call the recorded run did not make (it made %2 call(s))")
                  .arg(callText(step.tool, step.args))
                  .arg(p.steps.size());
        const QString unmatched = identity.n > 0
            ? QStringLiteral("the recorded run made this call (same tool and arguments) only %1 time(s)")
                  .arg(identity.n)
            : QStringLiteral("no recorded call has this tool and these arguments");
        diverge(step,
                QStringLiteral("step %1: %2; %3. Calls are matched by tool, arguments and the number of "
                               "identical calls before them, not by arrival order, so a script whose arguments "
                               "depend on completion order (or on time, randomness or changed input) diverges")
                    .arg(step.sequence)
                    .arg(what, unmatched));
        memoActive = false;
        return false;
    }
    const Step &old = p.steps[std::size_t(found)];
    if (!isFinal(old.status) || old.status == StepStatus::Cancelled) {
        // The open call (resume), or a call the recorded run never finished.
        if (p.mode == ReplayPlan::Mode::Replay)
            memoActive = false; // real from here, as the recorded run ended there
        if (p.mode == ReplayPlan::Mode::Resume) {
            step.attempts = old.attempts;
            if (!step.attempts.empty() && step.attempts.back().endedAt == 0)
                step.attempts.pop_back(); // interrupted: reopened with the same number
            step.startedAt = old.startedAt;
            // queuedAt stays "now": the call is pending again from the resume, so its
            // duration leaves out the time the run was suspended (docs/trace.md
            // "Durations"). The recorded queue time goes into the event.
            const QString text = old.queuedAt > 0
                ? QStringLiteral(
                      "pending again from the resume; first queued %1 s before it, its duration counts from here")
                      .arg(decimalSeconds(step.queuedAt - old.queuedAt))
                : QStringLiteral("pending again from the resume; its duration counts from here");
            addEvent(step.sequence, PolicyEventKind::Resumed,
                     {{"call_id", step.callId.toStdString()},
                      {"recorded_call_id", old.callId.toStdString()},
                      {"attempts_before", step.attempts.size()},
                      {"queued_at_before", old.queuedAt},
                      {"text", text.toStdString()}});
        }
        return false;
    }

    // Memoized: answered from the record, handler not run.
    if (const Tool *tool = project.tool(step.tool); tool && tool->handler == HandlerKind::Mock)
        mockAttempts[tool] += int(old.attempts.size());
    const bool resume = p.mode == ReplayPlan::Mode::Resume;
    step.status = StepStatus::Memoized;
    step.result = old.result;
    step.error = old.error;
    step.attempts = old.attempts;
    step.maxAttempts = old.maxAttempts;
    if (resume) {
        // The same run: its recorded rows are its own times, kept as they are.
        step.queuedAt = old.queuedAt;
        step.startedAt = old.startedAt;
        step.endedAt = old.endedAt;
        step.recordedStartedAt = old.recordedStartedAt;
        step.recordedEndedAt = old.recordedEndedAt;
    } else {
        // A new run: instantaneous at the moment it was served (step and attempts), the
        // recorded run's timing kept aside for the inspector (docs/trace.md "Durations").
        const bool wasMemoized = old.recordedEndedAt > 0;
        step.recordedStartedAt = wasMemoized ? old.recordedStartedAt
            : old.attempts.empty()           ? old.startedAt
                                             : old.attempts.front().startedAt;
        step.recordedEndedAt = wasMemoized ? old.recordedEndedAt : old.endedAt;
        step.startedAt = step.endedAt = step.queuedAt;
        for (Attempt &attempt : step.attempts)
            attempt.startedAt = attempt.endedAt = step.queuedAt;
    }
    const std::string id = step.callId.toStdString();
    const std::string line = old.status == StepStatus::Failed && old.error
        ? BridgeProtocol::encodeError(id, old.error->toBridge())
        : BridgeProtocol::encodeResult(id, old.result.value_or(nlohmann::json()));
    // Resume keeps the recorded rows as they are (the same run). A new run's memoized
    // step needs no commit before its reply: its result is durable in the recorded run
    // already. Its row goes with the next batch (scheduleFlush, or the next commit of
    // a step that runs), MemoBatch rows at most (docs/steps.md "Memoized steps are not
    // committed one by one").
    constexpr std::size_t MemoBatch = 256;
    constexpr int MemoFlushMs = 20;
    const int index = addStep(std::move(step), false, true, false);
    if (!resume && journal) {
        dirty.insert(index);
        if (dirty.size() >= MemoBatch)
            flush();
        else
            scheduleFlush(MemoFlushMs);
    }
    queueMemoReply(found, id, line); // in recorded completion order (MemoReplyOrder)
    return true;
}

void StepEngineState::pollAnswers()
{
    if (!journal)
        return;
    if (q->pendingCount() == 0) {
        if (answerPoll)
            answerPoll->stop();
        return;
    }
    for (const PendingAnswer &pending : journal->newPendingAnswers(runId)) {
        const int index = indexOf(pending.callId);
        if (index < 0)
            continue; // not reached yet (a resumed run still replaying): keep it
        QString reason;
        const bool accepted = q->answer(pending.callId, pending.attempt, pending.answer, &reason);
        journal->resolvePendingAnswer(pending.id, accepted, reason);
        addEvent(steps[std::size_t(index)].sequence, PolicyEventKind::AnswerFromJournal,
                 {{"answer_id", pending.id},
                  {"attempt", pending.attempt},
                  {"accepted", accepted},
                  {"reason", reason.toStdString()}});
    }
}

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

void StepEngineState::decide(int index, HandlerOutcome outcome, const char *decision)
{
    Step &step = steps[std::size_t(index)];
    step.paused = false;
    Attempt attempt;
    attempt.number = int(step.attempts.size()) + 1;
    attempt.startedAt = attempt.endedAt = now();
    if (step.startedAt == 0)
        step.startedAt = attempt.startedAt;
    addEvent(step.sequence, PolicyEventKind::StepDecision, {{"decision", decision}, {"ok", outcome.ok}});
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

void StepEngine::setWorkDir(const QString &dir)
{
    d->workDir = dir;
}

bool StepEngine::stepMode() const
{
    return d->stepMode;
}

bool StepEngine::continueStep(const QString &callId, QString *reason)
{
    const int index = d->heldIndex(callId, reason);
    if (index < 0)
        return false;
    d->steps[std::size_t(index)].paused = false;
    d->addEvent(d->steps[std::size_t(index)].sequence, PolicyEventKind::StepDecision, {{"decision", "continue"}});
    Q_EMIT stepReleased(callId);
    if (d->flights[std::size_t(index)])
        d->startAttempt(index);
    return true;
}

bool StepEngine::answerStep(const QString &callId, const ManualAnswer &answer, QString *reason)
{
    const int index = d->heldIndex(callId, reason);
    if (index < 0)
        return false;
    const Tool &tool = *d->toolOf(d->steps[std::size_t(index)].tool);
    if (!answer.isError && tool.outputSchema) {
        QString error;
        if (const SchemaValidator *validator = d->validator(tool, true, &error)) {
            if (const auto failure = validator->validate(answer.result)) {
                if (reason)
                    *reason = QStringLiteral("the result does not match output_schema at %1: %2")
                                  .arg(failure->pointer.isEmpty() ? QStringLiteral("(root)")
                                                                  : elidedText(failure->pointer, ElidedChars),
                                       failure->message);
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

bool StepEngine::retryNow(const QString &callId, QString *reason)
{
    const int index = d->indexOf(callId);
    Flight *flight = index < 0 ? nullptr : d->flights[std::size_t(index)].get();
    if (!flight || d->steps[std::size_t(index)].status != StepStatus::Retrying || !flight->retryTimer
        || !flight->retryTimer->isActive()) {
        if (reason)
            *reason = index < 0 ? QStringLiteral("no call with id '%1'").arg(callId)
                                : QStringLiteral("call '%1' is not waiting for a retry (%2)")
                                      .arg(callId, stepStatusName(d->steps[std::size_t(index)].status));
        return false;
    }
    flight->retryTimer->stop();
    const Step &step = d->steps[std::size_t(index)];
    d->addEvent(step.sequence, PolicyEventKind::RetryNow,
                {{"planned_at", step.nextAttemptAt}, {"saved_ms", std::max<qint64>(0, step.nextAttemptAt - now())}});
    d->startAttempt(index);
    return true;
}

void StepEngine::flush()
{
    d->flush();
    d->sendMemoReplies(true, true);
}

bool StepEngine::answer(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason)
{
    auto refuse = [reason](const QString &why) {
        if (reason)
            *reason = why;
        return false;
    };
    const int index = d->indexOf(callId);
    if (index < 0)
        return refuse(QStringLiteral("no call with id '%1'").arg(callId));
    const Step &step = d->steps[std::size_t(index)];
    if (isFinal(step.status))
        return refuse(QStringLiteral("call '%1' already finished (%2)").arg(callId, stepStatusName(step.status)));
    const int current = step.attempts.empty() ? 0 : step.attempts.back().number;
    if (attempt != current)
        return refuse(
            QStringLiteral("answer is for attempt %1 but the call is at attempt %2").arg(attempt).arg(current));
    Flight *flight = d->flights[std::size_t(index)].get();
    auto *manual = flight ? qobject_cast<ManualHandler *>(flight->handler.data()) : nullptr;
    if (step.status != StepStatus::Waiting || !manual || !manual->isOpen()) {
        if (step.attempts.back().endedAt > 0)
            return refuse(QStringLiteral("attempt %1 of call '%2' was already answered").arg(attempt).arg(callId));
        return refuse(
            QStringLiteral("call '%1' is not waiting for a person (%2)").arg(callId, stepStatusName(step.status)));
    }
    // A result must fit the tool's output_schema; refusing lets the person correct it.
    if (!answer.isError) {
        const Tool &tool = *d->toolOf(step.tool);
        QString error;
        if (tool.outputSchema) {
            if (const SchemaValidator *validator = d->validator(tool, true, &error)) {
                if (const auto failure = validator->validate(answer.result))
                    return refuse(QStringLiteral("the result does not match output_schema at %1: %2")
                                      .arg(failure->pointer.isEmpty() ? QStringLiteral("(root)")
                                                                      : elidedText(failure->pointer, ElidedChars),
                                           failure->message));
            }
        }
    }
    ManualAnswer checked = answer;
    if (checked.isError && checked.message.trimmed().isEmpty())
        checked.message = QStringLiteral("the call was failed by hand");
    return manual->deliver(checked);
}

void StepEngine::cancelAll(const QString &reason)
{
    d->cancelled = true;
    d->addRefusalSummary();
    // Index loop: slots may add steps while we go.
    for (std::size_t i = 0; i < d->steps.size(); ++i) {
        if (!d->flights[i] || isFinal(d->steps[i].status))
            continue;
        Step &step = d->steps[i];
        const bool wasWaiting = step.status == StepStatus::Waiting;
        QString report;
        if (d->flights[i]->handler) {
            ToolHandler *handler = d->flights[i]->handler;
            d->stopFlight(int(i));
            report = handler->cancelReport();
        }
        d->stopFlight(int(i));
        const QString message = report.isEmpty() ? reason : reason + QStringLiteral("; ") + report;
        d->addEvent(step.sequence, PolicyEventKind::Cancelled,
                    {{"reason", reason.toStdString()},
                     {"status", stepStatusName(step.status).toStdString()},
                     {"handler", report.toStdString()}});
        step.paused = false;
        const StepError error = makeError(ErrorCode::Cancelled, message, false, int(step.attempts.size()));
        if (!step.attempts.empty() && step.attempts.back().endedAt == 0) {
            step.attempts.back().endedAt = now();
            step.attempts.back().error = error;
            step.attempts.back().error->attempts = step.attempts.back().number;
        }
        step.error = error;
        const QString callId = step.callId;
        d->finish(int(i), StepStatus::Cancelled);
        if (wasWaiting)
            Q_EMIT pendingCallClosed(callId);
    }
    d->flush();
    if (d->answerPoll)
        d->answerPoll->stop();
}

const std::vector<Step> &StepEngine::steps() const
{
    return d->steps;
}

const Step *StepEngine::step(const QString &callId) const
{
    const int index = d->indexOf(callId);
    return index < 0 ? nullptr : &d->steps[std::size_t(index)];
}

int StepEngine::pendingCount() const
{
    return int(std::count_if(d->steps.cbegin(), d->steps.cend(),
                             [](const Step &step) { return step.status == StepStatus::Waiting; }));
}

int StepEngine::callCount() const
{
    return d->callCount;
}

qint64 StepEngine::largestRequestBytes() const
{
    return d->largestRequest;
}

qint64 StepEngine::largestReplyBytes() const
{
    return d->largestReply;
}

int StepEngine::modelCallCount() const
{
    return d->models->calls();
}

qint64 StepEngine::tokensUsed() const
{
    return d->models->tokensUsed();
}
