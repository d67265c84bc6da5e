// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

class QTimer;
class StepEngineState;

/// The step engine's journal writes (docs/steps.md "The commit path"): steps marked
/// dirty and policy events are committed in one transaction at once (write-ahead,
/// before a handler with side effects or a reply) or within 20 ms; replies held for a
/// batch go out after its commit. A refused commit is reported as
/// StepEngine::journalFailed. Engine-internal (stepenginestate.h).
class StepWriteBatch
{
public:
    explicit StepWriteBatch(StepEngineState &state);

    /// Commits what is marked, then sends the held replies.
    void flush();
    /// Flushes within `ms` (an earlier deadline wins).
    void scheduleFlush(int ms);
    /// Marks step `index` for writing: at once (`now`) or with the next batch.
    void record(int index, bool now);
    /// Marks step `index` for the next commit without scheduling one.
    void markDirty(int index);
    std::size_t dirtyCount() const { return dirty.size(); }
    /// Queues an event for the next commit and emits StepEngine::policyEvent.
    void addEvent(int sequence, PolicyEventKind kind, nlohmann::json detail);
    /// `line` is sent as the reply to `id` after the next commit.
    void holdReply(std::string id, std::string line);
    void dropHeldReplies();

private:
    StepEngineState &s;
    std::set<int> dirty;                                          ///< steps to (re)write
    std::vector<PolicyEvent> events;                              ///< events to write
    std::vector<std::pair<std::string, std::string>> heldReplies; ///< sent after the next commit
    QTimer *flushTimer = nullptr;
};
