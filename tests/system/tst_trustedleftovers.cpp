// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What trusted code leaves running does not outlive the studio (attack35): an MCP server
// that double-forks a daemon out of its session has it killed with its pids cgroup when
// a headless `toolstudio mcp list` ends (the transport is torn down after the event loop
// ended: its QProcess never destroyed), and a studio killed with SIGKILL has its
// leftovers killed by the next studio that starts trusted code. Needs a pids cgroup.
#include "clirunner.h"
#include "pidscgroup.h"
#include "testfiles.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>

namespace {

/// A stdio MCP server (2025 era) that first leaves `sleep SECONDS` running out of its
/// session, then answers initialize and tools/list (one tool, "daemon-PID") — or, with
/// "mute", nothing.
const char Server[] = R"PY(import json, os, sys
read, write = os.pipe()
if os.fork() == 0:
    os.setsid()
    daemon = os.fork()
    if daemon == 0:
        os.execvp("sleep", ["sleep", sys.argv[1]])
    os.write(write, str(daemon).encode())
    os._exit(0)
os.close(write)
daemon = os.read(read, 32).decode()
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message or len(sys.argv) > 2:
        continue
    result = {"tools": [{"name": "daemon-" + daemon, "inputSchema": {"type": "object"}}]}
    if message["method"] == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "leaver", "version": "1"}}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
)PY";

/// The pids of processes whose command line is `sleep SECONDS`.
QList<qint64> sleepers(const QString &seconds)
{
    QList<qint64> pids;
    const QByteArray wanted = QByteArray("sleep\0", 6) + seconds.toLatin1() + '\0';
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (number && cmdline.open(QIODevice::ReadOnly) && cmdline.readAll() == wanted)
            pids << pid;
    }
    return pids;
}

/// A project whose server `s` runs Server with `arguments`.
void writeProject(const QTemporaryDir &dir, const QString &arguments)
{
    ::chmod(QFile::encodeName(dir.path()).constData(), 0755); // as root the server runs as nobody
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv.py")), QByteArray(Server)));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      QByteArrayLiteral("{\"name\": \"leftovers\", \"mcp_servers\": {\"s\": {\"command\": \"python3\", "
                                        "\"args\": [\"srv.py\", ")
                          + arguments.toUtf8() + QByteArrayLiteral("]}}}")));
}

} // namespace

class TestTrustedLeftovers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        if (PidsCgroup::probe().parent.empty() || qEnvironmentVariable("TOOLSTUDIO_CGROUPS") == QLatin1String("0"))
            QSKIP("no pids cgroup here: trusted code's leftovers are not tracked (docs/sandbox.md \"Trusted code\")");
    }

    void serverDaemonEndsWithTheCommand()
    {
        QTemporaryDir dir;
        writeProject(dir, QStringLiteral("\"986431\""));
        const CommandResult listed = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path()});
        QVERIFY2(listed.exitCode == 0, (listed.out + listed.err).constData());
        QVERIFY2(listed.out.contains("s__daemon-"), listed.out.constData()); // it ran while the server did
        QTRY_COMPARE_WITH_TIMEOUT(sleepers(QStringLiteral("986431")), QList<qint64>(), 5000);
    }

    void killedStudiosLeftoversEndWithTheNextStudio()
    {
        QTemporaryDir mute;
        writeProject(mute, QStringLiteral("\"986432\", \"mute\""));
        QProcess studio;
        studio.setProgram(toolstudioBinary());
        studio.setArguments(withTrust({QStringLiteral("mcp"), QStringLiteral("list"), mute.path()}));
        studio.setStandardInputFile(QProcess::nullDevice());
        studio.start();
        QVERIFY(studio.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(sleepers(QStringLiteral("986432")).size() == 1, 30000);
        ::kill(pid_t(studio.processId()), SIGKILL);
        QVERIFY(studio.waitForFinished(10000));
        QTest::qWait(500);
        QCOMPARE(sleepers(QStringLiteral("986432")).size(), 1); // out of its session: lives on

        QTemporaryDir next;
        writeProject(next, QStringLiteral("\"986433\""));
        const CommandResult listed = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), next.path()});
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(sleepers(QStringLiteral("986432")), QList<qint64>(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(sleepers(QStringLiteral("986433")), QList<qint64>(), 5000);
    }
};

QTEST_GUILESS_MAIN(TestTrustedLeftovers)
#include "tst_trustedleftovers.moc"
