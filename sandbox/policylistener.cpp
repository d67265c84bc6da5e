// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "policylistener.h"

#include "metadatabroker.h"
#include "seccompfilter.h"
#include "signalbroker.h"

#include <QSocketNotifier>

#include <seccomp.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

QString SandboxPolicyEvent::describe() const
{
    if (total > 0)
        return QStringLiteral("%1 refused %2 times in all (the first %3 recorded one by one)")
            .arg(syscall)
            .arg(total)
            .arg(PolicyListener::RecordedPerSyscall);
    const char *name = error > 0 ? strerrorname_np(error) : nullptr;
    return QStringLiteral("%1(%2) refused: %3 (pid %4)")
        .arg(syscall, arguments, name ? QString::fromLatin1(name) : QString::number(error))
        .arg(pid);
}

PolicyListener::PolicyListener(int listenerFd, QObject *parent)
    : QObject(parent)
    , m_fd(listenerFd)
{
    seccomp_notif_sizes sizes = {};
    if (::syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0)
        m_requestSize = sizes.seccomp_notif;
    if (seccomp_notify_alloc(&m_request, &m_response) != 0) {
        m_request = nullptr;
        m_response = nullptr;
    }
    if (m_requestSize < sizeof(seccomp_notif))
        m_requestSize = sizeof(seccomp_notif);
    m_notifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &PolicyListener::drain);
}

PolicyListener::~PolicyListener()
{
    close();
    if (m_workDirFd >= 0)
        ::close(m_workDirFd);
    if (m_request)
        seccomp_notify_free(m_request, m_response);
}

void PolicyListener::setWorkDir(const QString &workDir)
{
    if (m_workDirFd >= 0)
        ::close(m_workDirFd);
    // Held as an fd: a pre-warmed run's folder is renamed, the directory stays.
    m_workDirFd = ::open(workDir.toLocal8Bit().constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
}

void PolicyListener::close()
{
    if (m_notifier)
        m_notifier->setEnabled(false);
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

void PolicyListener::drain()
{
    for (int answered = 0; m_fd >= 0 && m_request && answered < NotificationsPerTurn; ++answered) {
        // SECCOMP_IOCTL_NOTIF_RECV blocks when nothing is pending: only call it when
        // poll says a notification is there. POLLHUP alone: every sandboxed task is gone.
        pollfd ready = {m_fd, POLLIN, 0};
        if (::poll(&ready, 1, 0) <= 0 || !(ready.revents & POLLIN)) {
            if (ready.revents & (POLLHUP | POLLERR | POLLNVAL))
                close();
            return;
        }
        std::memset(m_request, 0, m_requestSize);
        if (seccomp_notify_receive(m_fd, m_request) != 0) {
            if (errno == EINTR || errno == ENOENT)
                continue; // the caller died or was interrupted meanwhile
            close();
            return;
        }
        const int nr = m_request->data.nr;
        std::uint64_t args[6];
        for (int i = 0; i < 6; ++i)
            args[i] = m_request->data.args[i];
        const std::string name = SeccompFilter::syscallName(nr);
        std::string arguments;
        int error = 0;
        if (MetadataBroker::handles(name)) {
            // Mode and time changes: done by the studio beneath the work dir, refused
            // (a policy event) outside it. Never let through.
            const MetadataBroker::Outcome outcome
                = MetadataBroker::handle(name, args, pid_t(m_request->pid), m_fd, m_request->id, m_workDirFd);
            if (!outcome.refused) {
                answer(m_request->id, outcome.error);
                continue;
            }
            error = outcome.error;
            arguments = outcome.what.size() > 200 ? outcome.what.substr(0, 200) + "…" : outcome.what;
        } else if (SignalBroker::handles(name)) {
            // Below Landlock ABI 6: signals let through only inside the run's session.
            const SignalBroker::Outcome outcome
                = SignalBroker::check(name, args, pid_t(m_request->pid), m_fd, m_request->id);
            if (outcome.allowed || !outcome.refused) {
                answer(m_request->id, outcome.error, outcome.allowed);
                continue;
            }
            error = outcome.error;
            arguments = SeccompFilter::describeArguments(nr, args);
        } else {
            error = SeccompFilter::refusalErrno(nr, args);
            arguments = SeccompFilter::describeArguments(nr, args);
        }
        if (error == 0)
            error = EPERM; // only refused calls are routed here; never let one through
        answer(m_request->id, error);

        SandboxPolicyEvent event;
        event.syscall = QString::fromStdString(name);
        event.arguments = QString::fromStdString(arguments);
        event.pid = m_request->pid;
        event.time = QDateTime::currentDateTimeUtc();
        event.error = error;
        Tally &tally = m_tallies[event.syscall];
        if (++tally.total <= RecordedPerSyscall)
            Q_EMIT policyEvent(event);
        else
            tally.last = std::move(event);
    }
}

void PolicyListener::flushSummaries()
{
    for (auto &[syscall, tally] : m_tallies) {
        if (tally.total <= RecordedPerSyscall || tally.total == tally.reported)
            continue;
        tally.reported = tally.total;
        SandboxPolicyEvent summary = tally.last;
        summary.total = tally.total;
        summary.time = QDateTime::currentDateTimeUtc();
        Q_EMIT policyEvent(summary);
    }
}

void PolicyListener::answer(std::uint64_t id, int error, bool letThrough)
{
    std::memset(m_response, 0, sizeof(seccomp_notif_resp));
    m_response->id = id;
    m_response->error = letThrough ? 0 : -error;
    m_response->val = 0;
    m_response->flags = letThrough ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
    seccomp_notify_respond(m_fd, m_response); // ENOENT: the caller died meanwhile
}
