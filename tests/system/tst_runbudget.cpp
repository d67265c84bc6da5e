// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Nothing a script sends may exhaust or hold the trusted side (issue 16, class 3):
// the call budget counts refused calls and stops recording them one by one, names are
// elided in messages, sandbox refusals are coalesced, output past its cap is dropped
// without being read into the studio, and Stop / the run timeout never wait for the
// run thread. Real launcher, sandbox and engine; each case asserts exact counts.

#include "engine/stepengine.h"
#include "enginefixture.h"
#include "journal/journal.h"
#include "policylistener.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "seccompfilter.h"
#include "trustedproject.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(data);
}

/// Raw bridge I/O for the scripts: call(id, tool) sends one call and returns its reply.
const QByteArray RawBridge = "import os, json\n"
                             "_buf = b''\n"
                             "def call(i, tool, args=None):\n"
                             "    global _buf\n"
                             "    line = json.dumps({'type': 'call', 'id': f'c{i}', 'tool': tool,\n"
                             "                       'args': args or {}}).encode() + b'\\n'\n"
                             "    view = memoryview(line)\n"
                             "    while view:\n"
                             "        view = view[os.write(3, view):]\n"
                             "    while b'\\n' not in _buf:\n"
                             "        chunk = os.read(3, 65536)\n"
                             "        if not chunk: raise SystemExit('bridge closed')\n"
                             "        _buf += chunk\n"
                             "    reply, _buf = _buf.split(b'\\n', 1)\n"
                             "    return json.loads(reply)\n";

int countKind(const std::vector<PolicyEvent> &events, PolicyEventKind kind)
{
    return int(std::count_if(events.cbegin(), events.cend(), [kind](const PolicyEvent &e) { return e.kind == kind; }));
}

const PolicyEvent *firstOfKind(const std::vector<PolicyEvent> &events, PolicyEventKind kind)
{
    const auto it
        = std::find_if(events.cbegin(), events.cend(), [kind](const PolicyEvent &e) { return e.kind == kind; });
    return it == events.cend() ? nullptr : &*it;
}

} // namespace

class TestRunBudget : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::optional<Project> m_project;

    /// A fresh project with `limits` (a JSON object's members) and two mock tools:
    /// `echo` (answers at once) and `slow` (answers after 10 s).
    bool makeProject(const QByteArray &limits)
    {
        m_dir = std::make_unique<QTemporaryDir>();
        writeFile(
            m_dir->filePath(QStringLiteral("toolstudio.json")),
            "{\"name\": \"budget\", \"default_script\": \"main\","
            " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],"
            " \"limits\": {"
                + limits
                + "},"
                  " \"tools\": ["
                  "  {\"name\": \"echo\", \"input_schema\": {\"type\": \"object\"},"
                  "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1}]}},"
                  "  {\"name\": \"slow\", \"input_schema\": {\"type\": \"object\"},"
                  "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1, \"delay_seconds\": 10}]}}"
                  ",  {\"name\": \"strict\", \"input_schema\": {\"type\": \"object\", \"additionalProperties\": false},"
                  "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1}]}}"
                  " ]}");
        ProjectError error;
        m_project = loadTrusted(m_dir->path(), &error);
        if (!m_project)
            qWarning() << error.toString();
        return bool(m_project);
    }

    QString journalPath() const { return m_dir->filePath(QStringLiteral("journal.sqlite")); }

    RunResult run(RunController &controller, const QByteArray &source)
    {
        const QString script = m_dir->filePath(QStringLiteral("scripts/main.py"));
        writeFile(script, source);
        controller.setJournalPath(journalPath());
        return runToEnd(controller, *m_project, script, 120000);
    }

private Q_SLOTS:
    // 1000 unknown-tool calls against max_calls 5: five refusals count against the
    // budget and are steps, the sixth call is the max_calls_exceeded step, and the 994
    // after it are answered and counted in one calls_refused event, not recorded.
    void refusedCallsCountAndStopBeingRecorded()
    {
        QVERIFY(makeProject("\"max_calls\": 5"));
        RunController controller;
        const RunResult result = run(controller,
                                     RawBridge
                                         + "codes = {}\n"
                                           "for i in range(1000):\n"
                                           "    code = call(i, 'no_such_tool')['error']['code']\n"
                                           "    codes[code] = codes.get(code, 0) + 1\n"
                                           "print(json.dumps(codes, sort_keys=True))\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.stdoutText, QByteArray("{\"max_calls_exceeded\": 995, \"unknown_tool\": 5}\n"));
        QCOMPARE(controller.engine()->callCount(), 5);
        QCOMPARE(int(result.steps.size()), 6);
        QCOMPARE(result.steps[5].error->code, ErrorCode::MaxCallsExceeded);
        QCOMPARE(QString::fromStdString(result.steps[5].error->message),
                 QStringLiteral("call 6 exceeds the limit of 5 calls per run (limits.max_calls; refused calls count "
                                "too); later calls are refused without being recorded one by one"));

        Journal journal;
        QVERIFY(journal.open(journalPath()));
        QCOMPARE(int(journal.steps(result.record.id).size()), 6);
        const std::vector<PolicyEvent> events = journal.events(result.record.id);
        QCOMPARE(countKind(events, PolicyEventKind::CallsRefused), 1);
        const PolicyEvent *summary = firstOfKind(events, PolicyEventKind::CallsRefused);
        QCOMPARE(summary->detail.value("count", 0), 994);
        QCOMPARE(summary->sequence, 0);
        QCOMPARE(QString::fromStdString(summary->detail.value("text", std::string())),
                 QStringLiteral("994 more calls were refused past the limit of 5 calls per run (limits.max_calls); "
                                "they were counted, not recorded one by one"));
    }

    // A 100 KB tool name is quoted elided to 128 characters and its size, in the reply
    // and in the step (no tool can have a longer name).
    void longToolNameIsElided()
    {
        QVERIFY(makeProject("\"max_calls\": 5"));
        RunController controller;
        const RunResult result = run(controller,
                                     RawBridge
                                         + "print(call(1, 'a' * 102400)['error']['message'])\n"
                                           "print(call(2, 'b\\x1b[2J' * 40)['error']['message'])\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        const QString elided = QString(128, QLatin1Char('a')) + QStringLiteral("… (102272 bytes dropped)");
        // 128 characters of 'b', ESC, "[2J" × 40 (200 bytes): 25 whole repeats and "b", ESC, "["; 72 dropped.
        const QString escaped
            = QStringLiteral("b\\u001b[2J").repeated(25) + QStringLiteral("b\\u001b[… (72 bytes dropped)");
        QCOMPARE(QString::fromUtf8(result.stdoutText),
                 QStringLiteral("no tool named '%1' in this project\n"
                                "no tool named '%2' in this project\n")
                     .arg(elided, escaped));
        QCOMPARE(int(result.steps.size()), 2);
        QCOMPARE(result.steps[0].tool, elided);
    }

    // Every refused step keeps a long name elided, not only unknown_tool's: a 100 KB
    // name on a call reusing the id of a call in flight (protocol_error) was kept whole
    // in its step and printed whole in the trace (attack2).
    void longToolNameIsElidedInEveryRefusal()
    {
        QVERIFY(makeProject("\"max_calls\": 5"));
        RunController controller;
        const RunResult result
            = run(controller,
                  "import os, json\n"
                  "def send(tool):\n"
                  "    line = json.dumps({'type': 'call', 'id': 'c1', 'tool': tool}).encode() + b'\\n'\n"
                  "    view = memoryview(line)\n"
                  "    while view:\n"
                  "        view = view[os.write(3, view):]\n"
                  "send('slow')\n"
                  "send('a' * 102400)\n"
                  "buf = b''\n"
                  "while buf.count(b'\\n') < 2:\n"
                  "    buf += os.read(3, 65536)\n"
                  "print(*(json.loads(l).get('error', {}).get('code', 'ok') for l in buf.split(b'\\n')[:2]))\n");
        QCOMPARE(result.stdoutText, QByteArray("protocol_error ok\n"));
        QCOMPARE(int(result.steps.size()), 2);
        QCOMPARE(result.steps[1].error->code, ErrorCode::ProtocolError);
        QCOMPARE(result.steps[1].tool, QString(128, QLatin1Char('a')) + QStringLiteral("… (102272 bytes dropped)"));
    }

    // invalid_arguments quotes the pointer elided: a 100 KB key (with a control
    // character) was echoed whole into the message and the trace (attack2); the
    // `pointer` field keeps it exact for the script.
    void longPointerIsElidedInMessages()
    {
        QVERIFY(makeProject("\"max_calls\": 5"));
        RunController controller;
        const RunResult result = run(controller,
                                     RawBridge
                                         + "e = call(1, 'strict', {'\\x1b' + 'k' * 102400: 1})['error']\n"
                                           "print(e['message'])\n"
                                           "print(len(e['pointer']))\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        const QString elided
            = QStringLiteral("/\\u001b") + QString(126, QLatin1Char('k')) + QStringLiteral("… (102274 bytes dropped)");
        QCOMPARE(QString::fromUtf8(result.stdoutText),
                 QStringLiteral("invalid arguments for 'strict' at %1: property is not allowed by the schema\n102402\n")
                     .arg(elided));
    }

    // 10 000 refused socket() calls: the first 20 are events of their own, then one
    // summary whose count is every refusal the listener answered (= the script's count).
    void socketRefusalsAreCoalesced()
    {
        if (!SeccompFilter::kernelHasUserNotification())
            QSKIP("the kernel has no seccomp user notification: refusals are plain errnos, no policy events");
        QVERIFY(makeProject("\"max_calls\": 5"));
        RunController controller;
        QSignalSpy signalled(&controller, &RunController::policyEvent);
        const RunResult result = run(controller,
                                     "import socket\n"
                                     "refused = 0\n"
                                     "for _ in range(10000):\n"
                                     "    try:\n"
                                     "        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()\n"
                                     "    except OSError:\n"
                                     "        refused += 1\n"
                                     "print(refused)\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.stdoutText, QByteArray("10000\n"));
        QCOMPARE(signalled.size(), 21);

        Journal journal;
        QVERIFY(journal.open(journalPath()));
        const std::vector<PolicyEvent> events = journal.events(result.record.id);
        QCOMPARE(countKind(events, PolicyEventKind::SandboxRefused), int(PolicyListener::RecordedPerSyscall));
        QCOMPARE(countKind(events, PolicyEventKind::SandboxRefusedSummary), 1);
        const PolicyEvent *summary = firstOfKind(events, PolicyEventKind::SandboxRefusedSummary);
        QCOMPARE(summary->detail.value("syscall", std::string()), std::string("socket"));
        QCOMPARE(summary->detail.value("count", 0), 10000);
        QCOMPARE(QString::fromStdString(summary->detail.value("text", std::string())),
                 QStringLiteral("socket refused 10000 times in all (the first 20 recorded one by one)"));
    }

    // Output past its cap is dropped without reaching the studio's buffers; the console
    // ends with how much was dropped.
    void outputPastCapIsDiscarded()
    {
        QVERIFY(makeProject("\"output_bytes\": 1048576"));
        RunController controller;
        const RunResult result = run(controller,
                                     "import os\n"
                                     "block = b'x' * (1 << 20)\n"
                                     "for _ in range(64):\n"
                                     "    view = memoryview(block)\n"
                                     "    while view:\n"
                                     "        view = view[os.write(1, view):]\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        const QByteArray tail = "\n[stdout truncated at 1048576 bytes; the rest was discarded]\n"
                                "[stdout: 66060288 more bytes past the cap were discarded]\n";
        QCOMPARE(result.stdoutText.size(), 1048576 + tail.size());
        QVERIFY(result.stdoutText.endsWith(tail));
    }

    // The cap falls inside a two-byte character: the output is clipped before it (never
    // half a UTF-8 sequence) and the notices say where and how many bytes went.
    void outputCapClipsOnACharacterBoundary()
    {
        QVERIFY(makeProject("\"output_bytes\": 1048576"));
        RunController controller;
        const RunResult result = run(controller,
                                     "import os\n"
                                     "data = b'x' * 1048575 + '\u00e9'.encode() * 10\n"
                                     "view = memoryview(data)\n"
                                     "while view:\n"
                                     "    view = view[os.write(1, view):]\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.stdoutText,
                 QByteArray(1048575, 'x')
                     + "\n[stdout truncated at 1048575 bytes; the rest was discarded]\n"
                       "[stdout: 20 more bytes past the cap were discarded]\n");
    }

    // Stop and the run timeout while the run thread is held for 3 s (as by a long
    // validation or a handler that blocks it): the script's group is killed and the
    // final status announced while the run thread is still busy; the run ends (its
    // calls cancelled) when the thread gets there.
    void endingNeverWaitsForTheRunThread_data()
    {
        QTest::addColumn<bool>("timeout");
        QTest::addColumn<RunStatus>("status");
        QTest::newRow("stop") << false << RunStatus::Cancelled;
        QTest::newRow("run timeout") << true << RunStatus::TimedOut;
    }
    void endingNeverWaitsForTheRunThread()
    {
        QFETCH(bool, timeout);
        QFETCH(RunStatus, status);
        QVERIFY(makeProject(timeout ? "\"run_timeout_seconds\": 2" : "\"run_timeout_seconds\": 60"));
        const QString script = m_dir->filePath(QStringLiteral("scripts/main.py"));
        writeFile(script, RawBridge + "call(1, 'slow')\n");
        RunController controller;
        controller.setJournalPath(journalPath());
        QSignalSpy added(&controller, &RunController::stepsUpdated);
        QSignalSpy finished(&controller, &RunController::finished);
        std::atomic<bool> busyDone{false};
        bool busyWhenAnnounced = false;
        connect(&controller, &RunController::statusChanged, this, [&](RunStatus now) {
            if (isFinal(now))
                busyWhenAnnounced = !busyDone;
        });
        QString error;
        QVERIFY2(controller.start(*m_project, script, &error), qPrintable(error));
        QVERIFY(added.wait(20000)); // the call is in flight
        QMetaObject::invokeMethod(
            controller.engine(),
            [&busyDone, timeout] {
                QThread::sleep(timeout ? 5 : 3); // past the 2 s run timeout
                busyDone = true;
            },
            Qt::QueuedConnection);
        if (!timeout) {
            QThread::msleep(100); // let the run thread pick up the 3 s job
            controller.stop();
            QVERIFY(!busyDone); // stop() returned without waiting for the run thread
        }
        QTRY_VERIFY_WITH_TIMEOUT(controller.status() == status, 20000);
        QVERIFY(busyWhenAnnounced);
        QVERIFY(finished.wait(20000));
        QVERIFY(busyDone);
        QCOMPARE(controller.record().status, status);
        const std::vector<Step> steps = controller.engine()->steps();
        QCOMPARE(int(steps.size()), 1);
        QCOMPARE(steps[0].status, StepStatus::Cancelled);
        if (!timeout)
            QVERIFY(QString::fromStdString(steps[0].error->message).startsWith(QStringLiteral("the run was stopped")));
    }
};

QTEST_GUILESS_MAIN(TestRunBudget)
#include "tst_runbudget.moc"
