// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The MCP Servers dock (issue 21 §2): each server of the project with its state and
// tools, a failed one with why, and Restart — against tests/data/mcp/fakeserver.py.
#include "mcp/mcpprojecttools.h"
#include "mcp/mcpserverpool.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "ui/mcpserversview.h"

#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

class TestMcpServersView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serversWithStateToolsAndRestart();
};

void TestMcpServersView::serversWithStateToolsAndRestart()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "v", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "good"]},
  "broken": {"command": "python3", "args": ["srv/missing.py"]}}})"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    McpProjectTools::connectAndAdd(*project);
    McpServerPool *pool = McpServerPool::forProject(dir.path());

    McpServersView view;
    view.setPool(pool);
    QTreeWidget *tree = view.tree();
    QCOMPARE(tree->topLevelItemCount(), 2); // by name, as the pool keeps them
    QTreeWidgetItem *fake = tree->topLevelItem(1);
    QCOMPARE(fake->text(0), QStringLiteral("fake"));
    QCOMPARE(fake->text(1), QStringLiteral("ready · MCP 2025-06-18 · 5 tool(s)"));
    QCOMPARE(fake->childCount(), 5);
    QCOMPARE(fake->child(0)->text(0), QStringLiteral("fake__tool-0"));
    QTreeWidgetItem *broken = tree->topLevelItem(0);
    QCOMPARE(broken->text(0), QStringLiteral("broken"));
    QCOMPARE(broken->text(1), QStringLiteral("failed"));
    QCOMPARE(broken->childCount(), 1);
    QCOMPARE(broken->child(0)->text(0), QStringLiteral("why"));
    QVERIFY2(broken->child(0)->text(1).contains(QStringLiteral("missing.py")), qPrintable(broken->child(0)->text(1)));

    // Restart: nothing selected, nothing to restart; the fake server selected, it is
    // stopped, started again and listed again.
    QVERIFY(!view.restartButton()->isEnabled());
    tree->topLevelItem(1)->setSelected(true);
    QVERIFY(view.restartButton()->isEnabled());
    QStringList states;
    connect(pool, &McpServerPool::serverChanged, this, [&states, pool](const QString &name) {
        if (name == QLatin1String("fake"))
            states << McpServerStatus::stateName(pool->server(name)->state);
    });
    view.restartButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(states, QStringList({QStringLiteral("starting"), QStringLiteral("ready")}), 30000);
    QCOMPARE(tree->topLevelItem(1)->text(1), QStringLiteral("ready · MCP 2025-06-18 · 5 tool(s)"));
    QVERIFY(tree->topLevelItem(1)->isSelected());
}

QTEST_MAIN(TestMcpServersView)
#include "tst_mcpserversview.moc"
