// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answerroute.h"

#include "project/printabletext.h"
#include "run/runcontroller.h"

bool AnswerRoute::available(bool held) const
{
    return m_run || (held ? bool(m_heldDecider) : bool(m_answerer)); // Try it answers through an answerer
}

bool AnswerRoute::send(const QString &callId, int attempt, bool held, bool timeout, const ManualAnswer &answer,
                       QObject *context, const Outcome &outcome) const
{
    if (m_heldDecider && held) { // a served call held by step mode: decided in this process, at once
        ServedStepMode::Decision decision;
        decision.kind = timeout ? ServedStepMode::Decision::Kind::TimeOut
            : answer.isError    ? ServedStepMode::Decision::Kind::Fail
                                : ServedStepMode::Decision::Kind::Answer;
        decision.answer = answer;
        const HeldDecider decider = m_heldDecider; // the pane may be given another meanwhile
        QString reason;
        const bool accepted = decider(callId, decision, &reason);
        outcome(accepted, reason);
        return accepted;
    }
    if (m_answerer && !held) { // a served run's call: through the journal, at once
        const Answerer answerer = m_answerer;
        QString reason;
        const bool accepted = answerer(callId, attempt, answer, &reason);
        outcome(accepted, reason);
        return accepted;
    }
    // Posted to the run thread (issue 18): the window never waits for a slow
    // validation or handler there; the outcome comes back queued.
    if (timeout)
        m_run->timeOutStep(callId, context, outcome);
    else if (held)
        m_run->answerStep(callId, answer, context, outcome);
    else
        m_run->answer(callId, attempt, answer, context, outcome);
    return true;
}

QString AnswerRoute::summary(const ManualAnswer &answer, bool held, bool timeout)
{
    constexpr qsizetype MaxSentChars = 200;
    if (timeout)
        return tr("Failed without running (timeout): timed out by hand");
    if (held && answer.isError)
        return tr("Failed without running (tool_failed): %1").arg(clippedText(answer.message, MaxSentChars));
    if (answer.isError)
        return (answer.retryable ? tr("Answered with a retryable error: %1") : tr("Answered with an error: %1"))
            .arg(clippedText(answer.message, MaxSentChars));
    const QString json
        = QString::fromStdString(answer.result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    const QString shown = clippedText(json, MaxSentChars);
    return held ? tr("Answered instead with %1 (the handler did not run)").arg(shown)
                : tr("Answered with %1").arg(shown);
}
