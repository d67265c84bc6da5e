// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QThreadPool>

#include <memory>
#include <type_traits>
#include <utility>

/// One purpose of work off the GUI thread (loading a project's Python tools, reading
/// the journal for the served runs): schedule() runs `work` on a worker thread and
/// hands its result to `done`, queued, on the thread of `context`. Each schedule()
/// gets the next job id of this slot; a result whose id is no longer the latest (a
/// newer job superseded it, or cancel() was called) is dropped, and so is every result
/// once `context` is destroyed — `done` is then never called. `work` must touch only
/// what it was given: it runs while the GUI thread goes on.
///
/// In the spirit of hotspot's `scheduleJob`: plain values in, a plain value out.
class JobSlot
{
public:
    JobSlot();
    ~JobSlot();
    JobSlot(const JobSlot &) = delete;
    JobSlot &operator=(const JobSlot &) = delete;

    /// Starts `work()` on a worker thread; `done(result)` runs on `context`'s thread
    /// unless the job was superseded or `context` was destroyed. Returns the job's id.
    template<typename Work, typename Done>
    quint64 schedule(QObject *context, Work work, Done done)
    {
        using Result = std::invoke_result_t<Work>;
        const quint64 id = ++m_state->latest;
        m_state->running = true;
        auto *watcher = new QFutureWatcher<Result>(context);
        QObject::connect(watcher, &QFutureWatcherBase::finished, watcher,
                         [watcher, id, state = m_state, done = std::move(done)]() mutable {
                             watcher->deleteLater();
                             if (id != state->latest)
                                 return; // superseded: stale
                             state->running = false;
                             done(watcher->future().result());
                         });
        auto promise = std::make_shared<QPromise<Result>>();
        watcher->setFuture(promise->future());
        promise->start();
        pool()->start([promise, work = std::move(work)]() mutable {
            promise->addResult(work());
            promise->finish();
        });
        return id;
    }

    /// Drops the result of the job in flight, if any.
    void cancel();
    /// True from schedule() until the latest job's result was handed back (or cancel()).
    bool busy() const { return m_state->running; }
    /// The id of the latest job (0 before the first).
    quint64 latestId() const { return m_state->latest; }

    /// The worker threads jobs run on (their own pool: a job may wait seconds on a
    /// child process without holding up Qt's global pool).
    static QThreadPool *pool();

private:
    struct State
    {
        quint64 latest = 0; ///< touched on the context's thread only
        bool running = false;
    };
    std::shared_ptr<State> m_state;
};
