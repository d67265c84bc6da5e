// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/toolworker.h"

#include "jsoninput.h"
#include "python/secrets.h"
#include "python/toolsandbox.h"
#include "python/workermessage.h"
#include "textclip.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QPointer>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

#include <utility>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

static void initWorkerResource()
{
    Q_INIT_RESOURCE(worker);
}

namespace {

constexpr qsizetype StderrTail = 4096;

QString cleanDir(const QString &dir)
{
    const QFileInfo info(dir);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

nlohmann::json errorReply(const QString &message, bool retryable)
{
    return {{"type", "error"},
            {"error", {{"message", message.toStdString()}, {"retryable", retryable}, {"type", "WorkerError"}}},
            {"output", ""}};
}

} // namespace

namespace {

/// Places every file of the :/worker resource (toolworker.py, openwebui_compat.py and
/// the toolstudio_worker package) into the sandbox folder's bin/; the entry script's
/// path, empty with `error` when one cannot be read or written.
QString placeWorker(ToolSandbox *sandbox, QString *error)
{
    initWorkerResource();
    const QString root = QStringLiteral(":/worker/");
    QStringList names;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        names << it.next().mid(root.size());
    names.sort();
    if (!names.contains(QStringLiteral("toolworker.py"))) {
        *error = QStringLiteral("the tool worker's toolworker.py is missing from the resources");
        return {};
    }
    QString script;
    for (const QString &name : std::as_const(names)) {
        QFile resource(root + name);
        if (!resource.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("the tool worker's %1 cannot be read from the resources").arg(name);
            return {};
        }
        const QString path = sandbox->placeFile(name, resource.readAll(), error);
        if (path.isEmpty())
            return {};
        if (name == QLatin1String("toolworker.py"))
            script = path;
    }
    return script;
}

/// A confined `python3 toolworker.py MODE PROJECT` set up on `process` (ToolSandbox).
bool configureWorker(ToolSandbox *sandbox, QProcess *process, const QString &projectDir, const QString &mode,
                     QString *error)
{
    const QString python = ToolWorker::pythonFor(projectDir);
    if (python.isEmpty()) {
        *error = QStringLiteral("python3 is not installed: the Python tools cannot run");
        return false;
    }
    if (!sandbox->prepare(projectDir, error))
        return false;
    const QString script = placeWorker(sandbox, error);
    if (script.isEmpty())
        return false;
    ToolSandbox::Launch launch;
    launch.argv = {python, script, mode, sandbox->projectPath()};
    launch.env = ToolWorker::environmentFor(projectDir);
    launch.memoryBytes = ToolWorker::MemoryLimitBytes;
    return sandbox->configure(process, launch, error);
}

} // namespace

QString ToolWorker::pythonFor(const QString &projectDir)
{
    const QString venv = projectDir + QStringLiteral("/.toolstudio/venv/bin/python3");
    if (QFileInfo(venv).isExecutable())
        return venv;
    if (QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

QMap<QString, QString> ToolWorker::environmentFor(const QString &projectDir)
{
    QMap<QString, QString> env;
    const Secrets secrets = Secrets::load(projectDir);
    for (const QString &name : secrets.names())
        env.insert(name, secrets.value(name));
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    return env;
}

std::optional<nlohmann::json> ToolWorker::describeSync(const QString &projectDir, int timeoutMs, QString *error)
{
    QString reason;
    ToolSandbox sandbox;
    QProcess process;
    if (!configureWorker(&sandbox, &process, cleanDir(projectDir), QStringLiteral("describe"), &reason)) {
        if (error)
            *error = reason;
        return std::nullopt;
    }
    process.start();
    if (!process.waitForStarted(5000)) {
        if (error)
            *error = QStringLiteral("cannot start the tool worker: %1").arg(process.errorString());
        return std::nullopt;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        ::kill(-pid_t(process.processId()), SIGKILL); // the launcher leads the worker's session
        process.kill();
        process.waitForFinished(1000);
        if (error)
            *error = QStringLiteral("the tool worker did not describe tools/*.py within %1 s (a tool file that "
                                    "blocks while it loads?)")
                         .arg(timeoutMs / 1000.0);
        return std::nullopt;
    }
    const QByteArray out = process.readAllStandardOutput().trimmed();
    const QByteArray lastLine = out.mid(out.lastIndexOf('\n') + 1);
    const auto reply = JsonInput::parse(std::string_view(lastLine.constData(), std::size_t(lastLine.size())),
                                        "the tool worker's description of tools/*.py");
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0 || !reply.is_object()
        || !reply.contains("files") || !reply["files"].is_array()) {
        if (error)
            *error = QStringLiteral("the tool worker failed to describe tools/*.py: %1")
                         .arg(QString::fromUtf8(process.readAllStandardError().right(StderrTail)).trimmed());
        return std::nullopt;
    }
    if (const QString wrong = WorkerMessage::describedProblem(reply["files"]); !wrong.isEmpty()) {
        if (error)
            *error = QStringLiteral("the tool worker's description of tools/*.py is malformed (%1); a tool file "
                                    "must not write to the worker's protocol channel while it loads")
                         .arg(wrong);
        return std::nullopt;
    }
    return reply["files"];
}

ToolWorker *ToolWorker::forProject(const QString &projectDir)
{
    static QHash<QString, QPointer<ToolWorker>> workers;
    const QString key = cleanDir(projectDir);
    QPointer<ToolWorker> &worker = workers[key];
    if (!worker)
        worker = new ToolWorker(key, QCoreApplication::instance());
    return worker;
}

ToolWorker::ToolWorker(const QString &projectDir, QObject *parent)
    : QObject(parent)
    , m_projectDir(cleanDir(projectDir))
{
    m_watcher = new QFileSystemWatcher(this);
    m_changeTimer = new QTimer(this);
    m_changeTimer->setSingleShot(true);
    m_changeTimer->setInterval(150);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, m_changeTimer, qOverload<>(&QTimer::start));
    connect(m_watcher, &QFileSystemWatcher::fileChanged, m_changeTimer, [this](const QString &path) {
        m_changedFiles.insert(path);
        m_changeTimer->start();
    });
    m_graceTimer = new QTimer(this);
    m_graceTimer->setSingleShot(true);
    connect(m_graceTimer, &QTimer::timeout, this, &ToolWorker::restartStuck);
    connect(m_changeTimer, &QTimer::timeout, this, [this] {
        const bool hadToolsDir = m_watchingToolsDir;
        const QStringList before = m_watcher->files();
        watchToolFiles(); // editors that save by rename replace the watched file
        if (!hadToolsDir && !m_watchingToolsDir)
            return; // the project folder changed, and there is still no tools/
        // Saved files, plus files added or removed since the last look.
        const QStringList after = m_watcher->files();
        QSet<QString> changed = std::exchange(m_changedFiles, {});
        for (const QString &path : before)
            if (!after.contains(path))
                changed.insert(path);
        for (const QString &path : after)
            if (!before.contains(path))
                changed.insert(path);
        const QDir project(m_projectDir);
        QStringList paths;
        for (const QString &path : std::as_const(changed))
            paths << project.relativeFilePath(path);
        paths.sort();
        Q_EMIT toolFilesChanged(paths);
        if (isRunning())
            requestDescribe();
    });
    watchToolFiles();
}

ToolWorker::~ToolWorker()
{
    m_stopping = true;
    m_pending.clear();
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->closeWriteChannel();
        if (!m_process->waitForFinished(500))
            killProcess();
    }
}

void ToolWorker::watchToolFiles()
{
    const QString tools = m_projectDir + QStringLiteral("/tools");
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_watchingToolsDir = QFileInfo(tools).isDir();
    if (!m_watchingToolsDir) {
        // Until tools/ exists (an imported .py file creates it), the project folder.
        m_watcher->addPath(m_projectDir);
        return;
    }
    m_watcher->addPath(tools);
    const QStringList files = QDir(tools).entryList({QStringLiteral("*.py")}, QDir::Files);
    for (const QString &file : files)
        m_watcher->addPath(tools + QLatin1Char('/') + file);
}

QString ToolWorker::secretsFingerprint() const
{
    // The network setting is fixed at start too (the worker's seccomp filter).
    const QString network = ToolSandbox::projectAllowsNetwork(m_projectDir) ? QString() : QStringLiteral("offline:");
    QFile file(Secrets::filePath(m_projectDir));
    if (!file.open(QIODevice::ReadOnly))
        return network;
    return network + QString::fromLatin1(QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex());
}

bool ToolWorker::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

qint64 ToolWorker::processId() const
{
    return m_process ? m_process->processId() : 0;
}

bool ToolWorker::ensureStarted(QString *error)
{
    // New secrets take effect between calls: environment variables are fixed at start.
    if (isRunning() && m_pending.isEmpty() && secretsFingerprint() != m_startedSecrets)
        stop();
    if (isRunning()) {
        m_sandbox->syncProject(); // as root: the copy follows saved tool files
        return true;
    }
    if (!m_sandbox) {
        // Shared with the project's command tools: one scratch dir, kept across restarts.
        m_sandbox = ToolSandbox::forProject(m_projectDir, error);
        if (!m_sandbox)
            return false;
    }
    if (m_process)
        m_process->deleteLater();
    m_process = nullptr;
    auto *process = new QProcess(this);
    if (!configureWorker(m_sandbox.get(), process, m_projectDir, QStringLiteral("serve"), error)) {
        delete process;
        return false;
    }
    m_process = process;
    m_buffer.clear();
    m_stderrTail.clear();
    m_strayLines = 0;
    m_stopping = false;
    m_startedSecrets = secretsFingerprint();
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
        if (process == m_process)
            onReadyRead();
    });
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        if (process != m_process)
            return;
        m_stderrTail += process->readAllStandardError();
        if (m_stderrTail.size() > StderrTail)
            m_stderrTail = m_stderrTail.right(StderrTail);
    });
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        if (process == m_process)
            onFinished(exitCode, status);
    });
    process->start();
    if (!process->waitForStarted(5000)) {
        *error = QStringLiteral("cannot start the tool worker: %1").arg(process->errorString());
        process->deleteLater();
        m_process = nullptr;
        return false;
    }
    ++m_starts;
    return true;
}

void ToolWorker::send(const nlohmann::json &message)
{
    if (isRunning())
        m_process->write(
            QByteArray::fromStdString(message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n'));
}

qint64 ToolWorker::invoke(nlohmann::json request, ReplyCallback done)
{
    const qint64 id = m_nextId++;
    QString error;
    if (!m_unconfirmed.isEmpty())
        restartStuck(); // the retry of a stuck attempt runs in a fresh worker
    if (!ensureStarted(&error)) {
        // Delivered later, never from inside invoke().
        QTimer::singleShot(0, this, [done, error] { done(errorReply(error, false)); });
        return id;
    }
    request["type"] = "invoke";
    request["id"] = std::to_string(id);
    m_pending.insert(id, Pending{std::move(done), request.value("tool", std::string())});
    send(request);
    return id;
}

void ToolWorker::cancel(qint64 id)
{
    if (!m_pending.remove(id) || !isRunning())
        return;
    send({{"type", "cancel"}, {"id", std::to_string(id)}});
    // The worker answers "cancelled" once the attempt has stopped; until then it may
    // still be running (a thread), and past GraceMs the worker is restarted.
    m_unconfirmed.insert(id);
    if (!m_graceTimer->isActive())
        m_graceTimer->start(GraceMs);
}

void ToolWorker::killProcess()
{
    if (!isRunning())
        return;
    m_stopping = true;
    const qint64 pid = m_process->processId();
    if (pid > 0)
        ::kill(-pid_t(pid), SIGKILL); // the launcher made the worker a session (and group) leader
    m_process->kill();
    m_process->waitForFinished(2000);
}

void ToolWorker::restartStuck()
{
    m_graceTimer->stop();
    if (m_unconfirmed.isEmpty())
        return;
    m_unconfirmed.clear();
    if (!isRunning())
        return;
    // Other calls in flight (other runs) go down with it, retryable.
    failAll(QString::fromLatin1(RestartNote) + QStringLiteral(" (another call's); this call was stopped with it"),
            true);
    killProcess();
    m_restartNote = QString::fromLatin1(RestartNote);
    Q_EMIT restarted(m_restartNote);
}

void ToolWorker::requestDescribe()
{
    QString error;
    if (!ensureStarted(&error)) {
        qWarning("%s", qPrintable(error));
        return;
    }
    send({{"type", "describe"}, {"id", "describe"}});
}

void ToolWorker::stop()
{
    if (!isRunning())
        return;
    m_stopping = true;
    m_unconfirmed.clear();
    failAll(QStringLiteral("the tool worker was stopped during this call"), true);
    m_process->closeWriteChannel();
    if (!m_process->waitForFinished(1000))
        killProcess();
}

void ToolWorker::onReadyRead()
{
    // Only the new bytes are searched for the end of a line: searching the whole buffer
    // at every read made a reply of N bytes cost N²/64 KiB (10 MB: 5 s of the GUI
    // thread; 70 MB: past the attempt timeout, three times).
    const QByteArray chunk = m_process->readAllStandardOutput();
    const qsizetype lastNewline = chunk.lastIndexOf('\n');
    const qsizetype complete = lastNewline < 0 ? 0 : m_buffer.size() + lastNewline + 1;
    m_buffer += chunk;
    // Issue 16: a tool returning a 1 GB string (or writing endless bytes to the channel)
    // was buffered whole, then parsed: the studio's memory, not the worker's.
    const auto refuseTooLong = [this] {
        m_buffer.clear();
        failAll(QStringLiteral("the tool worker's reply is longer than %1 bytes (a Python tool's result must fit in "
                               "that as JSON); the worker is restarted for the next call")
                    .arg(MaxReplyLineBytes),
                false);
        killProcess();
    };
    if (m_buffer.size() - complete > MaxReplyLineBytes)
        return refuseTooLong();
    // The complete lines leave the buffer at once, and are taken by offset: removing
    // each from the front moved the rest every time (32 000 empty lines in one read
    // moved a gigabyte). Replies delivered below may restart the worker (and clear
    // m_buffer): `lines` is this call's own.
    const QByteArray lines = m_buffer.left(complete);
    m_buffer.remove(0, complete);
    qsizetype newline;
    for (qsizetype from = 0; (newline = lines.indexOf('\n', from)) >= 0; from = newline + 1) {
        if (newline - from > MaxReplyLineBytes)
            return refuseTooLong();
        const QByteArray line = lines.sliced(from, newline - from);
        std::string problem;
        const auto message = JsonInput::parse(std::string_view(line.constData(), std::size_t(line.size())),
                                              "the tool worker's reply", &problem);
        if (message.is_discarded()) {
            // Never built (issue 16: nested too deep, or a number the parser cannot hold,
            // e.g. a tool returning 10**400): the call it answers (the worker writes its
            // "id" first) fails with the reason; a line without one is dropped as below.
            static const QRegularExpression idFirst(QStringLiteral("^\\{\"id\": \"(\\d+)\""));
            const auto match = idFirst.match(QString::fromUtf8(line.left(64)));
            const qint64 id = match.hasMatch() ? match.captured(1).toLongLong() : 0;
            if (const auto it = m_pending.constFind(id); it != m_pending.constEnd()) {
                deliver(id,
                        errorReply(QStringLiteral("python tool %1: %2")
                                       .arg(QString::fromStdString(it->tool), QString::fromStdString(problem)),
                                   false));
                continue;
            }
        }
        const QString wrong = WorkerMessage::problem(message);
        if (!wrong.isEmpty() && message.is_object() && message.contains("id") && message["id"].is_string()) {
            // A reply to a call, but not in the worker's shape (a tool writing its own
            // line to the channel): that call fails with what was wrong.
            bool ok = false;
            const qint64 id = QString::fromStdString(message["id"].get<std::string>()).toLongLong(&ok);
            if (const auto it = m_pending.constFind(id); ok && it != m_pending.constEnd()) {
                deliver(id,
                        errorReply(QStringLiteral("python tool %1: the tool worker's reply is malformed (%2); "
                                                  "a tool must not write to the worker's protocol channel")
                                       .arg(QString::fromStdString(it->tool), wrong),
                                   false));
                continue;
            }
        }
        if (!wrong.isEmpty()) {
            // The worker keeps fd 1 away from its channel (toolworker.py _protocol_channel),
            // so this is a tool writing to the channel's own descriptor or a broken worker.
            // A warning for the first MaxStrayWarnings lines between two replies, then one
            // notice: a tool writing a million newlines there made a million warnings, each
            // built and printed on the GUI thread (attack7).
            if (++m_strayLines > MaxStrayWarnings) {
                if (m_strayLines == MaxStrayWarnings + 1)
                    qWarning(
                        "tool worker: more lines on its protocol channel are not replies; they are dropped without a "
                        "warning until the next reply");
                continue;
            }
            QStringList running;
            for (const Pending &pending : std::as_const(m_pending))
                running << QString::fromStdString(pending.tool);
            running.sort();
            // The quote is cut on a character (textclip.h), saying what was dropped.
            const ClippedText quoted = clipUtf8(line, 200);
            const QByteArray quote
                = quoted.dropped > 0 ? quoted.kept + droppedNote(quoted.dropped).toUtf8() : quoted.kept;
            qWarning(
                "tool worker: a line on its protocol channel is not a reply (%s); tools running then: %s. "
                "A tool must write its output with print() or to sys.stdout, never to the worker's protocol channel.",
                quote.constData(), running.isEmpty() ? "none" : qPrintable(running.join(QStringLiteral(", "))));
            continue;
        }
        if (message["type"] == "cancelled") {
            bool known = false;
            const qint64 id = QString::fromStdString(message.value("id", std::string())).toLongLong(&known);
            if (known && m_unconfirmed.remove(id) && m_unconfirmed.isEmpty())
                m_graceTimer->stop();
            continue;
        }
        if (message["type"] == "described") {
            Q_EMIT described(QByteArray::fromStdString(message.value("files", nlohmann::json::array()).dump()));
            continue;
        }
        const std::string idText = message.value("id", std::string());
        bool ok = false;
        const qint64 id = QString::fromStdString(idText).toLongLong(&ok);
        if (ok)
            deliver(id, message);
    }
}

void ToolWorker::deliver(qint64 id, const nlohmann::json &reply)
{
    m_strayLines = 0; // warned of again after a reply (MaxStrayWarnings between two replies)
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return; // cancelled
    ReplyCallback done = std::move(it.value().done);
    m_pending.erase(it);
    if (m_restartNote.isEmpty()) {
        done(reply);
        return;
    }
    // The first reply after a restart says so in its output (the trace shows it).
    nlohmann::json noted = reply;
    noted["output"] = "[tool worker] " + std::exchange(m_restartNote, {}).toStdString() + "\n"
        + reply.value("output", std::string());
    done(noted);
}

void ToolWorker::failAll(const QString &message, bool retryable)
{
    const QList<qint64> ids = m_pending.keys();
    for (qint64 id : ids)
        deliver(id, errorReply(message, retryable));
}

void ToolWorker::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_stopping) {
        failAll(QStringLiteral("the tool worker was stopped during this call"), true);
        return;
    }
    const QString how = status == QProcess::CrashExit ? QStringLiteral("was killed by a signal")
                                                      : QStringLiteral("exited with status %1").arg(exitCode);
    QString tail = QString::fromUtf8(m_stderrTail).trimmed();
    if (tail.size() > 500)
        tail = QStringLiteral("...") + tail.right(500);
    const QString reason
        = QStringLiteral("the tool worker %1%2").arg(how, tail.isEmpty() ? QString() : QStringLiteral(": ") + tail);
    failAll(QStringLiteral("%1 during this call; it is restarted for the next call").arg(reason), true);
    Q_EMIT crashed(reason);
}
