// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "policylistener.h"

#include "seccompfilter.h"

#include <QSocketNotifier>

#include <seccomp.h>

#include <cerrno>
#include <cstring>
#include <linux/seccomp.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

QString SandboxPolicyEvent::describe() const
{
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
    if (m_request)
        seccomp_notify_free(m_request, m_response);
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
    while (m_fd >= 0 && m_request) {
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
        int error = SeccompFilter::refusalErrno(nr, args);
        if (error == 0)
            error = EPERM; // only refused calls are routed here; never let one through
        std::memset(m_response, 0, sizeof(seccomp_notif_resp));
        m_response->id = m_request->id;
        m_response->error = -error;
        m_response->val = 0;
        m_response->flags = 0;
        seccomp_notify_respond(m_fd, m_response); // ENOENT: the caller died meanwhile

        SandboxPolicyEvent event;
        event.syscall = QString::fromStdString(SeccompFilter::syscallName(nr));
        event.arguments = QString::fromStdString(SeccompFilter::describeArguments(nr, args));
        event.pid = m_request->pid;
        event.time = QDateTime::currentDateTimeUtc();
        event.error = error;
        Q_EMIT policyEvent(event);
    }
}
