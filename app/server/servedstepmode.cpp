// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servedstepmode.h"

#include "engine/stepengine.h"

ServedStepMode::ServedStepMode(QObject *parent)
    : QObject(parent)
{}

void ServedStepMode::setOn(bool on)
{
    m_on = on;
    for (const QPointer<StepEngine> &engine : std::as_const(m_engines))
        if (engine)
            engine->setStepMode(on);
}

void ServedStepMode::continueToEnd()
{
    m_on = false;
    // continueToEnd() releases through stepReleased, which changes m_held: a copy.
    const QList<QPointer<StepEngine>> engines = m_engines.values();
    for (const QPointer<StepEngine> &engine : engines)
        if (engine)
            engine->continueToEnd();
}

void ServedStepMode::add(StepEngine *engine, const QString &runId)
{
    m_engines.insert(runId, engine);
    engine->setStepMode(m_on);
    connect(engine, &StepEngine::stepPaused, this, [this, runId](const Step &step) {
        m_held[runId].insert(step.callId);
        Q_EMIT callHeld(runId, step);
    });
    connect(engine, &StepEngine::stepReleased, this, [this, runId](const QString &callId) { released(runId, callId); });
    // A held call cancelled (its session ended) is not released by a decision.
    connect(engine, &StepEngine::stepChanged, this, [this, runId](const Step &step) {
        if (!step.paused)
            released(runId, step.callId);
    });
    connect(engine, &QObject::destroyed, this, [this, runId] {
        m_engines.remove(runId);
        for (const QString &callId : m_held.value(runId))
            released(runId, callId);
        m_held.remove(runId);
    });
}

void ServedStepMode::released(const QString &runId, const QString &callId)
{
    const auto held = m_held.find(runId);
    if (held == m_held.end() || !held->remove(callId))
        return;
    Q_EMIT callReleased(runId, callId);
}

bool ServedStepMode::serves(const QString &runId) const
{
    return m_engines.value(runId) != nullptr;
}

bool ServedStepMode::decide(const QString &runId, const QString &callId, const Decision &decision, QString *reason,
                            Refusal *refusal)
{
    Refusal unused = Refusal::None;
    if (!refusal)
        refusal = &unused;
    *refusal = Refusal::None;
    StepEngine *engine = m_engines.value(runId);
    if (!engine) {
        *refusal = Refusal::NotHeld;
        *reason = QStringLiteral("run %1 is not served by this process now (its session ended, or it is not a "
                                 "served MCP session): nothing of it is held here")
                      .arg(runId);
        return false;
    }
    const Step *step = engine->step(callId);
    if (!step) {
        *refusal = Refusal::UnknownCall;
        *reason = QStringLiteral("run %1 has no call '%2'").arg(runId, callId);
        return false;
    }
    if (!step->paused) {
        *refusal = Refusal::NotHeld;
        *reason = QStringLiteral("call '%1' is not held by step mode (it is %2); only a held call is decided")
                      .arg(callId, stepStatusName(step->status));
        return false;
    }
    bool ok = false;
    switch (decision.kind) {
    case Decision::Kind::Continue:
        ok = engine->continueStep(callId, reason);
        break;
    case Decision::Kind::Answer:
    case Decision::Kind::Fail:
        ok = engine->answerStep(callId, decision.answer, reason);
        break;
    case Decision::Kind::TimeOut:
        ok = engine->timeOutStep(callId, reason);
        break;
    }
    if (!ok)
        *refusal = Refusal::Refused;
    return ok;
}

QList<QPair<QString, Step>> ServedStepMode::heldCalls() const
{
    QList<QPair<QString, Step>> calls;
    for (auto held = m_held.cbegin(); held != m_held.cend(); ++held) {
        const StepEngine *engine = m_engines.value(held.key());
        if (!engine)
            continue;
        for (const QString &callId : held.value())
            if (const Step *step = engine->step(callId))
                calls.append({held.key(), *step});
    }
    return calls;
}
