// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The run header's budget meters (issue 8 item 7): the largest request and reply come
// from the sizes the step engine measured (StepEngine::largestRequestBytes /
// largestReplyBytes), not from serialising every step again on the GUI thread.
#include "engine/stepengine.h"
#include "run/runcontroller.h"
#include "testfiles.h"
#include "ui/budgetmeters.h"
#include "ui/mainwindow.h"
#include "ui/runcommands.h"
#include "windowfixture.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TstBudgetMeter
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(Names::Suite); }

    void largestRequestAndReplyAreTheEngineSizes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Requests: {"s":"<2048 x>"} = 2056 bytes, and a smaller one; the reply
        // {"r":"<3072 y>"} = 3080 bytes.
        QVERIFY(writeFile(dir.path() + QStringLiteral("/scripts/main.py"),
                          "from toolstudio import tools\n"
                          "tools.echo(s='x' * 2048)\n"
                          "tools.echo(s='x')\n"));
        const QByteArray reply = "{\"r\": \"" + QByteArray(3072, 'y') + "\"}";
        QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                          "{\"name\": \"budget\", \"default_script\": \"main\",\n"
                          " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
                          " \"tools\": [{\"name\": \"echo\", \"input_schema\": {\"type\": \"object\", \"properties\": "
                          "{\"s\": {\"type\": \"string\"}}},\n"
                          "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": "
                              + reply + "}]}}]}\n"));

        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        QVERIFY(openTrusted(window, dir.path()));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runCommands()->run());
        QVERIFY(finished.wait(RunTimeoutMs));
        QCOMPARE(window.runController()->engine()->largestRequestBytes(), qint64(2056));
        QCOMPARE(window.runController()->engine()->largestReplyBytes(), qint64(3080));
        auto *meters = window.findChild<QLabel *>(QStringLiteral("budgetMeters"));
        QVERIFY(meters);
        // Number and unit are joined by a no-break space: a wrapped line keeps "2.0 KiB" whole.
        QVERIFY2(meters->text().contains(QStringLiteral("largest request 2.0\u00a0KiB of ")),
                 qPrintable(meters->text()));
        QVERIFY2(meters->text().contains(QStringLiteral("largest reply 3.0\u00a0KiB of ")), qPrintable(meters->text()));
        QVERIFY2(!meters->text().contains(QStringLiteral(" KiB")) && !meters->text().contains(QStringLiteral(" MiB")),
                 qPrintable(meters->text()));
    }

    /// A run from the journal: its wall time keeps number and unit together, so the
    /// wrapped line never reads "5.2" at one line's end and "s" at the next one's start.
    void recordedRunsDurationStaysWhole()
    {
        RunController run;
        BudgetMeters meters(&run, [] { return nullptr; });
        RunRecord record;
        record.id = QStringLiteral("r1");
        record.status = RunStatus::Completed;
        record.startedAt = 1000;
        record.endedAt = 6200;
        meters.showRecorded(record, 5, false);
        QCOMPARE(meters.text(),
                 QStringLiteral("Run r1 from the journal: 5 step(s), completed, 5.2\u00a0s from start "
                                "to end · the meters count the live run"));
    }

    /// A project with models: its model calls of max_model_calls and the tokens its
    /// replies used (the mock turns' usage: 52 + 18 + 71 + 12) of max_tokens.
    void modelCallsAndTokensAreMetered()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString project = copyExample(QStringLiteral("model-agent"), dir.path());
        QVERIFY(!project.isEmpty());
        QFile manifest(project + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QByteArray text = manifest.readAll();
        manifest.close();
        text.replace("\"name\": \"model-agent\",", "\"name\": \"model-agent\", \"limits\": {\"max_tokens\": 200},");
        QVERIFY(writeFile(manifest.fileName(), text));

        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        QVERIFY(openTrusted(window, project));
        auto *meters = window.findChild<QLabel *>(QStringLiteral("budgetMeters"));
        QVERIFY(meters);
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runCommands()->run());
        QVERIFY(finished.wait(RunTimeoutMs));
        QCOMPARE(window.runController()->engine()->tokensUsed(), qint64(153));
        QVERIFY2(meters->text().contains(QStringLiteral("model calls 2/50 · tokens 153/200")),
                 qPrintable(meters->text()));

        // Issue 20: another project opened, its meters start from zero (not the last
        // project's calls and tokens against the new project's limits).
        const QString other = copyExample(QStringLiteral("exchange-rate"), dir.path());
        QVERIFY(openTrusted(window, other));
        QVERIFY2(meters->text().startsWith(QStringLiteral("calls 0/")), qPrintable(meters->text()));
        QVERIFY2(meters->text().contains(QStringLiteral("elapsed 0\u00a0ms of ")), qPrintable(meters->text()));
        QVERIFY2(!meters->text().contains(QStringLiteral("model calls")), qPrintable(meters->text()));
    }
};

QTEST_MAIN(TstBudgetMeter)
#include "tst_budgetmeter.moc"
