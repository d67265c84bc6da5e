// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/commandhandler.h"

#include "engine/handlers/handleroutput.h"
#include "procfs.h"
#include "project/printabletext.h"
#include "python/secrets.h"
#include "python/toolsandbox.h"
#include "sandboxpolicy.h"
#include "sealedcopy.h"
#include "workdirfile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace {

constexpr int TailLines = 3;
constexpr qsizetype TailChars = 500;

/// True when a process that is not a zombie is in process group `pgid` (Procfs;
/// kill(-pgid, 0) would also count zombies nobody has reaped yet).
bool groupHasLiveMembers(qint64 pgid)
{
    if (::kill(-pid_t(pgid), 0) != 0 && errno == ESRCH)
        return false;
    return Procfs::groupHasLiveMembers(pid_t(pgid)).value_or(false);
}

} // namespace

CommandHandler::CommandHandler(QStringList command, QObject *parent, QStringList fileArgs)
    : ToolHandler(parent)
    , m_command(std::move(command))
    , m_fileArgs(std::move(fileArgs))
{}

CommandHandler::~CommandHandler()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_done = true;
        killGroup();
    }
}

void CommandHandler::start(const HandlerRequest &request)
{
    m_maxStdout = std::max<std::size_t>(request.maxResultBytes * 4, 64 * 1024);
    m_tool = request.tool;
    m_process = new QProcess(this);

    // Confined (ToolSandbox, docs/sandbox.md "Trusted code"): a clean environment with
    // the project's secrets — they reach trusted handlers only, never the sandbox.
    m_secrets = Secrets::load(request.projectDir);
    ToolSandbox::Launch launch;
    launch.argv = m_command;
    for (const QString &name : m_secrets.names())
        launch.env.insert(name, m_secrets.value(name));
    launch.env.insert(QStringLiteral("TOOLSTUDIO_TOOL"), request.tool);
    launch.env.insert(QStringLiteral("TOOLSTUDIO_RUN_ID"), request.runId);
    launch.env.insert(QStringLiteral("TOOLSTUDIO_CALL_ID"), request.callId);
    launch.env.insert(QStringLiteral("TOOLSTUDIO_ATTEMPT"), QString::number(request.attempt));
    launch.env.insert(QStringLiteral("TOOLSTUDIO_IDEMPOTENCY_KEY"), request.idempotencyKey);
    launch.cpuSeconds = CpuSecondsPerAttempt;
    // Files the script wrote, named in file_args: opened here, beneath the work dir
    // (WorkDirFile), handed over as sealed copies on fds 3, 4, … .
    nlohmann::json args = request.args;
    std::vector<int> files;
    const auto closeFiles = [&files] {
        for (int fd : files)
            ::close(fd);
    };
    for (const QString &name : std::as_const(m_fileArgs)) {
        const std::string key = name.toStdString();
        if (!args.is_object() || !args.contains(key))
            continue; // an optional argument the call left out
        QString refusal;
        if (!args[key].is_string()) {
            refusal = QStringLiteral("argument '%1' must be a string naming a file in the work dir").arg(name);
        } else if (request.workDir.isEmpty()) {
            refusal
                = QStringLiteral("argument '%1' names a file in the run's work dir, but this call has none").arg(name);
        } else {
            const WorkDirFile::Result file
                = WorkDirFile::open(QFile::encodeName(request.workDir).toStdString(), args[key].get<std::string>());
            if (file.ok()) {
                // The command gets a sealed copy, not the run's file: the run's files
                // are private to the run's uid, which is not the command's under a run
                // uid (SealedCopy), and a snapshot cannot change while it reads.
                std::string why;
                const int copy = SealedCopy::of(file.fd, "file_args:" + key, &why);
                ::close(file.fd);
                if (copy >= 0) {
                    files.push_back(copy);
                    args[key] = "/dev/fd/" + std::to_string(2 + files.size());
                    continue;
                }
                refusal = QStringLiteral("argument '%1': the studio could not copy the file for the command: %2; "
                                         "free some memory or hand the command a smaller file [path_copy_failed]")
                              .arg(name, QString::fromStdString(why));
            } else {
                refusal = QStringLiteral("argument '%1': %2 [%3]")
                              .arg(name, QString::fromStdString(file.message),
                                   QLatin1String(WorkDirFile::code(file.refusal)));
            }
        }
        closeFiles();
        // Never from inside start(): the engine connects finished() after it returns.
        QMetaObject::invokeMethod(
            this, [this, refusal] { finish(HandlerOutcome::failure(refusal, false, ErrorCode::InvalidArguments)); },
            Qt::QueuedConnection);
        return;
    }

    // The launcher gives the command a session and process group of its own, so a
    // timeout or Stop also kills what it started. Runs between fork and exec:
    // async-signal-safe calls only.
    m_process->setChildProcessModifier([files] {
        // Out of the way first (close-on-exec copies), then to 3, 4, … without it.
        int moved[16];
        const std::size_t count = std::min<std::size_t>(files.size(), 16);
        for (std::size_t i = 0; i < count; ++i)
            moved[i] = ::fcntl(files[i], F_DUPFD_CLOEXEC, 64);
        for (std::size_t i = 0; i < count; ++i)
            ::dup2(moved[i], int(3 + i));
    });

    const QString program = m_command.first();
    launch.keepFds = int(std::min<std::size_t>(files.size(), 16));
    QString refusal;
    const QString canonical = QFileInfo(request.projectDir).canonicalFilePath();
    m_sandbox = ToolSandbox::forProject(canonical.isEmpty() ? request.projectDir : canonical, &refusal);
    if (!m_sandbox || !m_sandbox->configure(m_process, launch, &refusal)) {
        closeFiles();
        QMetaObject::invokeMethod(
            this,
            [this, refusal] {
                finish(HandlerOutcome::failure(QStringLiteral("command cannot start: ") + refusal, false));
            },
            Qt::QueuedConnection);
        return;
    }

    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] {
        m_stdout += m_process->readAllStandardOutput();
        if (std::size_t(m_stdout.size()) > m_maxStdout && !m_done) {
            const auto limit = m_maxStdout;
            m_done = true;
            killGroup();
            HandlerOutcome outcome = HandlerOutcome::failure(
                QStringLiteral("command printed more than %1 bytes on stdout; it was stopped").arg(limit), false,
                ErrorCode::ReplyTooLarge);
            outcome.output = m_secrets.mask(m_stderr);
            Q_EMIT finished(outcome);
        }
    });
    connect(m_process, &QProcess::readyReadStandardError, this,
            [this] { keepStderr(m_process->readAllStandardError()); });
    connect(m_process, &QProcess::errorOccurred, this, [this, program](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // crashes and the like arrive through finished()
        finish(HandlerOutcome::failure(
            QStringLiteral("command failed to start: %1: %2").arg(program, m_process->errorString()), false));
    });
    connect(m_process, &QProcess::finished, this, &CommandHandler::onFinished);
    connect(m_process, &QProcess::started, this, [this, args] {
        m_process->write(
            QByteArray::fromStdString(args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n'));
        m_process->closeWriteChannel();
    });

    m_process->start();
    closeFiles(); // the command has its copies (QProcess forks in start())
}

void CommandHandler::cancel()
{
    if (m_done)
        return;
    m_done = true;
    killGroup();
}

void CommandHandler::killGroup()
{
    if (!m_process)
        return;
    const qint64 pid = m_process->processId();
    if (pid > 0)
        ::kill(-pid_t(pid), SIGKILL); // the group setsid() made; the command itself is its leader
    m_process->kill();
    bool gone = true;
    if (m_process->state() != QProcess::NotRunning && !m_process->waitForFinished(2000)) {
        qWarning("command %s (pid %lld) did not exit after SIGKILL", qPrintable(m_command.first()), pid);
        gone = false;
    }
    // The leader is reaped; the rest of the group (its children) must be gone too.
    // Zombies waiting for a reaper do not count: they run nothing any more.
    if (pid > 0) {
        QElapsedTimer clock;
        clock.start();
        while (groupHasLiveMembers(pid) && clock.elapsed() < 2000)
            ::usleep(5000);
        gone = gone && !groupHasLiveMembers(pid);
    }
    m_killReport = pid <= 0 ? QString()
        : gone ? QStringLiteral("the command's process group (pid %1) was killed (SIGKILL) and is gone").arg(pid)
               : QStringLiteral("the command's process group (pid %1) was sent SIGKILL but could not be confirmed gone")
                     .arg(pid);
}

void CommandHandler::finish(const HandlerOutcome &outcome)
{
    if (m_done)
        return;
    m_done = true;
    HandlerOutcome withOutput = outcome;
    withOutput.output = m_stderr;
    if (m_stderrDropped > 0)
        withOutput.output += "\n[stderr clipped at " + QByteArray::number(m_stderr.size())
            + " bytes (1 MiB cap, on a "
              "character boundary); "
            + QByteArray::number(m_stderrDropped) + " bytes dropped]\n";
    // Secrets never reach the journal: a command that prints one shows ********.
    withOutput.output = m_secrets.mask(withOutput.output);
    withOutput.error.message = m_secrets.mask(QString::fromStdString(withOutput.error.message)).toStdString();
    Q_EMIT finished(withOutput);
}

QString CommandHandler::stderrTail() const
{
    QStringList lines;
    const QList<QByteArray> all = m_stderr.split('\n');
    for (auto it = all.crbegin(); it != all.crend() && lines.size() < TailLines; ++it) {
        const QString line = QString::fromUtf8(*it).trimmed();
        if (!line.isEmpty())
            lines.prepend(line);
    }
    QString tail = lines.join(QLatin1Char('\n'));
    if (tail.size() > TailChars)
        tail = QStringLiteral("...") + tail.right(TailChars);
    return tail;
}

void CommandHandler::keepStderr(const QByteArray &chunk)
{
    if (m_stderrDropped > 0) { // past the cap: only counted
        m_stderrDropped += chunk.size();
        return;
    }
    m_stderr += chunk;
    if (m_stderr.size() <= MaxCapturedStderr)
        return;
    const ClippedText clipped = clipUtf8(m_stderr, MaxCapturedStderr);
    m_stderr = clipped.kept;
    m_stderrDropped = clipped.dropped;
}

void CommandHandler::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_done)
        return;
    m_stdout += m_process->readAllStandardOutput();
    keepStderr(m_process->readAllStandardError());
    const QString tail = stderrTail();

    if (status == QProcess::CrashExit) {
        // On Unix QProcess gives the terminating signal's number as the exit code.
        const char *name = sigabbrev_np(exitCode);
        const QString killed = name
            ? QStringLiteral("command was killed by SIG%1, signal %2").arg(QLatin1String(name)).arg(exitCode)
            : QStringLiteral("command was killed by signal %1").arg(exitCode);
        finish(HandlerOutcome::failure(tail.isEmpty() ? killed : QStringLiteral("%1 (%2)").arg(tail, killed), true));
        return;
    }
    if (exitCode >= SandboxExit::First && exitCode <= SandboxExit::Last) {
        // The launcher failed before execve (e.g. the program does not exist): its
        // one line "toolstudio-sandbox: <step>: <reason>" on stderr.
        static constexpr QLatin1StringView Prefix("toolstudio-sandbox: ");
        const QString text = QString::fromUtf8(m_stderr);
        const qsizetype at = text.lastIndexOf(Prefix);
        if (at >= 0) {
            const QString line = text.mid(at + Prefix.size()).section(QLatin1Char('\n'), 0, 0).trimmed();
            const QString reason = line.section(QStringLiteral(": "), 1);
            finish(HandlerOutcome::failure(QStringLiteral("command failed to start: %1").arg(reason), false));
            return;
        }
    }
    if (exitCode != 0) {
        const QString status = QStringLiteral("exit status %1").arg(exitCode);
        finish(HandlerOutcome::failure(tail.isEmpty() ? QStringLiteral("command failed with %1").arg(status)
                                                      : QStringLiteral("%1 (%2)").arg(tail, status),
                                       exitCode != ExitNonRetryable));
        return;
    }
    Result<nlohmann::json> result = parseHandlerOutput(m_stdout, m_tool);
    finish(result ? HandlerOutcome::success(std::move(result).value())
                  : HandlerOutcome::failure(result.error(), false));
}
