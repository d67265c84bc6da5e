// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/answerdialog.h"
#include "consoleview.h"
#include "ui/mainwindow.h"
#include "runcontroller.h"
#include "scripteditor.h"
#include "tracemodel.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

// A run starts an interpreter in the sandbox; allow for a slow, shared machine.
constexpr int RunTimeoutMs = 30000;

QString sourceDir()
{
    const QString fromEnv = qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR");
    // CTest sets it; when run by hand, the tree this file is in.
    return fromEnv.isEmpty() ? QFileInfo(QString::fromUtf8(__FILE__)).absolutePath() + QStringLiteral("/..") : fromEnv;
}

// Copies an example project into `target`, so runs journal and save into a scratch
// folder instead of the source tree.
bool copyTree(const QString &from, const QString &to)
{
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(from).relativeFilePath(path);
        if (relative.startsWith(QLatin1String(".toolstudio")))
            continue;
        const QString target = QDir(to).filePath(relative);
        if (it.fileInfo().isDir()) {
            if (!QDir().mkpath(target))
                return false;
        } else if (!QFile::copy(path, target)) {
            return false;
        }
    }
    return true;
}

QString readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

bool writeFile(const QString &path, const char *text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) >= 0;
}

QString cell(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

} // namespace

class TstMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("Tool Studio"));
        QCoreApplication::setOrganizationName(QStringLiteral("toolstudio-tests"));
        QVERIFY2(!qEnvironmentVariableIsEmpty("TOOLSTUDIO_SANDBOX"),
                 "TOOLSTUDIO_SANDBOX must point at the toolstudio-sandbox launcher (CTest sets it)");
    }

    void init()
    {
        m_scratch = std::make_unique<QTemporaryDir>();
        QVERIFY(m_scratch->isValid());
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        if (m_window && m_window->runController()->isActive()) {
            m_window->runController()->stop();
            QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        }
        m_window.reset();
        m_scratch.reset();
    }

    void startsWithoutProject()
    {
        QVERIFY(!m_window->project());
        QVERIFY(!m_window->runAction()->isEnabled());
        QVERIFY(!m_window->stopAction()->isEnabled());
        QCOMPARE(m_window->runAction()->shortcut(), QKeySequence(Qt::Key_F5));
        QCOMPARE(m_window->stopAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F5));
        QCOMPARE(m_window->openAction()->shortcut(), QKeySequence(QKeySequence::Open));
    }

    void opensExampleProject()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(m_window->openProject(dir));
        QVERIFY(m_window->project());
        QVERIFY(m_window->lastError().isEmpty());
        QCOMPARE(m_window->editor()->language(), QStringLiteral("Python"));
        QVERIFY2(m_window->editor()->text().contains(QLatin1String("get_exchange_rate")),
                 qPrintable(m_window->editor()->text()));
        QCOMPARE(m_window->editor()->filePath(), m_window->project()->defaultScriptPath());
        QVERIFY(m_window->runAction()->isEnabled());
        QVERIFY(!m_window->stopAction()->isEnabled());
        QCOMPARE(m_window->statusText(), QStringLiteral("Ready"));
    }

    void runShowsStepAndOutput()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(m_window->openProject(dir));

        m_window->runAction()->trigger();
        QVERIFY2(m_window->lastError().isEmpty(), qPrintable(m_window->lastError()));

        TraceModel *trace = m_window->traceModel();
        QTRY_COMPARE_WITH_TIMEOUT(trace->rowCount(), 1, RunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(cell(trace, 0, TraceModel::Status), QStringLiteral("succeeded"), RunTimeoutMs);
        QCOMPARE(cell(trace, 0, TraceModel::Tool), QStringLiteral("get_exchange_rate"));
        QCOMPARE(cell(trace, 0, TraceModel::Attempts), QStringLiteral("1/3"));
        QCOMPARE(cell(trace, 0, TraceModel::Summary), QStringLiteral("0.92"));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->console()->toPlainText().contains(QLatin1String("100 USD = 92.0 EUR")),
                                 RunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QVERIFY(m_window->runAction()->isEnabled());
        QVERIFY(!m_window->stopAction()->isEnabled());

        // A second run starts from an empty trace.
        m_window->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(trace->rowCount(), 1, RunTimeoutMs);
        QCOMPARE(m_window->console()->toPlainText().count(QLatin1String("100 USD = 92.0 EUR")), 1);
    }

    void runSavesTheEditedScriptFirst()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(m_window->openProject(dir));
        ScriptEditor *editor = m_window->editor();
        editor->setText(editor->text() + QStringLiteral("\nprint(\"edited in the studio\")\n"));
        QVERIFY(editor->isModified());
        QVERIFY(m_window->isWindowModified());

        m_window->runAction()->trigger();
        QVERIFY(!editor->isModified());
        QVERIFY(readFile(editor->filePath()).contains(QLatin1String("edited in the studio")));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->console()->toPlainText().contains(QLatin1String("edited in the studio")),
                                 RunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
    }

    void missingFolderReportsError()
    {
        QSignalSpy errors(m_window.get(), &MainWindow::errorReported);
        const QString missing = m_scratch->filePath(QStringLiteral("no-such-project"));
        QVERIFY(!m_window->openProject(missing)); // returns: the message box does not block
        QCOMPARE(errors.count(), 1);
        QVERIFY(!m_window->project());
        QVERIFY2(m_window->lastError().contains(QLatin1String("no-such-project")), qPrintable(m_window->lastError()));
        QVERIFY(!m_window->runAction()->isEnabled());

        // The user sees the same text in a message box.
        QMessageBox *box = m_window->findChild<QMessageBox *>();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QCOMPARE(box->text(), m_window->lastError());
        box->accept();
    }

    void malformedManifestNamesLineAndColumn()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("broken"));
        QVERIFY(QDir().mkpath(dir));
        QFile manifest(dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\n  \"name\": \"broken\",\n  \"tools\": [,]\n}\n");
        manifest.close();

        m_window->setErrorDialogsEnabled(false);
        QVERIFY(!m_window->openProject(dir));
        QVERIFY2(m_window->lastError().contains(QLatin1String("toolstudio.json:3:")), qPrintable(m_window->lastError()));
        QVERIFY(!m_window->findChild<QMessageBox *>());

        // A failed open keeps the project that was open.
        const QString good = example(QStringLiteral("exchange-rate"));
        QVERIFY(!good.isEmpty());
        QVERIFY(m_window->openProject(good));
        QVERIFY(!m_window->openProject(dir));
        QVERIFY(m_window->project());
        QCOMPARE(QDir(m_window->project()->dir).canonicalPath(), QDir(good).canonicalPath());
    }

    void manualCallIsAnsweredInTheDialog()
    {
        const QString dir = example(QStringLiteral("render-report"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(m_window->openProject(dir));
        m_window->runAction()->trigger();

        QTRY_VERIFY_WITH_TIMEOUT(m_window->answerDialog() && m_window->answerDialog()->isVisible(), RunTimeoutMs);
        AnswerDialog *dialog = m_window->answerDialog();
        QCOMPARE(dialog->tool(), QStringLiteral("render_report"));
        QCOMPARE(dialog->attempt(), 1);
        QTRY_COMPARE(m_window->statusText(), QStringLiteral("Waiting for an answer to render_report"));
        QTRY_COMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("waiting"));
        QVERIFY(m_window->answerAction()->isEnabled());

        // Bad JSON: the parse error shows inline and nothing is sent.
        dialog->resultEdit()->setPlainText(QStringLiteral("https://example.org/report.pdf"));
        QVERIFY(!dialog->sendResult());
        QVERIFY2(dialog->problem().startsWith(QLatin1String("Not valid JSON")), qPrintable(dialog->problem()));
        QVERIFY(dialog->isVisible());
        QTest::qWait(100);
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("waiting"));
        QVERIFY(m_window->runController()->isActive());

        dialog->resultEdit()->setPlainText(QStringLiteral("\"https://example.org/report.pdf\""));
        QVERIFY(dialog->problem().isEmpty());
        QVERIFY2(dialog->sendResult(), qPrintable(dialog->problem()));
        QTRY_VERIFY(!dialog->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Summary),
                 QStringLiteral("\"https://example.org/report.pdf\""));
        QVERIFY(m_window->pendingCalls().isEmpty());
        QVERIFY(!m_window->answerAction()->isEnabled());
    }

    void stopCancelsAWaitingRun()
    {
        const QString dir = example(QStringLiteral("render-report"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(m_window->openProject(dir));
        m_window->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->answerDialog() && m_window->answerDialog()->isVisible(), RunTimeoutMs);
        QVERIFY(m_window->stopAction()->isEnabled());
        QVERIFY(!m_window->runAction()->isEnabled());

        m_window->stopAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        QTRY_VERIFY(m_window->statusText().startsWith(QLatin1String("Stopped after ")));
        QVERIFY(!m_window->answerDialog()->isVisible());
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("cancelled"));
        QVERIFY(m_window->runAction()->isEnabled());
        QVERIFY(!m_window->stopAction()->isEnabled());
    }

    void pendingCallsQueueOneDialogAtATime()
    {
        // Two manual calls in flight at once: one dialog, the other call queued.
        const QString dir = m_scratch->filePath(QStringLiteral("approvals"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/scripts")));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), R"({
  "name": "approvals",
  "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "tools": [{
    "name": "approve",
    "description": "A person approves an item.",
    "input_schema": {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"]},
    "handler": {"kind": "manual"}
  }]
})"));
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"), R"(import asyncio
from toolstudio import tools, ToolError

async def main():
    results = await asyncio.gather(tools.approve(item="a"), tools.approve(item="b"), return_exceptions=True)
    for result in results:
        print(f"error: {result.message}" if isinstance(result, ToolError) else f"ok: {result}")

asyncio.run(main())
)"));
        QVERIFY(m_window->openProject(dir));
        m_window->runAction()->trigger();

        QTRY_COMPARE_WITH_TIMEOUT(m_window->pendingCalls().size(), 2, RunTimeoutMs);
        QCOMPARE(m_window->statusText(), QStringLiteral("Waiting for answers to approve and one more call"));
        AnswerDialog *dialog = m_window->answerDialog();
        QVERIFY(dialog && dialog->isVisible());
        const Step first = m_window->pendingCalls().at(0);
        const Step second = m_window->pendingCalls().at(1);
        QCOMPARE(dialog->callId(), first.callId);

        // "Later" puts the dialog away; the call keeps waiting and F6 brings it back.
        dialog->reject();
        QVERIFY(!dialog->isVisible());
        QCOMPARE(m_window->pendingCalls().size(), 2);
        QVERIFY(m_window->answerAction()->isEnabled());
        m_window->answerAction()->trigger();
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->callId(), first.callId);

        // An error needs a message; then it is sent, not retryable.
        QVERIFY(!dialog->sendError());
        QCOMPARE(dialog->problem(), QStringLiteral("Enter the error message the script should see."));
        dialog->errorMessageEdit()->setText(QStringLiteral("rejected by a person"));
        dialog->retryableCheck()->setChecked(false);
        QVERIFY2(dialog->sendError(), qPrintable(dialog->problem()));

        // The queued call comes next, in the same dialog.
        QTRY_COMPARE(m_window->pendingCalls().size(), 1);
        QTRY_VERIFY(dialog->isVisible());
        QCOMPARE(dialog->callId(), second.callId);
        QCOMPARE(m_window->statusText(), QStringLiteral("Waiting for an answer to approve"));
        dialog->resultEdit()->setPlainText(QStringLiteral("false"));
        QVERIFY2(dialog->sendResult(), qPrintable(dialog->problem()));

        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const QString console = m_window->console()->toPlainText();
        const QString firstLine = first.args.value("item", "") == "a" ? QStringLiteral("error: rejected by a person")
                                                                    : QStringLiteral("ok: False");
        QVERIFY2(console.contains(firstLine), qPrintable(console));
        TraceModel *trace = m_window->traceModel();
        const QModelIndex firstRow = trace->indexForCallId(first.callId);
        const QModelIndex secondRow = trace->indexForCallId(second.callId);
        QCOMPARE(trace->index(firstRow.row(), TraceModel::Status).data().toString(), QStringLiteral("failed"));
        QCOMPARE(trace->index(firstRow.row(), TraceModel::Summary).data().toString().endsWith(QLatin1String("rejected by a person")), true);
        QCOMPARE(trace->index(secondRow.row(), TraceModel::Status).data().toString(), QStringLiteral("succeeded"));
        QCOMPARE(trace->index(secondRow.row(), TraceModel::Summary).data().toString(), QStringLiteral("false"));
    }

private:
    // A scratch copy of resources/examples/NAME; empty (and a failure) when missing.
    QString example(const QString &name)
    {
        const QString from = sourceDir() + QStringLiteral("/resources/examples/") + name;
        if (!QFileInfo::exists(from + QStringLiteral("/toolstudio.json"))) {
            qWarning("example project missing: %s", qPrintable(from));
            return {};
        }
        const QString to = m_scratch->filePath(name);
        if (!copyTree(from, to))
            return {};
        return to;
    }

    std::unique_ptr<QTemporaryDir> m_scratch;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
