// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QSet>
#include <QString>

class StepEngine;

/// Step mode for the calls a studio serves (issue 22; docs/server.md "Step mode for
/// served calls"): the StepEngine of every MCP session the server opens is added here,
/// and while step mode is on each holds every call before it runs (StepEngine::
/// setStepMode), as a script run's engine does under F10. The serving process owns
/// these engines, so a held call is decided here directly — by the window's Pending
/// Calls dock, or by `POST /v1/runs/{run}/calls/{call_id}/decision` — not through the
/// journal. A seed-003 programmatic session is not added: its tools are manual tools
/// its HTTP client answers, so the client already decides each call. Lives on the Qt
/// thread.
class ServedStepMode : public QObject
{
    Q_OBJECT
public:
    /// A person's decision on a held call, named as the journal's `step_decision` events
    /// name them: `continue` (the handler runs), `answer` (a result instead), `fail` (an
    /// error instead, with its retryable flag) and `time_out` (an injected timeout).
    struct Decision
    {
        enum class Kind { Continue, Answer, Fail, TimeOut };
        Kind kind = Kind::Continue;
        ManualAnswer answer; ///< Answer: the result; Fail: the message and retryable flag
    };
    /// Why decide() refused: the call is not held in this process (NotHeld), or the
    /// engine refused the decision (Refused: e.g. a result that does not match the
    /// tool's output_schema; the call stays held).
    enum class Refusal { None, UnknownCall, NotHeld, Refused };

    explicit ServedStepMode(QObject *parent = nullptr);

    /// On: every added engine holds each new call. Off: new calls run; calls held
    /// already stay held (continueToEnd() releases them), as StepEngine::setStepMode.
    void setOn(bool on);
    bool isOn() const { return m_on; }
    /// Step mode off, and every held call of every served run continues (Continue to End).
    void continueToEnd();

    /// Adds the engine of served run `runId` (it follows isOn() from now); forgotten
    /// when the engine is destroyed.
    void add(StepEngine *engine, const QString &runId);
    /// True when run `runId` is served by an engine added here (a live MCP session).
    bool serves(const QString &runId) const;

    /// Decides the held call `callId` of served run `runId`. False with `reason` in words
    /// and `refusal` when the run or call is unknown here, the call is not held (running,
    /// waiting for a person, finished) or the engine refused the decision.
    bool decide(const QString &runId, const QString &callId, const Decision &decision, QString *reason,
                Refusal *refusal = nullptr);

    /// The calls held now, by run id (for a window that opens after they were held).
    QList<QPair<QString, Step>> heldCalls() const;

Q_SIGNALS:
    /// A served call is held (step mode on) until decide() or continueToEnd().
    void callHeld(const QString &runId, const Step &step);
    /// A held served call was decided (or cancelled when its session ended).
    void callReleased(const QString &runId, const QString &callId);

private:
    /// `callId` of `runId` is no longer held: forgotten, callReleased.
    void released(const QString &runId, const QString &callId);

    bool m_on = false;
    QHash<QString, QPointer<StepEngine>> m_engines; ///< by run id
    QHash<QString, QSet<QString>> m_held;           ///< held call ids by run id
};
