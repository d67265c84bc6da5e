// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Console shows a run's output and step markers in the order they happened
// (issue 8, docs/trace.md "Console order"): markers come through RunController's
// batched stepsUpdated and the script's stdout through outputReceived, so output
// written after a call must not appear before that call's marker, and output written
// before a call must not appear after it.
#include "consoleview.h"
#include "run/runcontroller.h"
#include "testfiles.h"
#include "ui/mainwindow.h"
#include "ui/runcommands.h"
#include "windowfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr char EchoProject[]
    = "{\"name\": \"order\", \"default_script\": \"main\",\n"
      " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
      " \"tools\": [{\"name\": \"echo\", \"input_schema\": {\"type\": \"object\", \"properties\": "
      "{\"n\": {\"type\": \"integer\"}}},\n"
      "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": {\"ok\": true}}]}}]}\n";

/// The console's lines between the run's "started" and "finished" notices, with each
/// run of consecutive marker lines read as one range "#first-#last" (markers of calls
/// with no output between them share a line, unless the next call comes later than
/// the console's marker delay). Fails the test when a marker line leaves a step out.
QStringList consoleLines(const ConsoleView *console)
{
    QStringList lines = console->toPlainText().split(QLatin1Char('\n'));
    QStringList seen;
    if (lines.size() < 3 || !lines.first().startsWith(QStringLiteral("\u25b6 Run "))) {
        seen << QStringLiteral("unexpected console text: ") + console->toPlainText();
        return seen;
    }
    lines.removeFirst();
    const QRegularExpression marker(
        QStringLiteral("^\u25b8 steps? #(\\d+) echo(?: \u2026 #(\\d+) \\((\\d+) steps\\))?$"));
    int first = 0, last = 0;
    for (const QString &line : std::as_const(lines)) {
        const QRegularExpressionMatch match = marker.match(line);
        if (match.hasMatch()) {
            const int from = match.captured(1).toInt();
            const int to = match.captured(2).isEmpty() ? from : match.captured(2).toInt();
            if (first == 0)
                first = from;
            else if (from != last + 1) // a step left out between two marker lines
                seen << QStringLiteral("gap between #%1 and #%2").arg(last).arg(from);
            last = to;
            continue;
        }
        if (first != 0) {
            seen << QStringLiteral("#%1-#%2").arg(first).arg(last);
            first = last = 0;
        }
        if (line.startsWith(QStringLiteral("\u25a0"))) // the run's "finished" notice
            break;
        seen << line;
    }
    return seen;
}

} // namespace

class TstConsoleOrder
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(Names::Suite); }

    void outputFollowsTheMarkerOfTheCallBeforeIt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Bursts of calls come faster than one batch per frame (16 ms), and a line of
        // output follows each burst at once: without ordering it overtakes the last
        // calls' markers, still waiting in the run thread's batch. The pause lets the
        // window read that line before the next burst starts.
        QVERIFY(writeFile(dir.path() + QStringLiteral("/scripts/main.py"),
                          "import time\n"
                          "from toolstudio import tools\n"
                          "for block in range(5):\n"
                          "    for k in range(10):\n"
                          "        tools.echo(n=block * 10 + k)\n"
                          "    print('after block', block, flush=True)\n"
                          "    time.sleep(0.1)\n"
                          "print('done', flush=True)\n"));
        QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EchoProject));

        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        QVERIFY(openTrusted(window, dir.path()));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runCommands()->run());
        QVERIFY(finished.wait(RunTimeoutMs));

        // What must hold is the order: each block's output after the marker of its
        // last call and before the marker of the next block's first call.
        const QString expected = QStringLiteral("#1-#10\n"
                                                "after block 0\n"
                                                "#11-#20\n"
                                                "after block 1\n"
                                                "#21-#30\n"
                                                "after block 2\n"
                                                "#31-#40\n"
                                                "after block 3\n"
                                                "#41-#50\n"
                                                "after block 4\n"
                                                "done");
        QCOMPARE(consoleLines(window.console()).join(QLatin1Char('\n')), expected);
        QVERIFY(window.console()->markerCount() >= 5);
    }

    /// Output written just before a call shows before that call's marker, and output
    /// written just after it returned after it — also while the window's thread is too
    /// busy to read the output as it comes (here: 25 of every 30 ms). Before the
    /// output was read on the run thread, the window read it late and showed the
    /// markers of the calls made meanwhile before it.
    void outputBeforeACallPrecedesItsMarker()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        constexpr int Calls = 40;
        QVERIFY(writeFile(dir.path() + QStringLiteral("/scripts/main.py"),
                          "from toolstudio import tools\n"
                          "for i in range("
                              + QByteArray::number(Calls)
                              + "):\n"
                                "    print('before', i, flush=True)\n"
                                "    tools.echo(n=i)\n"
                                "    print('after', i, flush=True)\n"
                                "print('done', flush=True)\n"));
        QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EchoProject));

        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        QVERIFY(openTrusted(window, dir.path()));
        QTimer busy;
        busy.setInterval(30);
        connect(&busy, &QTimer::timeout, this, [] {
            QElapsedTimer spin;
            spin.start();
            while (spin.elapsed() < 25) {}
        });
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runCommands()->run());
        busy.start();
        QVERIFY(finished.wait(RunTimeoutMs));
        busy.stop();

        QStringList expected;
        for (int i = 0; i < Calls; ++i)
            expected << QStringLiteral("before %1").arg(i) << QStringLiteral("#%1-#%1").arg(i + 1)
                     << QStringLiteral("after %1").arg(i);
        expected << QStringLiteral("done");
        QCOMPARE(consoleLines(window.console()).join(QLatin1Char('\n')), expected.join(QLatin1Char('\n')));
        QCOMPARE(window.console()->markerCount(), Calls);
    }
};

QTEST_MAIN(TstConsoleOrder)
#include "tst_consoleorder.moc"
