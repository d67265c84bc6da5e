// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/warmlauncher.h"

#include "sandboxprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <algorithm>
#include <utility>

namespace {

/// How long take() waits for a launcher that is still applying its steps: never longer
/// than a cold start, which would do the same work from scratch.
constexpr int ReadyWaitMs = 1000;

} // namespace

SandboxPolicy runSandboxPolicy(const QString &runDir, const QString &interpreter, const QString &runId,
                               const ProjectLimits &limits, bool seccompOnly)
{
    const QString workDir = runDir + QStringLiteral("/work");
    const QString runtimeDir = runDir + QStringLiteral("/runtime");
    SandboxPolicy policy;
    policy.workDir = workDir.toStdString();
    policy.argv = {interpreter.toStdString()};
    policy.env = {
        {"PYTHONPATH", (runtimeDir + QStringLiteral("/python")).toStdString()},
        {"PYTHONUNBUFFERED", "1"},
        {"NODE_PATH", (runtimeDir + QStringLiteral("/node")).toStdString()},              // require("toolstudio")
        {"BASH_ENV", (runtimeDir + QStringLiteral("/bash/toolstudio.sh")).toStdString()}, // defines `tool`
        {"TOOLSTUDIO_RUN_ID", runId.toStdString()},
        // The shims refuse a call over the request cap before sending it (docs/bridge.md).
        {"TOOLSTUDIO_REQUEST_BYTES", std::to_string(limits.requestBytes)},
        {"TOOLSTUDIO_MODEL_REQUEST_BYTES", std::to_string(limits.modelRequestBytes)},
    };
    policy.readPaths = {runtimeDir.toStdString()};
    policy.seccompOnly = seccompOnly;
    // V8 reserves far more address space than it uses, so node is bounded by its heap
    // flag below RLIMIT_DATA (SANDBOX.md "Limits"), leaving room for code and buffers.
    if (QFileInfo(interpreter).fileName().startsWith(QLatin1String("node")))
        policy.argv.push_back("--max-old-space-size="
                              + std::to_string(policy.limits.dataBytes / (1024 * 1024) * 3 / 4));
    policy.limits.cpuSeconds = std::uint64_t(limits.runTimeoutMs / 1000 + 5);
    // No single file past the run's disk bound: the kernel stops it (EFBIG), the studio's
    // walk (WorkDirBudget) bounds the files together.
    policy.limits.fileSizeBytes
        = std::min<std::uint64_t>(policy.limits.fileSizeBytes, std::uint64_t(limits.workDirBytes));
    return policy;
}

WarmLauncher::WarmLauncher(QObject *parent)
    : QObject(parent)
    , m_enabled(enabledByDefault())
{}

WarmLauncher::~WarmLauncher()
{
    discard();
}

bool WarmLauncher::enabledByDefault()
{
    return qEnvironmentVariable("TOOLSTUDIO_PREWARM") != QLatin1String("0");
}

void WarmLauncher::setEnabled(bool enabled)
{
    m_enabled = enabled;
    if (!enabled)
        discard();
}

bool WarmLauncher::isEnabled() const
{
    return m_enabled;
}

void WarmLauncher::remember(const QString &projectDir, const QString &interpreter, const ProjectLimits &limits,
                            bool seccompOnly, std::size_t maxLineBytes)
{
    m_remembered = Remembered{projectDir, interpreter, limits, seccompOnly, maxLineBytes};
}

std::string WarmLauncher::shapeOf(const SandboxPolicy &policy)
{
    // Everything but the names that depend on the run folder and the run id, which
    // the handover supplies (SandboxGo); the script is not in the policy's argv.
    SandboxPolicy shape = policy;
    shape.workDir.clear();
    shape.readPaths.clear();
    shape.env.clear();
    for (const auto &[name, value] : policy.env)
        shape.env.emplace_back(name, std::string());
    return shape.toJson().dump();
}

void WarmLauncher::prepare(const QString &runsDir)
{
    discard();
    if (!m_enabled || !m_remembered || runsDir.isEmpty())
        return;
    const QString name
        = QStringLiteral("warm-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    const QString runDir = runsDir + QLatin1Char('/') + name;
    const QString runtimeDir = runDir + QStringLiteral("/runtime");
    QString error;
    if (!m_folder.create(runDir, &error) || !QDir().mkpath(runDir + QStringLiteral("/work"))
        || !QDir().mkpath(runtimeDir)) {
        m_folder.remove();
        return;
    }
    // The same permissions as a cold run's (RunController): the work dir private, the
    // runtime dir readable by the sandbox user — the folder (0700, or 0710 for the
    // sandbox user's group as root: LaunchWorkDir) keeps others out.
    QFile::setPermissions(runDir + QStringLiteral("/work"),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QFile::setPermissions(runtimeDir,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                              | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                              | QFileDevice::ExeOther);

    SandboxPolicy policy = runSandboxPolicy(runDir, m_remembered->interpreter, QString(), m_remembered->limits,
                                            m_remembered->seccompOnly);
    policy.waitForGo = true;
    auto *process = new SandboxProcess(this);
    if (!process->start(policy, m_remembered->maxLineBytes, &error)) {
        delete process;
        m_folder.remove();
        return;
    }
    m_process = process;
    m_projectDir = m_remembered->projectDir;
    m_shape = shapeOf(policy);
    m_maxLineBytes = m_remembered->maxLineBytes;
    // A launcher that ends while waiting (failed step, killed) is of no use: drop it.
    connect(process, &SandboxProcess::finished, this, [this, process] {
        if (m_process == process)
            QMetaObject::invokeMethod(
                this,
                [this, process] {
                    if (m_process == process)
                        discard();
                },
                Qt::QueuedConnection);
    });
}

SandboxProcess *WarmLauncher::take(const QString &projectDir, const SandboxPolicy &policy, std::size_t maxLineBytes,
                                   const QString &runDir, RunFolder *folder)
{
    if (!m_process)
        return nullptr;
    SandboxPolicy waiting = policy;
    waiting.waitForGo = true;
    const bool matches
        = m_enabled && projectDir == m_projectDir && maxLineBytes == m_maxLineBytes && shapeOf(waiting) == m_shape;
    if (!matches || !m_process->waitForReady(ReadyWaitMs) || !m_folder.rename(runDir)) {
        discard();
        return nullptr;
    }
    *folder = std::move(m_folder);
    SandboxProcess *process = std::exchange(m_process, nullptr);
    process->disconnect(this);
    process->setParent(nullptr);
    m_projectDir.clear();
    m_shape.clear();
    return process;
}

void WarmLauncher::discard()
{
    if (m_process) {
        SandboxProcess *process = std::exchange(m_process, nullptr);
        process->disconnect(this);
        // Kills the group and every member of its cgroup, reaps the launcher and
        // removes the cgroup.
        delete process;
    }
    m_folder.remove();
    m_projectDir.clear();
    m_shape.clear();
}

bool WarmLauncher::isReady() const
{
    return m_process && m_process->isReady();
}

QString WarmLauncher::runDir() const
{
    return m_folder.path();
}

qint64 WarmLauncher::pid() const
{
    return m_process ? m_process->pid() : 0;
}

QString WarmLauncher::cgroup() const
{
    return m_process ? m_process->processLimit().cgroup : QString();
}
