// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Console shows a run's output and step markers in the order they happened
// (issue 8): markers come through RunController's batched stepsUpdated while the
// script's stdout comes straight from its pipe, so output written after a call must
// not appear before that call's marker.
#include "consoleview.h"
#include "runcontroller.h"
#include "ui/mainwindow.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr int RunTimeoutMs = 30000;

} // namespace

class TstConsoleOrder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!qEnvironmentVariableIsEmpty("TOOLSTUDIO_SANDBOX"),
                 "TOOLSTUDIO_SANDBOX must point at the toolstudio-sandbox launcher (CTest sets it)");
    }

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
        QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                          "{\"name\": \"order\", \"default_script\": \"main\",\n"
                          " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
                          " \"tools\": [{\"name\": \"echo\", \"input_schema\": {\"type\": \"object\", \"properties\": "
                          "{\"n\": {\"type\": \"integer\"}}},\n"
                          "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": {\"ok\": true}}]}}]}\n"));

        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        QVERIFY(window.openProject(dir.path()));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.run());
        QVERIFY(finished.wait(RunTimeoutMs));

        // Markers of calls with no output between them share a line, unless the next
        // call comes later than the console's marker delay (a loaded machine): so
        // consecutive marker lines are read as one range of steps. What must hold is
        // the order: each block's output after the marker of its last call and before
        // the marker of the next block's first call.
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
        QStringList lines = window.console()->toPlainText().split(QLatin1Char('\n'));
        // The run's own lines sit between the "started" and the "finished" notices.
        QVERIFY2(lines.size() >= 3, qPrintable(window.console()->toPlainText()));
        QVERIFY2(lines.first().startsWith(QStringLiteral("\u25b6 Run ")), qPrintable(lines.first()));
        lines.removeFirst();
        const QRegularExpression marker(
            QStringLiteral("^\u25b8 steps? #(\\d+) echo(?: \u2026 #(\\d+) \\((\\d+) steps\\))?$"));
        QStringList seen;
        int first = 0, last = 0;
        for (const QString &line : std::as_const(lines)) {
            const QRegularExpressionMatch match = marker.match(line);
            if (match.hasMatch()) {
                const int from = match.captured(1).toInt();
                const int to = match.captured(2).isEmpty() ? from : match.captured(2).toInt();
                if (first == 0)
                    first = from;
                else
                    QCOMPARE(from, last + 1); // no step left out between two marker lines
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
        QCOMPARE(seen.join(QLatin1Char('\n')), expected);
        QVERIFY(window.console()->markerCount() >= 5);
    }
};

QTEST_MAIN(TstConsoleOrder)
#include "tst_consoleorder.moc"
