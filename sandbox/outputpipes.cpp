// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "outputpipes.h"

#include <QSocketNotifier>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace {

constexpr qsizetype ReadBlockBytes = 64 * 1024; // one pipe's default capacity

} // namespace

OutputPipes::OutputPipes(int stdoutFd, int stderrFd, QObject *parent)
    : QObject(parent)
{
    const int fds[2] = {stdoutFd, stderrFd};
    for (int index = 0; index < 2; ++index) {
        const int fd = fds[index];
        if (fd < 0)
            continue;
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
        m_fd[index] = fd;
        m_notifier[index] = new QSocketNotifier(qintptr(fd), QSocketNotifier::Read, this);
        connect(m_notifier[index], &QSocketNotifier::activated, this,
                [this, index] { readPipe(index, ReadBudgetBytes); });
    }
}

OutputPipes::~OutputPipes()
{
    closePipe(0);
    closePipe(1);
    if (m_devNull >= 0)
        ::close(m_devNull);
}

void OutputPipes::discard(int stream)
{
    const int index = stream - 1;
    if (index < 0 || index > 1 || m_discarding[index])
        return;
    m_discarding[index] = true;
    if (m_devNull < 0)
        m_devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    // A larger pipe: fewer wake-ups per MiB dropped (the system's pipe-max-size at most;
    // a failure leaves the pipe as it was).
    if (m_fd[index] >= 0)
        ::fcntl(m_fd[index], F_SETPIPE_SZ, int(ReadBudgetBytes));
}

qint64 OutputPipes::discardedBytes(int stream) const
{
    return stream == Stdout || stream == Stderr ? m_discarded[stream - 1] : 0;
}

void OutputPipes::discardPipe(int index, qsizetype budget)
{
    qsizetype dropped = 0;
    while (m_fd[index] >= 0 && dropped < budget) {
        ssize_t n = -1;
        if (m_devNull >= 0)
            n = ::splice(m_fd[index], nullptr, m_devNull, nullptr, std::size_t(budget - dropped), SPLICE_F_NONBLOCK);
        if (n == -1 && errno == EINVAL) { // no splice to this /dev/null: read and drop
            ::close(m_devNull);
            m_devNull = -1;
        }
        if (m_devNull < 0) {
            static char scratch[ReadBlockBytes];
            n = ::read(m_fd[index], scratch, std::size_t(std::min(ReadBlockBytes, budget - dropped)));
        }
        if (n > 0) {
            dropped += qsizetype(n);
            continue;
        }
        if (n == -1 && errno == EINTR)
            continue;
        if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        closePipe(index); // the end, or the pipe failed
    }
    m_discarded[index] += dropped;
    // Watched again a little later: the writer fills the pipe meanwhile, or waits.
    if (QSocketNotifier *notifier = m_notifier[index]; notifier && notifier->isEnabled()) {
        notifier->setEnabled(false);
        QTimer::singleShot(DiscardPauseMs, notifier, [notifier] { notifier->setEnabled(true); });
    }
}

void OutputPipes::drain()
{
    // One poll for both pipes (this runs before every call the script makes); only a
    // pipe that holds something is asked how much.
    pollfd entries[2] = {{m_fd[0], POLLIN, 0}, {m_fd[1], POLLIN, 0}};
    int ready = ::poll(entries, 2, 0);
    while (ready == -1 && errno == EINTR)
        ready = ::poll(entries, 2, 0);
    if (ready <= 0)
        return;
    for (int index = 0; index < 2; ++index) {
        if (m_fd[index] < 0 || !(entries[index].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        int available = 0;
        if (::ioctl(m_fd[index], FIONREAD, &available) == 0)
            readPipe(index, std::max(available, 1)); // 0 bytes and readable: the end
    }
}

std::pair<int, int> OutputPipes::releaseFds()
{
    const std::pair<int, int> fds = {m_fd[0], m_fd[1]};
    for (int index = 0; index < 2; ++index) {
        delete m_notifier[index];
        m_notifier[index] = nullptr;
        m_fd[index] = -1;
    }
    return fds;
}

bool OutputPipes::atEnd() const
{
    return m_fd[0] < 0 && m_fd[1] < 0;
}

void OutputPipes::readPipe(int index, qsizetype budget)
{
    if (m_discarding[index]) {
        discardPipe(index, budget);
        return;
    }
    QByteArray chunk;
    while (m_fd[index] >= 0 && chunk.size() < budget) {
        const qsizetype offset = chunk.size();
        const qsizetype want = std::min(ReadBlockBytes, budget - offset);
        chunk.resize(offset + want);
        const ssize_t n = ::read(m_fd[index], chunk.data() + offset, std::size_t(want));
        if (n > 0) {
            chunk.resize(offset + qsizetype(n));
            continue;
        }
        chunk.resize(offset);
        if (n == -1 && errno == EINTR)
            continue;
        if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        closePipe(index); // the end (every writer closed it), or the pipe failed
    }
    if (!chunk.isEmpty())
        Q_EMIT output(index + 1, chunk);
}

void OutputPipes::closePipe(int index)
{
    delete m_notifier[index];
    m_notifier[index] = nullptr;
    if (m_fd[index] >= 0)
        ::close(m_fd[index]);
    m_fd[index] = -1;
}
