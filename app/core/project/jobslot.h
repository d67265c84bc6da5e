// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

/// One slot for background jobs of one kind (in the spirit of hotspot's scheduleJob):
/// schedule() runs `work` on a pool thread and hands its result to `done` on the GUI
/// thread, queued. Only the newest job of the slot counts: the result of an older job
/// (a later schedule() or cancel() came first) is dropped, and so is a result whose
/// receiver was deleted meanwhile. `done` never runs from inside schedule().
///
/// The work runs on QThreadPool::globalInstance(), or the pool given (work that must not
/// hold up the global pool's jobs, such as a server's requests checked for a person). The
/// hand-back is posted to the application object, so schedule() is for the GUI thread
/// (the thread of QCoreApplication). The slot may be destroyed while a job runs: nothing
/// waits for it; the job finishes on its pool thread and its result is dropped.
class JobSlot
{
public:
    /// `pool` outlives the slot's jobs; nullptr: QThreadPool::globalInstance().
    explicit JobSlot(QThreadPool *pool = nullptr);
    ~JobSlot();
    JobSlot(const JobSlot &) = delete;
    JobSlot &operator=(const JobSlot &) = delete;

    /// Starts `work` (a callable returning a copyable or movable Result) and returns the
    /// job's id. `done(Result)` runs later on the GUI thread when this job is still the
    /// slot's newest and `receiver` still exists.
    template<typename Work, typename Done>
    quint64 schedule(QObject *receiver, Work work, Done done)
    {
        using Result = std::invoke_result_t<Work>;
        const quint64 id = m_latest->fetch_add(1) + 1;
        const std::shared_ptr<const std::atomic<quint64>> state = m_latest;
        QPointer<QObject> guard(receiver);
        auto job = std::make_shared<Work>(std::move(work));
        auto hand = std::make_shared<Done>(std::move(done));
        (m_pool ? m_pool : QThreadPool::globalInstance())->start([state, id, guard, job, hand] {
            if (state->load() != id)
                return; // cancelled before it started: do not even run it
            auto result = std::make_shared<Result>((*job)());
            QCoreApplication *app = QCoreApplication::instance();
            if (!app || state->load() != id)
                return; // the application has ended, or the job was cancelled while it ran
            QMetaObject::invokeMethod(
                app,
                [state, id, guard, hand, result] {
                    if (guard && state->load() == id)
                        (*hand)(std::move(*result));
                },
                Qt::QueuedConnection);
        });
        return id;
    }

    /// The id of the newest job (0 before the first); a result is delivered only for it.
    quint64 currentId() const;
    /// Drops the result of every job scheduled so far (a job not yet started does not run).
    void cancel();

private:
    /// The newest job's id, shared with the jobs in flight (they outlive the slot).
    std::shared_ptr<std::atomic<quint64>> m_latest;
    QThreadPool *m_pool = nullptr;
};
