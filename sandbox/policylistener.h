// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <map>

class QSocketNotifier;
struct seccomp_notif;
struct seccomp_notif_resp;

/// One call of the script the sandbox refused and reported (SANDBOX.md "seccomp",
/// issue 3 "Policy events"): network, ptrace family, mount/namespace calls, signals to
/// the studio or to pid -1.
struct SandboxPolicyEvent
{
    QString syscall;   ///< "socket", "connect", "ptrace", "kill", …
    QString arguments; ///< summary of the arguments that matter ("AF_INET, SOCK_STREAM"), may be empty
    qint64 pid = 0;    ///< the calling thread's id (in the studio's pid namespace)
    QDateTime time;    ///< when the studio received it (UTC)
    int error = 0;     ///< the errno the script got (EAFNOSUPPORT, EACCES, EPERM)
    /// 0 for one refusal. A summary (PolicyListener::flushSummaries) has the number of
    /// refusals of `syscall` the listener answered in all, the recorded ones included;
    /// `arguments`, `pid` and `error` are then the last refusal's.
    qint64 total = 0;

    /// "socket(AF_INET, SOCK_STREAM) refused: EAFNOSUPPORT (pid 1234)" — for a trace line;
    /// a summary: "socket refused 227000 times in all (the first 20 recorded one by one)".
    QString describe() const;
};
Q_DECLARE_METATYPE(SandboxPolicyEvent)

/// The studio's side of the sandbox's seccomp user notification: owns the listener fd
/// the launcher sent over the status channel, answers every notification at once with
/// the errno of the policy (SeccompFilter::refusalErrno — never lets a call through, but for signals inside the run below Landlock ABI 6: SignalBroker)
/// and emits policyEvent(). Mode and time changes (chmod, utimensat, …) are performed
/// by the studio itself when the file lies beneath the run's work dir
/// (MetadataBroker), and refused with a policy event otherwise. Lives in the thread that created it (normally the GUI
/// thread); a QSocketNotifier wakes it. The script blocks in the refused call until
/// it is answered; when the listener is closed the kernel fails those calls with ENOSYS.
///
/// Bounded (issue 16): every notification is answered, but only the first
/// RecordedPerSyscall refusals of each system call become a policyEvent; the others are
/// counted, and flushSummaries() reports each count once as a summary event. One turn
/// of the event loop answers at most NotificationsPerTurn notifications, so processes
/// refused in a loop cannot keep the thread from its other work.
class PolicyListener : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 RecordedPerSyscall = 20;
    static constexpr int NotificationsPerTurn = 256;

    /// Takes ownership of `listenerFd` (closed in the destructor).
    explicit PolicyListener(int listenerFd, QObject *parent = nullptr);
    ~PolicyListener() override;

    /// The run's work dir: brokered mode and time changes (MetadataBroker) are made
    /// beneath it and refused elsewhere. Without one, they are all refused.
    void setWorkDir(const QString &workDir);

    /// Answers the notifications pending now, at most NotificationsPerTurn (the notifier
    /// calls it again while more are pending).
    void drain();
    /// Emits one summary policyEvent (SandboxPolicyEvent::total) per system call refused
    /// more than RecordedPerSyscall times since the last flush.
    void flushSummaries();

Q_SIGNALS:
    void policyEvent(const SandboxPolicyEvent &event);

private:
    void close();
    /// `letThrough`: SECCOMP_USER_NOTIF_FLAG_CONTINUE (only the signals SignalBroker checked).
    void answer(std::uint64_t id, int error, bool letThrough = false);

    int m_fd = -1;
    int m_workDirFd = -1;
    QSocketNotifier *m_notifier = nullptr;
    seccomp_notif *m_request = nullptr;
    seccomp_notif_resp *m_response = nullptr;
    std::size_t m_requestSize = 0;
    /// Per system call: refusals answered, and the last one not emitted (for its summary).
    struct Tally
    {
        qint64 total = 0;
        qint64 reported = 0; ///< `total` at the last summary
        SandboxPolicyEvent last;
    };
    std::map<QString, Tally> m_tallies;
};
