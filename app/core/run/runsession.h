// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/stepengine.h"
#include "project/step.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>
#include <utility>

class BridgeChannel;
class Journal;
class OutputPipes;
class StepBatcher;
class StepEngine;
struct Project;

/// The part of a run that lives on the run thread (issue 4 item 8): the tools bridge
/// channel, the script's stdout/stderr pipes, the StepEngine with its handlers and the
/// StepBatcher. Made, used and deleted on that thread; a busy GUI thread never delays
/// a reply. Everything it reports is a signal emitted on the run thread, to be
/// connected (queued) to the GUI thread, where it arrives in the order it was sent:
/// a step's batch before the news that it waits, held or diverged; output in one order
/// with the steps (docs/trace.md "Console order").
class RunSession : public QObject
{
    Q_OBJECT
public:
    struct Setup
    {
        const Project *project = nullptr;
        QString runId;
        Journal *journal = nullptr; ///< run thread; nullptr = not journaled
        QStringList boundTools;
        std::optional<ReplayPlan> plan;
        bool stepMode = false;
        bool approvesToolCalls = false;
        QString workDir;
        int bridgeFd = -1;                     ///< taken over
        std::pair<int, int> outputFds{-1, -1}; ///< stdout, stderr; taken over
        std::size_t maxLineBytes = 0;          ///< the bridge's line bound
        std::size_t outputCapBytes = 0;        ///< limits.output_bytes, per stream
        /// Per-step signals and wait hints cost a queued event each: only sent when
        /// somebody listens (headless, tests).
        bool forwardSteps = false;
        bool forwardChanges = false;
        bool forwardWait = false;
    };

    /// On the run thread, with `parent` living there.
    RunSession(Setup setup, QObject *parent);
    /// Deletes the bridge, the pipes and the engine (its batcher with it; pending
    /// journal writes go out first), in this order.
    ~RunSession() override;

    StepEngine *engine() const { return m_engine; }

    /// The script's group is gone: reads what is left in the pipes (in order behind
    /// the steps) and says what was discarded past the caps, closes the bridge, cancels
    /// the calls still open with `ended`, adds `filesNotice` to stderr and sends the
    /// last batch.
    void end(const QString &ended, const QByteArray &filesNotice);

Q_SIGNALS:
    void stepsUpdated(const QList<Step> &steps);
    void outputReceived(int stream, const QByteArray &chunk);
    void stepAdded(const Step &step);
    void stepChanged(const Step &step);
    void pendingCallOpened(const Step &step);
    void pendingCallClosed(const QString &callId);
    void stepPaused(const Step &step);
    void stepEvent(const PolicyEvent &event);
    void divergenceFound(const Step &step);
    void scriptWaiting(int callsMade);
    /// No call waits for a person any more (after a close or a release).
    void nobodyWaits();
    /// The bridge saw a protocol error: the calls are cancelled; the run must end.
    void protocolError(const QString &message);

private:
    void connectEngine();
    void connectBridge();
    /// Script output (docs/trace.md "Console order"): capped per stream (then a
    /// truncation notice, and nothing more), journaled, and queued in the batcher
    /// behind the steps that changed before it was read.
    void onOutput(int stream, const QByteArray &chunk);
    /// Checked on the next turn of the event loop, because the engine signals a close
    /// while the step's status still says `waiting`.
    void checkNobodyWaits();

    QString m_runId;
    Journal *m_journal = nullptr;
    std::size_t m_maxLineBytes = 0;
    std::size_t m_outputCap = 0;
    bool m_forwardWait = false;
    StepEngine *m_engine = nullptr;
    StepBatcher *m_batcher = nullptr; ///< child of the engine
    OutputPipes *m_output = nullptr;  ///< deleted at the run's end, before the bridge closes
    BridgeChannel *m_bridge = nullptr;
    bool m_waitQueued = false; ///< a wait hint is queued and no call came since
    int m_callsReceived = 0;   ///< calls the bridge read in this run (sent with a wait hint)
    std::size_t m_outputBytes[3] = {0, 0, 0};
    bool m_outputTruncated[3] = {false, false, false};
    qint64 m_outputDropped[3] = {0, 0, 0}; ///< bytes past the cap read before the pipe discarded them
};
