// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project.h"
#include "step.h"

#include <QObject>
#include <QStringList>

#include <memory>

class Journal;
class StepEngineState;

/// Runs every tool call of one run as a durable step (DESIGN.md "Steps: the engine"):
/// declared and active? → max calls → request cap → positional args mapped to the
/// schema's property order → input_schema validation → step recorded in the journal
/// → handler attempt under the attempt timeout → retries with exponential backoff and
/// jitter → output_schema and reply cap → commit → replyReady.
///
/// Every call yields exactly one replyReady (result or error), emitted only after the
/// step's final state is committed to the journal (write-ahead). Lives on the thread
/// that owns it; handlers are asynchronous (timers, QProcess, a person's answer).
class StepEngine : public QObject
{
    Q_OBJECT
public:
    /// `journal` may be nullptr (nothing persisted; tests). `boundTools` empty = every
    /// active tool.
    StepEngine(const Project &project, const QString &runId, Journal *journal,
               const QStringList &boundTools, QObject *parent = nullptr);
    ~StepEngine() override;

    /// A call from the script. Errors (unknown_tool, inactive_tool, invalid_arguments
    /// with the JSON pointer, request_too_large, max_calls_exceeded) are recorded as a
    /// failed step and replied at once; the handler never runs for them.
    void submitCall(const BridgeCall &call);

    /// Answers the current attempt of a pending call. Refused (returns false, `reason`
    /// filled, nothing changed) when the call is unknown, finished, not waiting for a
    /// person, or `attempt` is not its current attempt.
    bool answer(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason = nullptr);

    /// Stop: every unfinished step becomes `cancelled` (handlers killed), replies are
    /// not sent afterwards.
    void cancelAll(const QString &reason);

    const std::vector<Step> &steps() const;
    const Step *step(const QString &callId) const;
    /// Steps whose current attempt waits for a person.
    int pendingCount() const;
    int callCount() const;

Q_SIGNALS:
    void stepAdded(const Step &step);
    void stepChanged(const Step &step);
    /// A step's current attempt now waits for a person.
    void pendingCallOpened(const Step &step);
    /// A pending call got its answer (or was cancelled).
    void pendingCallClosed(const QString &callId);
    /// The reply for call `id`: `line` is the encoded bridge message with its '\n'.
    void replyReady(const std::string &id, const std::string &line);
    /// The journal refused a write (disk full, file removed…); the run goes on, but the
    /// write-ahead promise no longer holds — the run controller should fail the run.
    void journalFailed(const QString &message);

private:
    std::unique_ptr<StepEngineState> d;
};
