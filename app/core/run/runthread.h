// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run/runsession.h"

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <functional>
#include <memory>

class Journal;
class StepEngine;

/// The run thread (issue 4 item 8) and what lives on it: the run's journal and its
/// RunSession. The GUI (or main) thread reaches them only through this object: posted
/// work (post, journalWrite, postDecision) never waits; run() and decideAndWait() wait
/// for the run thread, which never waits for the GUI thread, so they cannot deadlock,
/// but they hold the caller while the run thread is busy (a slow validation or
/// handler): a window uses them only while no run streams (start, tear-down).
class RunThread
{
public:
    /// An answer or step decision: the engine's call, true when it took it (else
    /// `reason` says why).
    using Decision = std::function<bool(StepEngine *engine, QString *reason)>;
    using Outcome = std::function<void(bool accepted, const QString &reason)>;

    /// `home`: the object on the caller's thread that outcomes are handed back to.
    explicit RunThread(QObject *home);
    /// Deletes the session and journal there, then ends the thread.
    ~RunThread();
    RunThread(const RunThread &) = delete;
    RunThread &operator=(const RunThread &) = delete;

    /// Runs `f` on the run thread and waits for it.
    template<typename F>
    void run(F &&f)
    {
        QMetaObject::invokeMethod(m_context, std::forward<F>(f), Qt::BlockingQueuedConnection);
    }
    /// Queues `f` on the run thread (in order with everything else queued there).
    template<typename F>
    void post(F &&f)
    {
        QMetaObject::invokeMethod(m_context, std::forward<F>(f), Qt::QueuedConnection);
    }
    /// A journal write from the caller's thread, queued on the run thread; dropped
    /// when the run is not journaled.
    template<typename F>
    void journalWrite(F &&f)
    {
        if (Journal *j = m_journal.get())
            post([j, f = std::forward<F>(f)] { f(j); });
    }

    /// Deletes the last run's session and journal (waits).
    void tearDown();
    /// Opens the run's journal there (SQLite connection of that thread; group commits
    /// every 10 ms). False with `error` (the journal's reason).
    bool openJournal(const QString &path, QString *error);
    /// Makes the run's session there; `connect` is called there with it before any of
    /// its events can be handled (waits).
    void startSession(RunSession::Setup setup, const std::function<void(RunSession *)> &connect);

    Journal *journal() const { return m_journal.get(); }
    /// Read on the run thread, or on the caller's thread to tell whether a run exists.
    RunSession *session() const { return m_session; }

    /// Runs `decide` on the run thread without waiting (issue 18): the outcome comes
    /// back queued to `home` and goes to `done` unless `context` is gone by then.
    /// `available` false: refused at once (queued too) with "no run is active".
    void postDecision(bool available, Decision decide, QObject *context, Outcome done);
    /// The same, waiting for the run thread: headless callers only (asserted).
    bool decideAndWait(bool available, const Decision &decide, QString *reason);

private:
    static QString noRunText();
    void handBack(QPointer<QObject> context, Outcome done, bool accepted, const QString &reason) const;

    QObject *m_home = nullptr;
    QThread m_thread;
    QObject *m_context = nullptr;       ///< lives on the run thread; parent of the session
    std::unique_ptr<Journal> m_journal; ///< opened, used and closed on the run thread
    RunSession *m_session = nullptr;    ///< run thread
};
