// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a project never waits for its Python tool files (issue 18, "the GUI thread
// never waits"): the window shows the project at once with the files "loading…" in the
// Project dock, its event loop keeps turning while a tool file sleeps at import, the
// tools are swapped in when they arrive, a reload meanwhile drops the stale result, and
// Run waits for the tools.
#include "project/project.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "ui/mainwindow.h"
#include "windowfixture.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QElapsedTimer>
#include <QTimer>
#include <QTreeView>
#include <QtTest>

#include <algorithm>

namespace {

const QByteArray Manifest = "{\"name\": \"slow\", \"scripts\": [{\"path\": \"scripts/main.py\"}]}\n";

/// A tool file that sleeps `seconds` at import and offers tool `name`.
QByteArray slowToolFile(const char *name, int seconds)
{
    return QByteArray("import time\ntime.sleep(") + QByteArray::number(seconds) + ")\nclass Tools:\n    def " + name
        + "(self) -> str:\n        \"\"\"Answers.\"\"\"\n        return 'pong'\n";
}

/// The Project dock's tool list as "name|handler column" rows.
QStringList toolRows(MainWindow &window)
{
    auto *view = window.findChild<QTreeView *>(QStringLiteral("toolView"));
    if (!view)
        return {QStringLiteral("no toolView")};
    QStringList rows;
    const QAbstractItemModel *model = view->model();
    for (int row = 0; row < model->rowCount(); ++row)
        rows << model->index(row, 0).data().toString() + QLatin1Char('|') + model->index(row, 1).data().toString();
    return rows;
}

} // namespace

class TstProjectLoading
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private:
    QString m_dir;

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(Names::Suite); }

    void init()
    {
        initWindow();
        m_dir = m_scratch->path() + QStringLiteral("/slow");
        QVERIFY(writeFile(m_dir + QStringLiteral("/toolstudio.json"), Manifest));
        QVERIFY(writeFile(m_dir + QStringLiteral("/scripts/main.py"), "print('hi')\n"));
        QVERIFY(writeFile(m_dir + QStringLiteral("/tools/slow.py"), slowToolFile("ping", 2)));
        trustProject(m_dir);
    }

    void cleanup() { closeWindow(); }

    void theEventLoopTurnsWhileToolsLoad()
    {
        // A 10 ms timer: the longest gap between its ticks is how long the GUI thread
        // was kept from its events.
        QElapsedTimer sinceTick;
        qint64 maxGap = 0;
        QTimer ticker;
        ticker.setInterval(10);
        connect(&ticker, &QTimer::timeout, this, [&] { maxGap = std::max(maxGap, sinceTick.restart()); });
        QElapsedTimer opening;
        opening.start();
        QVERIFY(m_window->openProject(m_dir));
        const qint64 openMs = opening.elapsed();
        sinceTick.start();
        ticker.start();
        QVERIFY2(openMs < 1500, qPrintable(QString::number(openMs))); // the import alone sleeps 2 s

        QVERIFY(m_window->project()->pythonToolsPending);
        QCOMPARE(toolRows(*m_window), QStringList{QStringLiteral("tools/slow.py|loading…")});
        QVERIFY(!m_window->runAction()->isEnabled());
        QCOMPARE(m_window->runAction()->toolTip(), QStringLiteral("Python tools are loading…"));

        QTRY_VERIFY_WITH_TIMEOUT(!m_window->project()->pythonToolsPending, 30000);
        ticker.stop();
        QCOMPARE(toolRows(*m_window), QStringList{QStringLiteral("ping|python")});
        QVERIFY(m_window->project()->tool(QStringLiteral("ping")));
        QVERIFY(m_window->runAction()->isEnabled());
        QVERIFY2(maxGap < 500, qPrintable(QStringLiteral("longest gap between 10 ms ticks: %1 ms").arg(maxGap)));
        QVERIFY2(opening.elapsed() >= 2000, qPrintable(QString::number(opening.elapsed()))); // it did sleep
    }

    void reloadWhileLoadingDropsTheStaleResult()
    {
        QVERIFY(m_window->openProject(m_dir));
        QVERIFY(m_window->project()->pythonToolsPending);
        // The file changes while the first load runs: that load's tools ('ping') are stale.
        QVERIFY(writeFile(m_dir + QStringLiteral("/tools/slow.py"), slowToolFile("pong", 3)));
        QVERIFY(m_window->reloadProject());
        QVERIFY(m_window->project()->pythonToolsPending);
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->project()->pythonToolsPending, 30000);
        QVERIFY(m_window->project()->tool(QStringLiteral("pong")));
        QVERIFY(!m_window->project()->tool(QStringLiteral("ping")));
        QTest::qWait(500); // nothing late arrives from the first load
        QCOMPARE(toolRows(*m_window), QStringList{QStringLiteral("pong|python")});
    }

    void runWaitsForTheTools()
    {
        QVERIFY(m_window->openProject(m_dir));
        QVERIFY(!m_window->run());
        QVERIFY2(m_window->lastError().contains(QStringLiteral("Python tools are loading")),
                 qPrintable(m_window->lastError()));
        QVERIFY(!m_window->runController()->isActive());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->runAction()->isEnabled(), 30000);
    }
};

QTEST_MAIN(TstProjectLoading)
#include "tst_projectloading.moc"
