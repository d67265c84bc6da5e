// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/stepengine.h"

#include "bridgemessage.h"
#include "engine/handlers/manualhandler.h"
#include "engine/modelstep.h"
#include "engine/stepenginestate.h"
#include "journal/journal.h"
#include "project/printabletext.h"
#include "project/schemavalidator.h"

#include <QCryptographicHash>
#include <QTimer>

#include <algorithm>

namespace stepengine {

/// "WHAT at POINTER: MESSAGE" for a value a schema refused, the pointer elided (it names
/// the caller's keys).
QString mismatchText(const char *what, const SchemaValidator::Failure &failure)
{
    return QStringLiteral("%1 at %2: %3")
        .arg(QLatin1StringView(what),
             failure.pointer.isEmpty() ? QStringLiteral("(root)") : elidedText(failure.pointer, ElidedChars),
             failure.message);
}

QString secondsText(int ms)
{
    return QString::number(ms / 1000.0, 'g', 6);
}

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

StepError makeError(ErrorCode code, const QString &message, bool retryable, int attempts, nlohmann::json details)
{
    StepError error;
    error.code = code;
    error.message = message.toStdString();
    error.retryable = retryable;
    error.attempts = attempts;
    error.details = std::move(details);
    return error;
}

} // namespace stepengine

using namespace stepengine;

StepEngineState::StepEngineState(StepEngine *engine)
    : q(engine)
    , batch(*this)
    , admission(*this)
    , memo(*this)
    , attempts(*this)
    , lateProtocols(std::make_shared<LateProtocols>(engine, [this](int index, int number, nlohmann::json record) {
        attempts.keepLateProtocol(index, number, std::move(record));
    }))
{}

StepEngineState::~StepEngineState() = default;

const Tool *StepEngineState::toolOf(const QString &name) const
{
    const Tool *model = models->tool(name);
    return model ? model : project.tool(name);
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

StepEngine::StepEngine(const Project &project, const QString &runId, Journal *journal, const QStringList &boundTools,
                       QObject *parent)
    : QObject(parent)
    , d(std::make_unique<StepEngineState>(this))
{
    d->project = project;
    d->models = std::make_unique<ModelSteps>(d->project, boundTools);
    d->runId = runId;
    d->keyPrefix = runId + QLatin1Char(':');
    d->journal = journal;
    d->boundTools = boundTools;
}

StepEngine::~StepEngine()
{
    d->lateProtocols->close(); // a record of a cancelled attempt coming back finds no engine
    // Pending writes still go to the journal; held replies have nobody to go to.
    d->batch.dropHeldReplies();
    d->flush();
    // Nothing is emitted any more; running commands are killed with their handlers.
    for (std::size_t i = 0; i < d->flights.size(); ++i) {
        d->stopFlight(int(i));
        if (d->flights[i])
            delete d->flights[i]->context; // before the state its lambdas use is gone
    }
    d->attempts.deleteEnded();
}

void StepEngine::submitCall(const BridgeCall &call)
{
    if (call.kind == BridgeCall::Kind::Model)
        d->admission.submitModel(call);
    else
        d->admission.submitCall(call);
}

QString StepEngine::argsHash(const nlohmann::json &args)
{
    return hashOfCompactJson(args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void StepEngine::setReplayPlan(ReplayPlan plan)
{
    d->resuming = plan.mode == ReplayPlan::Mode::Resume;
    d->memo.setPlan(std::move(plan));
}

bool StepEngine::isReplaying() const
{
    return d->memo.isReplaying();
}

const Step *StepEngine::stepBySequence(int sequence) const
{
    if (sequence < 1 || std::size_t(sequence) > d->indexBySequence.size())
        return nullptr;
    const int index = d->indexBySequence[std::size_t(sequence - 1)];
    return index < 0 ? nullptr : &d->steps[std::size_t(index)];
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

void StepEngine::setRecordsRunStatus(bool on)
{
    d->recordsRunStatus = on;
}

void StepEngine::setWorkDir(const QString &dir)
{
    d->workDir = dir;
}

void StepEngine::setProject(const Project &project)
{
    Project next = project;
    // A flight's attempts look their tool up by name (toolOf): it must stay found.
    for (std::size_t i = 0; i < d->steps.size() && i < d->flights.size(); ++i) {
        const QString &name = d->steps[i].tool;
        if (!d->flights[i] || next.tool(name) || d->models->tool(name))
            continue;
        if (const Tool *kept = d->project.tool(name))
            next.tools.push_back(*kept);
    }
    // What is kept by Tool pointer follows the tools by name into `next`: a pointer into
    // the old project could name a new tool once its memory is reused.
    std::unordered_map<const Tool *, int> mockAttempts;
    const auto &old = d->project.tools;
    for (const auto &[tool, attempts] : d->mockAttempts) {
        const bool ofTheProject
            = std::any_of(old.begin(), old.end(), [tool = tool](const Tool &t) { return &t == tool; });
        if (!ofTheProject)
            mockAttempts[tool] = attempts; // a model's (ModelSteps keeps those)
        else if (const Tool *same = next.tool(tool->name))
            mockAttempts[same] = attempts;
    }
    d->project = std::move(next); // ModelSteps holds a reference to d->project: still valid
    // next's tools moved with their vector: the pointers above still name them.
    d->mockAttempts = std::move(mockAttempts);
    d->admission.forgetTools();
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
    d->memo.sendMemoReplies(true, true);
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
    // A running attempt's question (an MCP server's elicitation or sampling request).
    if (step.status == StepStatus::Waiting && flight && flight->handler && step.attempts.back().question)
        return d->attempts.answerQuestion(index, answer, reason);
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
            if (const SchemaValidator *validator = d->admission.validator(tool, true, &error)) {
                if (const auto failure = validator->validate(answer.result))
                    return refuse(mismatchText("the result does not match output_schema", *failure));
            }
        }
    }
    ManualAnswer checked = answer;
    if (checked.isError && checked.message.trimmed().isEmpty())
        checked.message = QStringLiteral("the call was failed by hand");
    if (const QString why = manual->prepare(checked); !why.isEmpty())
        return refuse(why); // a manual model's reply that is not one (ManualModelHandler)
    return manual->deliver(checked);
}

void StepEngine::cancelAll(const QString &reason)
{
    d->cancelled = true;
    d->admission.addRefusalSummary();
    // Index loop: slots may add steps while we go.
    for (std::size_t i = 0; i < d->steps.size(); ++i)
        cancelIndex(int(i), reason);
    d->flush();
    if (d->answerPoll)
        d->answerPoll->stop();
}

bool StepEngine::cancelStep(const QString &callId, const QString &reason, QString *why)
{
    const int index = d->indexOf(callId);
    if (index < 0 || !d->flights[std::size_t(index)] || isFinal(d->steps[std::size_t(index)].status)) {
        if (why)
            *why = index < 0 ? QStringLiteral("no call %1 in this run").arg(elidedText(callId, stepengine::ElidedChars))
                             : QStringLiteral("the call %1 has ended").arg(elidedText(callId, stepengine::ElidedChars));
        return false;
    }
    cancelIndex(index, reason);
    return true;
}

void StepEngine::cancelIndex(int index, const QString &reason)
{
    const auto i = std::size_t(index);
    if (!d->flights[i] || isFinal(d->steps[i].status))
        return;
    Step &step = d->steps[i];
    const bool wasWaiting = step.status == StepStatus::Waiting;
    QString report;
    nlohmann::json protocol; // the cancelled attempt's record so far (else later: LateProtocols)
    if (d->flights[i]->handler) {
        ToolHandler *handler = d->flights[i]->handler;
        d->stopFlight(index);
        report = handler->cancelReport();
        protocol = handler->cancelledProtocol();
    }
    d->stopFlight(index);
    const QString message = report.isEmpty() ? reason : reason + QStringLiteral("; ") + report;
    d->addEvent(step.sequence, PolicyEventKind::Cancelled,
                {{"reason", reason.toStdString()},
                 {"status", stepStatusName(step.status).toStdString()},
                 {"handler", report.toStdString()}});
    step.paused = false;
    const StepError error = makeError(ErrorCode::Cancelled, message, false, int(step.attempts.size()));
    if (!step.attempts.empty() && step.attempts.back().endedAt == 0) {
        step.attempts.back().endedAt = now();
        step.attempts.back().personAnswered(step.attempts.back().endedAt);
        step.attempts.back().error = error;
        step.attempts.back().error->attempts = step.attempts.back().number;
        step.attempts.back().protocol = std::move(protocol);
    }
    step.error = error;
    const QString callId = step.callId;
    d->finish(index, StepStatus::Cancelled);
    if (wasWaiting)
        Q_EMIT pendingCallClosed(callId);
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
