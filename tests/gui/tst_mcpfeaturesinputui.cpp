// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The Resources and Prompts window answers a 2026-07-28 server's questions in place
// (input_required of resources/read and prompts/get): the form of the Pending Calls
// dock, Accept / Decline / Cancel, then the answer as before — against
// tests/data/mcp/fakeserver.py modern-features.
#include "contentblocksview.h"
#include "mcp/mcpprojecttools.h"
#include "mcp/mcpserverpool.h"
#include "schemaform.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "ui/answerpane.h"
#include "ui/mcpinputquestionview.h"
#include "ui/mcppromptspage.h"
#include "ui/mcpresourcespage.h"
#include "ui/mcpserverbrowser.h"
#include "ui/mcpserversview.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>

#include <memory>

namespace {

template<typename T>
T *child(QObject *parent, const char *name)
{
    return parent ? parent->findChild<T *>(QLatin1String(name)) : nullptr;
}

/// A project with fakeserver.py modern-features as "fake" (its server ready) and a mock
/// model "scripted" that answers "Hello from the model"; its pool. The project in `loaded`.
McpServerPool *featuresProject(const QTemporaryDir &dir, std::optional<Project> *loaded = nullptr)
{
    writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py")));
    writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "q", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "modern-features"]}},
  "models": [{"name": "scripted", "provider": "mock", "turns": [{"content": "Hello from the model"}]}]})");
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    if (!project)
        return nullptr;
    McpProjectTools::connectAndAdd(*project);
    if (loaded)
        *loaded = project;
    McpServerPool *pool = McpServerPool::forProject(dir.path());
    if (pool)
        (void)QTest::qWaitFor([pool] { return pool->readySession(QStringLiteral("fake")) != nullptr; }, 30000);
    return pool;
}

/// The Resources and Prompts window of the fake server, shown (not deleted on close).
std::unique_ptr<McpServerBrowser> shownBrowser(McpServerPool *pool)
{
    auto browser = std::make_unique<McpServerBrowser>(pool, QStringLiteral("fake"));
    browser->setAttribute(Qt::WA_DeleteOnClose, false);
    browser->show();
    return browser;
}

} // namespace

class TestMcpFeaturesInputUi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void questionsAnsweredInTheWindow();
    void closingTheWindowEndsTheRead();
    void samplingAnsweredByAModel();
    void questionsShowInTheOrderAsked();
};

void TestMcpFeaturesInputUi::questionsAnsweredInTheWindow()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpServerPool *pool = featuresProject(dir);
    QVERIFY(pool && pool->readySession(QStringLiteral("fake")));

    const auto shown = shownBrowser(pool);
    McpServerBrowser &browser = *shown;
    auto *resources = child<QTreeWidget>(&browser, "mcpResources");
    QVERIFY(resources);
    QTRY_VERIFY_WITH_TIMEOUT(!resources->findItems(QStringLiteral("greeting"), Qt::MatchRecursive).isEmpty(), 20000);
    auto *page = browser.findChild<McpResourcesPage *>();
    auto *question = page->findChild<McpInputQuestionView *>(QStringLiteral("mcpInputQuestion"));
    auto *read = child<QPushButton>(&browser, "mcpResourceRead");
    auto *status = child<QLabel>(&browser, "mcpResourceStatus");
    auto *busy = child<QProgressBar>(&browser, "mcpResourceBusy");
    auto *content = child<ContentBlocksView>(&browser, "mcpResourceContent");
    QVERIFY(question && read && status && busy && content);
    QVERIFY(question->isHidden());

    // Read: the server asks for a name; the form shows under the URI, the read waits.
    resources->findItems(QStringLiteral("greeting"), Qt::MatchRecursive).front()->setSelected(true);
    QCOMPARE(child<QLineEdit>(&browser, "mcpResourceUri")->text(), QStringLiteral("note://greeting"));
    read->click();
    QTRY_VERIFY_WITH_TIMEOUT(question->isVisible(), 20000);
    AnswerPane *pane = question->pane();
    QCOMPARE(pane->headingLabel()->text(),
             QStringLiteral("MCP server <b>fake</b> asks a person for input to answer <b>resources/read of "
                            "&quot;note://greeting&quot;</b>"));
    QCOMPARE(pane->argumentsView()->toPlainText(), QStringLiteral("What is your name?"));
    QCOMPARE(pane->sendResultButton()->text(), QStringLiteral("&Accept"));
    QVERIFY(child<QPushButton>(pane, "declineQuestion")->isVisible());
    QVERIFY(child<QPushButton>(pane, "cancelQuestion")->isVisible());
    QVERIFY(!busy->isHidden());
    QCOMPARE(status->text(), QStringLiteral("Reading note://greeting…"));

    // A second read while the first waits is refused, said at the question.
    read->click();
    QCOMPARE(pane->clockLabel()->text(),
             QStringLiteral("resources/read of \"note://greeting\" waits for your answer to this question: answer "
                            "it or press Cancel before reading again."));
    QVERIFY(question->isVisible());

    // Accept with a name: the read is sent again and completes as before.
    auto *name = qobject_cast<QLineEdit *>(pane->resultForm()->control(QStringLiteral("/name")));
    QVERIFY(name);
    QTest::keyClicks(name, QStringLiteral("Ada"));
    pane->sendResultButton()->click();
    QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));
    QTRY_VERIFY_WITH_TIMEOUT(busy->isHidden(), 20000);
    QVERIFY(question->isHidden());
    QVERIFY2(status->text().startsWith(QStringLiteral("Read at ")), qPrintable(status->text()));
    QVERIFY2(content->toPlainText().contains(QStringLiteral("Hello, Ada! (state r-1)")),
             qPrintable(content->toPlainText()));

    // Cancel ends the read in the studio, saying so.
    read->click();
    QTRY_VERIFY_WITH_TIMEOUT(question->isVisible(), 20000);
    child<QPushButton>(pane, "cancelQuestion")->click();
    QTRY_VERIFY_WITH_TIMEOUT(busy->isHidden(), 20000);
    QCOMPARE(status->text(),
             QStringLiteral("resources/read failed: you cancelled the server's question, so the request ended"));
    QVERIFY(question->isHidden());

    // A question that cannot be asked (a URL-mode page that is no web page) is answered
    // with the error a tool call's question gets; nothing is shown.
    child<QLineEdit>(&browser, "mcpResourceUri")->setText(QStringLiteral("note://page"));
    read->click();
    QTRY_VERIFY_WITH_TIMEOUT(busy->isHidden(), 20000);
    QCOMPARE(status->text(),
             QStringLiteral("resources/read failed: the input \"page\" the server asked for was not given: -32602: "
                            "the url is not an http or https URL (\"javascript:alert(1)\"); Tool Studio opens web "
                            "pages only"));
    QVERIFY(question->isHidden());

    // Prompts: Decline goes to the server, whose error ends the get.
    child<QTabWidget>(&browser, "mcpBrowserTabs")->setCurrentIndex(1);
    auto *prompts = child<QTreeWidget>(&browser, "mcpPrompts");
    QTRY_COMPARE_WITH_TIMEOUT(prompts->topLevelItemCount(), 1, 20000);
    prompts->topLevelItem(0)->setSelected(true);
    auto *promptQuestion = browser.findChild<McpPromptsPage *>()->findChild<McpInputQuestionView *>();
    auto *promptStatus = child<QLabel>(&browser, "mcpPromptStatus");
    auto *promptBusy = child<QProgressBar>(&browser, "mcpPromptBusy");
    QVERIFY(promptQuestion && promptStatus && promptBusy);
    child<QPushButton>(&browser, "mcpPromptGet")->click();
    QTRY_VERIFY_WITH_TIMEOUT(promptQuestion->isVisible(), 20000);
    QCOMPARE(promptQuestion->pane()->argumentsView()->toPlainText(), QStringLiteral("What is your name?"));
    child<QPushButton>(promptQuestion->pane(), "declineQuestion")->click();
    QTRY_VERIFY_WITH_TIMEOUT(promptBusy->isHidden(), 20000);
    QCOMPARE(promptStatus->text(), QStringLiteral("prompts/get failed: -32001: no greeting: the person chose decline"));
    QVERIFY(promptQuestion->isHidden());

    // Then accepted: the prompt's message.
    child<QPushButton>(&browser, "mcpPromptGet")->click();
    QTRY_VERIFY_WITH_TIMEOUT(promptQuestion->isVisible(), 20000);
    auto *promptName
        = qobject_cast<QLineEdit *>(promptQuestion->pane()->resultForm()->control(QStringLiteral("/name")));
    QVERIFY(promptName);
    QTest::keyClicks(promptName, QStringLiteral("Grace"));
    promptQuestion->pane()->sendResultButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(promptBusy->isHidden(), 20000);
    QVERIFY2(child<ContentBlocksView>(&browser, "mcpPromptContent")
                 ->toPlainText()
                 .contains(QStringLiteral("Greet Grace warmly. (state p-1)")),
             qPrintable(promptStatus->text()));
}

// A window closed while its read waits for an answer ends that read: the server's
// question is no longer open in the session.
void TestMcpFeaturesInputUi::closingTheWindowEndsTheRead()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpServerPool *pool = featuresProject(dir);
    QVERIFY(pool);
    McpClientSession *session = pool->readySession(QStringLiteral("fake"));
    QVERIFY(session);
    auto *browser = new McpServerBrowser(pool, QStringLiteral("fake"));
    browser->show();
    child<QLineEdit>(browser, "mcpResourceUri")->setText(QStringLiteral("note://greeting"));
    child<QPushButton>(browser, "mcpResourceRead")->click();
    auto *question = browser->findChild<McpResourcesPage *>()->findChild<McpInputQuestionView *>();
    QTRY_VERIFY_WITH_TIMEOUT(question->isVisible(), 20000);
    QCOMPARE(session->openServerRequests(), 1u);
    browser->close(); // deletes it (WA_DeleteOnClose)
    QTRY_COMPARE_WITH_TIMEOUT(session->openServerRequests(), 0u, 5000);
    QCOMPARE(pool->readySession(QStringLiteral("fake")), session);
}

// A read's sampling request opened from the MCP Servers dock: Ask Model offers the
// project's models (the window's project), its text fills the reply, Send Reply sends it.
void TestMcpFeaturesInputUi::samplingAnsweredByAModel()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::optional<Project> project;
    McpServerPool *pool = featuresProject(dir, &project);
    QVERIFY(pool && project);
    McpServersView view;
    view.setPool(pool);
    view.setProjectLookup([&project] { return &*project; });
    const QList<QTreeWidgetItem *> rows = view.tree()->findItems(QStringLiteral("fake: "), Qt::MatchStartsWith);
    QVERIFY(!rows.isEmpty());
    rows.front()->setSelected(true);
    child<QToolButton>(&view, "mcpBrowse")->click();
    QWidget *browser = child<QWidget>(&view, "mcpBrowser");
    QVERIFY(browser);
    child<QLineEdit>(browser, "mcpResourceUri")->setText(QStringLiteral("note://sample"));
    child<QPushButton>(browser, "mcpResourceRead")->click();
    auto *question = browser->findChild<McpResourcesPage *>()->findChild<McpInputQuestionView *>();
    QTRY_VERIFY_WITH_TIMEOUT(question->isVisible(), 20000);
    AnswerPane *pane = question->pane();
    QCOMPARE(pane->headingLabel()->text(),
             QStringLiteral("MCP server <b>fake</b> asks a person to write a model's reply to answer "
                            "<b>resources/read of &quot;note://sample&quot;</b>"));
    QCOMPARE(pane->sendResultButton()->text(), QStringLiteral("Send Reply"));
    auto *chooser = child<QComboBox>(pane, "samplingModelChooser");
    QVERIFY(chooser && chooser->isEnabled());
    QCOMPARE(chooser->currentText(), QStringLiteral("scripted"));
    child<QPushButton>(pane, "askModel")->click();
    QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(pane->resultForm()->value().value("text", std::string())),
                              QStringLiteral("Hello from the model"), 20000);
    pane->sendResultButton()->click();
    QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));
    QTRY_VERIFY_WITH_TIMEOUT(child<QProgressBar>(browser, "mcpResourceBusy")->isHidden(), 20000);
    QVERIFY2(child<ContentBlocksView>(browser, "mcpResourceContent")
                 ->toPlainText()
                 .contains(QStringLiteral("The model said: Hello from the model")),
             qPrintable(child<QLabel>(browser, "mcpResourceStatus")->text()));
}

// A round of two questions, a costly sampling request (8 tools of 1024 objects, checked
// off the GUI thread) before a small form: they show in the order the server listed
// them, though the form's check is done first, and the window's timer keeps firing while
// the costly one is checked.
void TestMcpFeaturesInputUi::questionsShowInTheOrderAsked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpServerPool *pool = featuresProject(dir);
    QVERIFY(pool && pool->readySession(QStringLiteral("fake")));
    const auto shown = shownBrowser(pool);
    McpServerBrowser &browser = *shown;
    int ticks = 0;
    QTimer heartbeat;
    connect(&heartbeat, &QTimer::timeout, this, [&ticks] { ++ticks; });
    heartbeat.start(10);
    child<QLineEdit>(&browser, "mcpResourceUri")->setText(QStringLiteral("note://costly"));
    child<QPushButton>(&browser, "mcpResourceRead")->click();
    auto *question = browser.findChild<McpResourcesPage *>()->findChild<McpInputQuestionView *>();
    QVERIFY(question);
    QTRY_VERIFY_WITH_TIMEOUT(question->isVisible(), 60000);
    QVERIFY2(ticks > 0, "no timer was served while the question was checked");
    AnswerPane *pane = question->pane();
    QCOMPARE(pane->headingLabel()->text(),
             QStringLiteral("MCP server <b>fake</b> asks a person to write a model's reply to answer "
                            "<b>resources/read of &quot;note://costly&quot;</b>"));
    QTest::keyClicks(pane->resultForm()->control(QStringLiteral("/text")), QStringLiteral("hi"));
    pane->sendResultButton()->click();
    QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));
    QTRY_COMPARE_WITH_TIMEOUT(pane->headingLabel()->text(),
                              QStringLiteral("MCP server <b>fake</b> asks a person for input to answer "
                                             "<b>resources/read of &quot;note://costly&quot;</b>"),
                              20000);
    auto *name = qobject_cast<QLineEdit *>(pane->resultForm()->control(QStringLiteral("/name")));
    QVERIFY(name);
    QTest::keyClicks(name, QStringLiteral("Ada"));
    pane->sendResultButton()->click();
    QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));
    QTRY_VERIFY_WITH_TIMEOUT(child<QProgressBar>(&browser, "mcpResourceBusy")->isHidden(), 20000);
    QVERIFY(question->isHidden());
    QVERIFY2(child<ContentBlocksView>(&browser, "mcpResourceContent")
                 ->toPlainText()
                 .contains(QStringLiteral("a: hi, b: Ada")),
             qPrintable(child<QLabel>(&browser, "mcpResourceStatus")->text()));
}

QTEST_MAIN(TestMcpFeaturesInputUi)
#include "tst_mcpfeaturesinputui.moc"
