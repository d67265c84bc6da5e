// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "servedstepmode.h"

#include <QCoreApplication>
#include <QString>

#include <functional>

class QObject;
class RunController;

/// Where AnswerPane's answer to a call goes, and how the pane says what was sent: a
/// waiting call to the run (RunController::answer, posted to the run thread) or to an
/// answerer (a served run's call, through the journal, at once); a call held by step
/// mode to the run (answerStep / timeOutStep) or to a held decider (a served MCP call
/// held by the server's step mode, decided in this process).
class AnswerRoute
{
    Q_DECLARE_TR_FUNCTIONS(AnswerRoute)

public:
    using Answerer = std::function<bool(const QString &callId, int attempt, const ManualAnswer &, QString *reason)>;
    using HeldDecider = std::function<bool(const QString &callId, const ServedStepMode::Decision &, QString *reason)>;
    using Outcome = std::function<void(bool accepted, const QString &reason)>;

    explicit AnswerRoute(RunController *run)
        : m_run(run)
    {}
    void setAnswerer(Answerer answerer) { m_answerer = std::move(answerer); }
    void setHeldDecider(HeldDecider decider) { m_heldDecider = std::move(decider); }

    /// True when a call (`held` or waiting) has somewhere to go.
    bool available(bool held) const;
    /// Sends `answer` for `callId` (`timeout`: a held call failed as timed out by hand).
    /// `outcome` is called at once (an answerer, a decider) or later, queued to
    /// `context` (the run); returns what it said at once, or true when posted.
    bool send(const QString &callId, int attempt, bool held, bool timeout, const ManualAnswer &answer, QObject *context,
              const Outcome &outcome) const;
    /// What the pane shows once the answer is accepted ("Answered with {\"url\":…}").
    static QString summary(const ManualAnswer &answer, bool held, bool timeout);

private:
    RunController *m_run = nullptr;
    Answerer m_answerer;
    HeldDecider m_heldDecider;
};
