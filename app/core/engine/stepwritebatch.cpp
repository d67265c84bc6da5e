// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/stepwritebatch.h"

#include "engine/stepenginestate.h"
#include "journal/journal.h"

#include <QTimer>

using namespace stepengine;

StepWriteBatch::StepWriteBatch(StepEngineState &state)
    : s(state)
{}

void StepWriteBatch::scheduleFlush(int ms)
{
    if (!flushTimer) {
        flushTimer = new QTimer(s.q);
        flushTimer->setSingleShot(true);
        QObject::connect(flushTimer, &QTimer::timeout, s.q, [this] { flush(); });
    }
    // An earlier deadline wins: held replies must not wait for a later batch.
    if (!flushTimer->isActive() || flushTimer->remainingTime() > ms)
        flushTimer->start(ms);
}

void StepWriteBatch::flush()
{
    if (flushTimer)
        flushTimer->stop();
    // The run's row follows its calls (running/waiting) in the same transaction as the
    // step that makes it wait, or with the next group commit when it runs again.
    if (s.journal && s.recordsRunStatus)
        s.journal->setLiveStatus(s.runId, s.waitsForPerson() ? RunStatus::Waiting : RunStatus::Running);
    if (s.journal && (!dirty.empty() || !events.empty())) {
        std::vector<const Step *> rows;
        rows.reserve(dirty.size());
        for (const int index : dirty)
            rows.push_back(&s.steps[std::size_t(index)]);
        if (!s.journal->commit(rows, events))
            Q_EMIT s.q->journalFailed(QStringLiteral("journal: %1 step(s) were not recorded: %2")
                                          .arg(rows.size())
                                          .arg(s.journal->lastError()));
    }
    dirty.clear();
    events.clear();
    // Slots may submit calls (and flush again): send from a copy.
    const auto replies = std::move(heldReplies);
    heldReplies.clear();
    for (const auto &[id, line] : replies)
        Q_EMIT s.q->replyReady(id, line);
}

/// Marks step `index` for writing: at once (`now`, write-ahead before a handler with
/// side effects or a reply) or with the next batch.
void StepWriteBatch::record(int index, bool now)
{
    if (!s.journal)
        return;
    dirty.insert(index);
    if (now)
        flush();
    else
        scheduleFlush(20);
}

void StepWriteBatch::addEvent(int sequence, PolicyEventKind kind, nlohmann::json detail)
{
    PolicyEvent event{s.runId, sequence, now(), kind, std::move(detail)};
    if (s.journal)
        events.push_back(event);
    Q_EMIT s.q->policyEvent(event);
}

void StepWriteBatch::markDirty(int index)
{
    dirty.insert(index);
}

void StepWriteBatch::holdReply(std::string id, std::string line)
{
    heldReplies.emplace_back(std::move(id), std::move(line));
}

void StepWriteBatch::dropHeldReplies()
{
    heldReplies.clear();
}
