// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

/// The bytes a run may keep in its work dir, all its files together (issue 16, class 4;
/// docs/sandbox.md "Disk: bounded per run"). A thread of its own sums the work dir
/// through directory fds (DirTree: no symlink followed, no path length limit) every
/// IntervalMs — twice the last walk's time when that is longer, so that walking takes at
/// most about a third of a core — and calls `exceeded` once, with the message for the run's error,
/// when the sum passes the limit or the file system holding it runs low. The caller
/// kills the run; what it wrote between two walks is the overshoot.
class WorkDirBudget
{
public:
    /// Every entry (file, directory, symlink, fifo) counts at least this much: its
    /// inode and name, so that a loop of empty files is bounded too.
    static constexpr qint64 EntryBytes = 1024;
    static constexpr int IntervalMs = 100;
    /// The run ends when the file system has less than this free and the work dir grew.
    static constexpr qint64 ReserveBytes = 64ll * 1024 * 1024;

    using Exceeded = std::function<void(const QString &message)>;

    WorkDirBudget() = default;
    ~WorkDirBudget();
    WorkDirBudget(const WorkDirBudget &) = delete;
    WorkDirBudget &operator=(const WorkDirBudget &) = delete;

    /// Starts watching the directory `workFd` (duplicated; the caller keeps its own).
    /// `exceeded` is called on the watching thread, at most once.
    void start(int workFd, qint64 limitBytes, Exceeded exceeded);
    /// Ends the watch without waiting for a walk under way (it stops at its next entry);
    /// the thread is joined by the next start() or the destructor.
    void stop();
    /// Waits for the watching thread to end (after stop()).
    void wait();
    /// True once `exceeded` was called for the current watch.
    bool exceeded() const { return m_exceeded; }
    /// The message given to `exceeded`; valid once exceeded() is true.
    QString message() const { return m_exceeded ? m_message : QString(); }

    /// The bytes below `dirFd` as counted here: allocated blocks (st_blocks × 512), at
    /// least EntryBytes per entry. `stop` (optional) ends the walk early.
    static qint64 usage(int dirFd, const std::atomic<bool> *stop = nullptr);

private:
    void watch(int workFd, qint64 limitBytes, const Exceeded &exceeded);

    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_exceeded{false}; ///< set after m_message (release), read before it (acquire)
    QString m_message;
};
