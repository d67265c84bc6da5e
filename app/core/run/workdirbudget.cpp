// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/workdirbudget.h"

#include "run/dirtree.h"

#include <QObject>

#include <chrono>

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace {

QString mib(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1);
}

qint64 freeBytes(int fd)
{
    struct statvfs info = {};
    if (::fstatvfs(fd, &info) != 0)
        return -1;
    return qint64(info.f_bavail) * qint64(info.f_frsize);
}

} // namespace

WorkDirBudget::~WorkDirBudget()
{
    stop();
    wait();
}

qint64 WorkDirBudget::usage(int dirFd, const std::atomic<bool> *stop)
{
    qint64 total = 0;
    DirTree::walk(
        dirFd,
        [&](const DirTree::Entry &entry) {
            total += std::max<qint64>(qint64(entry.info->st_blocks) * 512, EntryBytes);
            return !(stop && stop->load());
        },
        {}, /*makeReadable=*/true); // a directory the script closed (chmod 000) hides nothing

    return total;
}

void WorkDirBudget::start(int workFd, qint64 limitBytes, Exceeded exceeded)
{
    stop();
    wait();
    const int fd = ::fcntl(workFd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return;
    m_stop = false;
    m_exceeded = false;
    m_message.clear();
    m_thread = std::thread([this, fd, limitBytes, exceeded = std::move(exceeded)] {
        watch(fd, limitBytes, exceeded);
        ::close(fd);
    });
}

void WorkDirBudget::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
}

void WorkDirBudget::wait()
{
    if (m_thread.joinable())
        m_thread.join();
}

void WorkDirBudget::watch(int workFd, qint64 limitBytes, const Exceeded &exceeded)
{
    using Clock = std::chrono::steady_clock;
    qint64 first = -1;
    while (!m_stop) {
        const auto began = Clock::now();
        const qint64 used = usage(workFd, &m_stop);
        if (m_stop)
            return;
        if (first < 0)
            first = used;
        const qint64 free = freeBytes(workFd);
        QString message;
        if (used > limitBytes)
            message = QObject::tr("disk limit: the run wrote more than %1 MiB to its work dir (limits.work_dir_mb; "
                                  "%2 MiB counted); its process group was killed and its files were removed")
                          .arg(limitBytes >> 20)
                          .arg(mib(used));
        else if (free >= 0 && free < ReserveBytes && used > first)
            message = QObject::tr("disk limit: the file system holding the run's work dir has less than %1 MiB free "
                                  "(%2 MiB counted in the work dir); its process group was killed and its files "
                                  "were removed")
                          .arg(ReserveBytes >> 20)
                          .arg(mib(used));
        if (!message.isEmpty()) {
            m_message = message;
            m_exceeded = true;
            exceeded(message);
            return;
        }
        // At most about a third of a core: a walk of 50 ms waits 100 ms for the next.
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - began);
        const auto wait = std::max(std::chrono::milliseconds(IntervalMs), took * 2);
        std::unique_lock lock(m_mutex);
        m_wake.wait_for(lock, wait, [this] { return m_stop.load(); });
    }
}
