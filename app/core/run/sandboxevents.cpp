// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/sandboxevents.h"

#include "policylistener.h"

#include <QDateTime>

#include <cstring>

namespace SandboxEvents {

PolicyEvent refused(const QString &runId, const SandboxPolicyEvent &refusal)
{
    PolicyEvent event;
    event.runId = runId;
    event.at = refusal.time.toMSecsSinceEpoch();
    event.kind = refusal.total > 0 ? PolicyEventKind::SandboxRefusedSummary : PolicyEventKind::SandboxRefused;
    event.detail = {{"syscall", refusal.syscall.toStdString()},
                    {"arguments", refusal.arguments.toStdString()},
                    {"pid", refusal.pid},
                    {"errno", refusal.error},
                    {"errno_name", strerrorname_np(refusal.error) ? strerrorname_np(refusal.error) : ""},
                    {"text", refusal.describe().toStdString()}};
    if (refusal.total > 0) { // the listener's count (PolicyListener::RecordedPerSyscall)
        event.detail["count"] = refusal.total;
        event.detail["recorded"] = PolicyListener::RecordedPerSyscall;
    }
    return event;
}

PolicyEvent applied(const QString &runId, int abi, const SandboxProcess::ProcessLimit &processes)
{
    PolicyEvent event;
    event.runId = runId;
    event.at = QDateTime::currentMSecsSinceEpoch();
    event.kind = PolicyEventKind::SandboxApplied;
    event.detail = {{"landlock_abi", abi},
                    {"seccomp_only", abi == 0},
                    {"process_limit", processes.mechanism.toStdString()},
                    {"max_tasks", processes.maxTasks},
                    {"pids_cgroup", processes.cgroup.toStdString()},
                    {"process_limit_note",
                     (processes.fallbackReason
                      + (processes.sharedReason.isEmpty() ? QString() : QStringLiteral("; ") + processes.sharedReason))
                         .toStdString()}};
    return event;
}

} // namespace SandboxEvents
