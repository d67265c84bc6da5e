// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// StepAttempts' questions to a person: an attempt whose handler asks one (an MCP
// server's elicitation or sampling request, a changed tool to accept; engine/
// personquestion.h) waits for the answer, which comes from the window or, through the
// journal, from `toolstudio answer` (docs/mcp.md "A server's requests").
#include "engine/stepattempts.h"

#include "engine/personquestion.h"
#include "engine/stepenginestate.h"

#include <QTimer>

using namespace stepengine;

namespace {
/// The question of `attempt` as its handler asked it: without the engine's "serial", with
/// the "model_request" the engine keeps apart (Attempt::modelRequest).
nlohmann::json askedOf(const Attempt &attempt)
{
    nlohmann::json asked = PersonQuestion::asked(*attempt.question);
    if (attempt.modelRequest)
        asked["model_request"] = *attempt.modelRequest;
    return asked;
}
} // namespace

void StepAttempts::watchAnswers()
{
    if (!s.journal)
        return;
    if (!s.answerPoll) {
        s.answerPoll = new QTimer(s.q);
        s.answerPoll->setInterval(250);
        QObject::connect(s.answerPoll, &QTimer::timeout, s.q, [this] { s.pollAnswers(); });
    }
    s.answerPoll->start();
    // Answers stored while the run was suspended; a new call's come with the poll.
    if (s.resuming)
        QTimer::singleShot(0, s.q, [this] { s.pollAnswers(); });
}

void StepAttempts::onPersonAsked(int index, ToolHandler *handler, const nlohmann::json &question)
{
    Flight *flight = s.flights[std::size_t(index)].get();
    Step &step = s.steps[std::size_t(index)];
    if (!flight || flight->handler != handler || step.attempts.empty() || step.status != StepStatus::Running)
        return; // one question at a time (the handler queues the others)
    // A person may take any time: the attempt timeout waits with them (the total timeout
    // does not; docs/mcp.md "A server's requests").
    if (flight->attemptTimer && flight->attemptTimer->isActive()) {
        flight->attemptLeftMs = flight->attemptTimer->remainingTime();
        flight->attemptTimer->stop();
    }
    Attempt &attempt = step.attempts.back();
    // Numbered, so that an answer names the question it answers: a server may withdraw
    // one and ask another while a person reads the first (attack30 F1).
    nlohmann::json numbered = question;
    numbered["serial"] = ++flight->questionsAsked;
    nlohmann::json detail = {{"attempt", attempt.number}};
    attempt.modelRequest.reset();
    if (const auto request = numbered.find("model_request"); request != numbered.end()) {
        attempt.modelRequest = *request;
        detail["model_request"] = *request;
        numbered.erase(request);
    }
    attempt.question = numbered;
    attempt.personAsked(now());
    detail["question"] = numbered;
    step.status = StepStatus::Waiting;
    s.addEvent(step.sequence, PolicyEventKind::PersonAsked, std::move(detail));
    s.notifyChanged(index, true); // written before a person is asked, so `toolstudio answer` finds it
    s.emitStep(&StepEngine::pendingCallOpened, index);
    watchAnswers();
}

void StepAttempts::onPersonWithdrawn(int index, ToolHandler *handler, const nlohmann::json &question)
{
    Flight *flight = s.flights[std::size_t(index)].get();
    Step &step = s.steps[std::size_t(index)];
    if (!flight || flight->handler != handler || step.attempts.empty() || !step.attempts.back().question
        || askedOf(step.attempts.back()) != question)
        return; // answered meanwhile: the handler drops that answer
    Attempt &attempt = step.attempts.back();
    attempt.question.reset();
    attempt.modelRequest.reset();
    attempt.personAnswered(now());
    step.status = StepStatus::Running;
    s.addEvent(
        step.sequence, PolicyEventKind::PersonAnswered,
        {{"attempt", attempt.number}, {"kind", PersonQuestion::kind(question).toStdString()}, {"withdrawn", true}});
    if (flight->attemptTimer && flight->attemptLeftMs >= 0)
        flight->attemptTimer->start(int(std::max<qint64>(1, flight->attemptLeftMs)));
    flight->attemptLeftMs = -1;
    s.notifyChanged(index, true);
    Q_EMIT s.q->pendingCallClosed(step.callId);
}

bool StepAttempts::answerQuestion(int index, const ManualAnswer &answer, QString *reason)
{
    Flight *flight = s.flights[std::size_t(index)].get();
    Step &step = s.steps[std::size_t(index)];
    if (!flight || !flight->handler || step.attempts.empty() || !step.attempts.back().question) {
        if (reason)
            *reason = QStringLiteral("call '%1' asks no question now").arg(step.callId);
        return false;
    }
    Attempt &attempt = step.attempts.back();
    const nlohmann::json question = *attempt.question;
    const nlohmann::json asked = askedOf(attempt);
    if (const int serial = question.value("serial", 0); answer.question > 0 && answer.question != serial) {
        if (reason)
            *reason = QStringLiteral("call '%1' asks question %2 now; question %3, the one answered, was withdrawn "
                                     "by its server: read the new one and answer again")
                          .arg(step.callId)
                          .arg(serial)
                          .arg(answer.question);
        return false;
    }
    ManualAnswer checked = answer;
    if (const QString why = PersonQuestion::check(question, checked); !why.isEmpty()) {
        if (reason)
            *reason = why;
        return false;
    }
    attempt.question.reset();
    attempt.modelRequest.reset();
    attempt.personAnswered(now());
    step.status = StepStatus::Running;
    s.addEvent(
        step.sequence, PolicyEventKind::PersonAnswered,
        {{"attempt", attempt.number},
         {"kind", PersonQuestion::kind(question).toStdString()},
         {"answer", checked.isError ? nlohmann::json{{"error", checked.message.toStdString()}} : checked.result}});
    if (flight->attemptTimer && flight->attemptLeftMs >= 0)
        flight->attemptTimer->start(int(std::max<qint64>(1, flight->attemptLeftMs)));
    flight->attemptLeftMs = -1;
    s.notifyChanged(index, true);
    const QString callId = step.callId;
    flight->handler->answerPerson(asked, checked);
    Q_EMIT s.q->pendingCallClosed(callId);
    return true;
}

/// The step's total timeout runs from its first attempt's start (once per step).
