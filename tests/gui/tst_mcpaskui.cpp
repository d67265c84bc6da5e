// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// An MCP server's elicitation answered from the Pending Calls dock (issue 21 part 4,
// docs/mcp.md "A server's requests"): a script calls fake__ask of
// tests/data/mcp/fakeserver.py (`asks` mode) in the window; the server's
// elicitation/create makes the step wait; the dock shows its message and a form from
// its requestedSchema; Accept sends the form's values and the script prints what the
// server got.
#include "consoleview.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "schemaform.h"
#include "stepinspector.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "ui/answerpane.h"
#include "ui/mainwindow.h"
#include "ui/pendingcallspanel.h"
#include "ui/runcommands.h"
#include "ui/toolpanel.h"
#include "ui/tracepanel.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>
#include <QUrl>

class TstMcpAskUi
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }
    void init() { initWindow(); }
    void cleanup() { closeWindow(); }

    /// nc-shot6/7: a tool selected in the MCP Servers dock shows in the Tool dock, as one
    /// selected in the Project dock does; the MCP Servers dock stays in view above it.
    void aToolChosenInTheMcpServersDockShowsInTheToolDock()
    {
        const QString dir = m_scratch->path() + QStringLiteral("/pick");
        QVERIFY(writeFile(dir + QStringLiteral("/srv/fakeserver.py"), fileBytes(mcpFixture("fakeserver.py"))));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), R"({"name": "pick",
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})"));
        QVERIFY(openTrusted(*m_window, dir));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->project()->tool(QStringLiteral("fake__ask")), 30000);
        auto *mcpDock = m_window->findChild<QDockWidget *>(QStringLiteral("mcpDock"));
        QVERIFY(mcpDock);
        QTRY_VERIFY(mcpDock->isVisible());
        mcpDock->raise();
        auto *tree = mcpDock->findChild<QTreeWidget *>(QStringLiteral("mcpServers"));
        QVERIFY(tree);
        const QList<QTreeWidgetItem *> rows
            = tree->findItems(QStringLiteral("fake__ask"), Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(rows.size(), 1);
        auto *heading = m_window->toolPanel()->findChild<QLabel *>(QStringLiteral("toolHeading"));
        QVERIFY(heading);
        docks().at(3)->raise(); // the Step tab in front of the Tool tab
        tree->clearSelection();
        rows.front()->setSelected(true);
        QVERIFY2(heading->text().startsWith(QStringLiteral("fake__ask")), qPrintable(heading->text()));
        QVERIFY(!m_window->toolPanel()->form()->isHidden());
        QTRY_VERIFY(!docks().at(1)->visibleRegion().isEmpty()); // the Tool tab brought forward
        QVERIFY(!mcpDock->visibleRegion().isEmpty());
    }

    void elicitationAnsweredFromTheDock()
    {
        const QString dir = m_scratch->path() + QStringLiteral("/ask");
        QVERIFY(writeFile(dir + QStringLiteral("/srv/fakeserver.py"), fileBytes(mcpFixture("fakeserver.py"))));
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"),
                          "from toolstudio import tools\n"
                          "print(tools['fake__ask'](only=['elicit'])['content'][0]['text'])\n"));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"),
                          R"({"name": "ask", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})"));
        QVERIFY(openTrusted(*m_window, dir));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->project()->tool(QStringLiteral("fake__ask")), 30000);
        QSignalSpy finished(m_window->runController(), &RunController::finished);
        QVERIFY(m_window->runCommands()->run());

        AnswerPane *pane = m_window->pendingPanel()->answerPane();
        const bool asked = QTest::qWaitFor(
            [pane, &finished] {
                return (pane->question().is_object() && !pane->callId().isEmpty()) || !finished.isEmpty();
            },
            RunTimeoutMs);
        QVERIFY2(asked && pane->question().is_object(), qPrintable(part<ConsoleView>("console")->toPlainText()));
        QCOMPARE(pendingList()->count(), 1);
        QVERIFY2(
            pendingList()->item(0)->text().startsWith(QStringLiteral("#1 fake__ask (its server asks: input, waiting ")),
            qPrintable(pendingList()->item(0)->text()));
        QVERIFY(pendingList()->item(0)->text().endsWith(QStringLiteral(") Who are you?")));
        QCOMPARE(pane->argumentsView()->toPlainText(), QStringLiteral("Who are you?"));
        // The step's Protocol tab follows the running attempt (McpServerPool::liveExchange):
        // the call as sent and the server's request so far.
        m_window->tracePanel()->selectStep(pane->callId());
        auto *protocolTabs = m_window->stepInspector()->findChild<QTabWidget *>();
        auto *protocol = m_window->stepInspector()->findChild<QWidget *>(QStringLiteral("stepProtocol"));
        QVERIFY(protocolTabs && protocol);
        QTRY_VERIFY_WITH_TIMEOUT(protocolTabs->isTabVisible(protocolTabs->indexOf(protocol)), 5000);
        auto *attempt = protocol->findChild<QComboBox *>(QStringLiteral("protocolAttempt"));
        auto *messages = protocol->findChild<QTreeWidget *>(QStringLiteral("protocolMessages"));
        QVERIFY(attempt && messages);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 1 (running)"));
        QTRY_COMPARE_WITH_TIMEOUT(messages->topLevelItemCount(), 2, 5000);
        QVERIFY2(messages->topLevelItem(0)->text(1).startsWith(QStringLiteral("→ request tools/call #")),
                 qPrintable(messages->topLevelItem(0)->text(1)));
        QCOMPARE(messages->topLevelItem(1)->text(1), QStringLiteral("← request elicitation/create #elicit-1"));
        QCOMPARE(pane->sendResultButton()->text(), QStringLiteral("&Accept"));
        auto *decline = pane->findChild<QPushButton *>(QStringLiteral("declineQuestion"));
        QVERIFY(decline && decline->isVisible());
        QVERIFY(pane->usesForm());

        // The form is the server's requestedSchema: "name" (required) and "age" (optional).
        QVERIFY(pane->resultForm()->control(QStringLiteral("/age"), QStringLiteral("include")));
        auto *name = qobject_cast<QLineEdit *>(pane->resultForm()->control(QStringLiteral("/name")));
        QVERIFY(name);
        QTest::keyClicks(name, QStringLiteral("Ada"));
        const QString callId = pane->callId();
        QCOMPARE(pane->headingLabel()->text(),
                 QStringLiteral("MCP server <b>fake</b> asks a person for input during <b>fake__ask</b><br><small>Call "
                                "%1, step #1</small>")
                     .arg(callId));
        pane->sendResultButton()->click();
        QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));
        QTRY_COMPARE(pane->headingLabel()->text(),
                     QStringLiteral("The question of MCP server <b>fake</b> during <b>fake__ask</b> is closed: "
                                    "answered, or taken back by the server<br><small>Call %1, step #1</small>")
                         .arg(callId));

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, RunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            part<ConsoleView>("console")->toPlainText().contains(QStringLiteral(
                R"({"elicit": {"id": "elicit-1", "result": {"action": "accept", "content": {"name": "Ada"}}}})")),
            5000);
        // Ended: its journaled record, the answer and the result included.
        QTRY_COMPARE_WITH_TIMEOUT(attempt->currentText(), QStringLiteral("Attempt 1"), 5000);
        QCOMPARE(messages->topLevelItemCount(), 4);
        QVERIFY2(messages->topLevelItem(3)->text(1).startsWith(QStringLiteral("← response #")),
                 qPrintable(messages->topLevelItem(3)->text(1)));
    }

    // URL mode: the dock shows the message, the page and its host, no form; Open in
    // Browser asks first (refused: nothing opens, nothing is sent), then opens the page
    // and answers {"action": "accept"}.
    void urlElicitationOpensThePageAfterAsking()
    {
        const QString dir = m_scratch->path() + QStringLiteral("/askurl");
        QVERIFY(writeFile(dir + QStringLiteral("/srv/fakeserver.py"), fileBytes(mcpFixture("fakeserver.py"))));
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"),
                          "from toolstudio import tools\n"
                          "print(tools['fake__askurl']()['content'][0]['text'])\n"));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"),
                          R"({"name": "askurl", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})"));
        QVERIFY(openTrusted(*m_window, dir));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->project()->tool(QStringLiteral("fake__askurl")), 30000);
        QSignalSpy finished(m_window->runController(), &RunController::finished);
        QSignalSpy opened(m_window->runController(), &RunController::pendingCallOpened);
        QVERIFY(m_window->runCommands()->run());

        AnswerPane *pane = m_window->pendingPanel()->answerPane();
        QVERIFY(QTest::qWaitFor([pane] { return pane->question().is_object() && !pane->callId().isEmpty(); },
                                RunTimeoutMs));
        QCOMPARE(opened.size(), 1);
        const Step asked = opened.at(0).at(0).value<Step>();
        QCOMPARE(pane->argumentsView()->toPlainText(),
                 QStringLiteral("It asks you to open a page on example.org in your browser:\n"
                                "https://example.org/set-key?session=1\n\nIts message:\n> Set your API key"));
        QCOMPARE(pane->sendResultButton()->text(), QStringLiteral("&Open in Browser…"));
        QVERIFY(!pane->resultForm()->isVisible());
        QVERIFY(!pane->resultEdit()->isVisible());

        QStringList confirmed;
        QList<QUrl> pages;
        bool agree = false;
        pane->setOpenConfirmer([&](const QString &server, const QString &host, const QString &url) {
            confirmed << server + u' ' + host + u' ' + url;
            return agree;
        });
        pane->setPageOpener([&](const QUrl &url) {
            pages << url;
            return true;
        });
        pane->sendResultButton()->click();
        QCOMPARE(confirmed, QStringList{QStringLiteral("fake example.org https://example.org/set-key?session=1")});
        QVERIFY(pages.isEmpty());
        QVERIFY(!pane->callId().isEmpty()); // still waiting

        // The server swaps the page while the person decides (attack30 F1): nothing opens.
        Step swapped = asked;
        (*swapped.attempts.back().question)["serial"] = 2;
        (*swapped.attempts.back().question)["url"] = "https://second.example/grant";
        pane->setOpenConfirmer([&](const QString &, const QString &, const QString &) {
            pane->setCall(swapped);
            return true;
        });
        pane->sendResultButton()->click();
        QVERIFY(pages.isEmpty());
        QCOMPARE(pane->problem(),
                 QStringLiteral("The server withdrew that page while you decided; nothing was opened. Read what it "
                                "asks now."));
        pane->setCall(asked);
        pane->setOpenConfirmer([](const QString &, const QString &, const QString &) { return true; });
        pane->sendResultButton()->click();
        QCOMPARE(pages, QList<QUrl>{QUrl(QStringLiteral("https://example.org/set-key?session=1"))});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, RunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(part<ConsoleView>("console")->toPlainText().contains(
                                     QStringLiteral(R"({"id": "url-1", "result": {"action": "accept"}})")),
                                 5000);
    }
};

QTEST_MAIN(TstMcpAskUi)
#include "tst_mcpaskui.moc"
