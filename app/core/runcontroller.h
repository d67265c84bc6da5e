// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project.h"
#include "step.h"

#include <QObject>
#include <QString>

#include <memory>

class Journal;
class StepEngine;
class RunControllerState;

/// One run of an agent script: prepares the run folder (work dir with the project's
/// `files/`, the language shim), starts the interpreter in the sandbox, connects the
/// bridge to a StepEngine, journals the run, enforces the run timeout (paused while a
/// call waits for a person) and the output caps, and reports everything as signals.
/// The UI and the headless commands only observe these signals and call
/// start/stop/answer.
class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;

    /// Journal to record into; default: the project's `.toolstudio/journal.sqlite`.
    /// An empty path disables journaling (benchmarks).
    void setJournalPath(const QString &path);

    /// Starts `scriptPath` (absolute, or relative to the project folder; empty = the
    /// project's default script). Returns false with `error` set when the script is
    /// missing, its language is unknown, the interpreter is missing, the journal cannot
    /// be opened or the sandbox cannot start; nothing is left running then.
    bool start(const Project &project, const QString &scriptPath, QString *error = nullptr);

    /// Stop (Shift+F5): cancels in-flight steps, kills the script's process group.
    void stop();

    /// Answers a pending call; see StepEngine::answer.
    bool answer(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason = nullptr);

    bool isActive() const;
    RunStatus status() const;
    const RunRecord &record() const;
    StepEngine *engine() const;
    Journal *journal() const;

    /// The interpreter for a script by its extension (.py → python3, .sh → bash,
    /// .js → node): an absolute path, or empty when none is installed.
    static QString interpreterFor(const QString &scriptPath);

Q_SIGNALS:
    void started(const QString &runId);
    void statusChanged(RunStatus status);
    void stepAdded(const Step &step);
    void stepChanged(const Step &step);
    void pendingCallOpened(const Step &step);
    void pendingCallClosed(const QString &callId);
    /// Script output: stream 1 = stdout, 2 = stderr. A truncation notice arrives as
    /// a chunk of its own on the same stream.
    void outputReceived(int stream, const QByteArray &chunk);
    /// The run reached a final status (`record().status`), with `record().error`
    /// explaining a failure.
    void finished(const RunRecord &run);

private:
    std::unique_ptr<RunControllerState> d;
};
