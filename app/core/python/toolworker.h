// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QHash>
#include <QMap>
#include <QObject>
#include <QProcess>
#include <QSet>
#include <QString>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

class QFileSystemWatcher;
class QTimer;
class ToolSandbox;

/// The trusted Python tool worker of one project (DESIGN.md "Tools and the project";
/// resources/worker/toolworker.py): `python3 toolworker.py serve PROJECT`, confined by
/// ToolSandbox (docs/sandbox.md "Trusted code": the project read-only, a scratch dir
/// as HOME, no home, never root, a memory bound, network allowed), in the project
/// folder, with a clean environment holding the project's secrets (Secrets). One JSON
/// object per line on stdin/stdout (protocol in the script's docstring and
/// docs/python-tools.md).
///
/// A cancelled attempt (timeout, Stop) must really stop: an async method is cancelled
/// and the worker confirms it; a sync method runs in a thread, which cannot be killed,
/// so when the worker has not confirmed the stop within GraceMs — or the next invoke()
/// comes first — the worker is killed and restarted (restarted(), and the next reply's
/// output starts with RestartNote).
///
/// Started on the first invoke(); when it dies (a tool called os._exit, a segfault,
/// kill -9) every call in flight gets a retryable error and the next invoke() starts
/// a new process (starts() counts them). A changed secrets file also restarts it
/// (between calls). Saving a `tools/*.py` file is seen by a QFileSystemWatcher:
/// toolFilesChanged() is emitted (also when tools/ is created or removed) and, when
/// the worker runs, it re-describes (signal
/// described()); the worker itself reloads a changed file before the next call, so
/// the next call always runs the new code.
class ToolWorker : public QObject
{
    Q_OBJECT
public:
    using ReplyCallback = std::function<void(const nlohmann::json &reply)>;

    /// The shared worker of `projectDir` (created on first use, owned by the
    /// application object, lives until it ends).
    static ToolWorker *forProject(const QString &projectDir);
    /// How long a cancelled attempt may take to stop before the worker is restarted.
    static constexpr int GraceMs = 2000;
    /// The worker's memory bound (RLIMIT_DATA): a runaway tool gets a MemoryError.
    static constexpr std::uint64_t MemoryLimitBytes = 2ull * 1024 * 1024 * 1024;
    /// The longest reply line the studio reads from the worker (a tool's result as
    /// JSON, plus the envelope): a longer one fails the calls in flight and restarts
    /// the worker, instead of the studio buffering up to the worker's MemoryLimitBytes
    /// (and then parsing it). A Python tool's result cannot reach a reply_bytes larger
    /// than this.
    static constexpr qsizetype MaxReplyLineBytes = 64 * 1024 * 1024;
    /// Lines on the protocol channel that are not replies: warned of one by one up to
    /// this many between two replies, then one notice (a tool may write any number).
    static constexpr int MaxStrayWarnings = 10;
    /// What cancel() does, for a timeout's or Stop's message.
    static QString cancelReport()
    {
        return QStringLiteral("the call was cancelled in the tool worker (an async method stops; a sync method's "
                              "thread cannot be stopped: if it still runs %1 s later, the worker is restarted)")
            .arg(GraceMs / 1000);
    }
    static constexpr auto RestartNote = "the tool worker was restarted: attempt did not stop after its timeout";
    /// The Python the worker runs with: PROJECT/.toolstudio/venv/bin/python3 when such
    /// a virtual environment exists, else /usr/bin/python3 (else python3 in PATH).
    static QString pythonFor(const QString &projectDir);
    /// The variables the worker (and describeSync) gets besides the sandbox's PATH, HOME
    /// and TMPDIR (the scratch dir), LANG, PYTHONIOENCODING and PYTHONDONTWRITEBYTECODE=1:
    /// the project's secrets and PYTHONUNBUFFERED=1. Nothing of the studio's environment.
    static QMap<QString, QString> environmentFor(const QString &projectDir);
    /// One-shot `toolworker.py describe PROJECT`, waiting at most `timeoutMs`: the
    /// "files" array (see docs/python-tools.md), or nullopt with the reason (Python
    /// missing, timeout, malformed output). Used by Project::load, which must stay
    /// synchronous.
    static std::optional<nlohmann::json> describeSync(const QString &projectDir, int timeoutMs, QString *error);

    explicit ToolWorker(const QString &projectDir, QObject *parent = nullptr);
    ~ToolWorker() override;

    QString projectDir() const { return m_projectDir; }
    /// Sends an `invoke` (the "id" is filled in) and returns the id. `done` gets the
    /// reply ({"type":"result","value",…,"output"} or {"type":"error","error":{message,
    /// retryable,type,traceback},"output"}) exactly once — later, never from inside
    /// invoke() — unless cancel(id) came first.
    qint64 invoke(nlohmann::json request, ReplyCallback done);
    /// The worker cancels the call (an async method is cancelled; a sync method's
    /// thread runs on but its result is dropped). No reply is delivered afterwards.
    void cancel(qint64 id);
    /// Asks the running worker (starting it if needed) to describe the tool files;
    /// the answer arrives as described().
    void requestDescribe();
    /// Stops the process (calls in flight fail retryable).
    void stop();
    bool isRunning() const;
    qint64 processId() const;
    int starts() const { return m_starts; }

Q_SIGNALS:
    /// The "files" array of a describe answer, as compact JSON text.
    void described(const QByteArray &files);
    /// A tools/*.py file was saved, added or removed (debounced by 150 ms). `paths`:
    /// the files that did, relative to the project ("tools/weather.py"), sorted;
    /// empty when only the folder changed (e.g. tools/ was created).
    void toolFilesChanged(const QStringList &paths);
    /// The worker process ended without being asked to; `reason` in words.
    void crashed(const QString &reason);
    /// The worker was killed because a cancelled attempt did not stop (RestartNote).
    void restarted(const QString &reason);

private:
    bool ensureStarted(QString *error);
    void send(const nlohmann::json &message);
    void onReadyRead();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void failAll(const QString &message, bool retryable);
    void deliver(qint64 id, const nlohmann::json &reply);
    void watchToolFiles();
    /// The secrets file and the network setting: a change restarts the worker between calls.
    QString secretsFingerprint() const;
    void restartStuck();
    void killProcess();

    QString m_projectDir;
    QProcess *m_process = nullptr;
    QByteArray m_buffer;
    QByteArray m_stderrTail;
    int m_strayLines = 0; ///< lines on the channel that were not replies since the last reply
    struct Pending
    {
        ReplyCallback done;
        std::string tool; ///< the request's "tool", named when the channel breaks
    };
    QHash<qint64, Pending> m_pending;
    qint64 m_nextId = 1;
    int m_starts = 0;
    bool m_stopping = false;
    QString m_startedSecrets;
    std::shared_ptr<ToolSandbox> m_sandbox; ///< the project's (ToolSandbox::forProject)
    QSet<qint64> m_unconfirmed;             ///< cancelled, not yet confirmed stopped
    QTimer *m_graceTimer = nullptr;
    QString m_restartNote; ///< prefixed to the next reply's output
    QFileSystemWatcher *m_watcher = nullptr;
    QTimer *m_changeTimer = nullptr;
    QSet<QString> m_changedFiles;    ///< saved since the change timer started (absolute paths)
    bool m_watchingToolsDir = false; ///< else the project folder, waiting for tools/
};
