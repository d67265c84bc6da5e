// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The MCP Servers dock (issue 21 §2): each server of the project with its state and
// tools, a failed one with why, and Restart — against tests/data/mcp/fakeserver.py.
#include "contentblocksview.h"
#include "mcp/mcpprojecttools.h"
#include "mcp/mcpserverpool.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "ui/mcpserverbrowser.h"
#include "ui/mcpserversview.h"
#include "ui/mcptoolchangesdialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTimer>

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <optional>

class TestMcpServersView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void serversWithStateToolsAndRestart();
    void olderHttpSseServerShowsItsTransport();
    void browseResourcesAndPrompts();
    void serverWithoutResourcesSaysSo();
    void signInIsForRemoteServers();
    void changedToolIsMarkedAndReviewed();
};

namespace {

/// How many resources/read fakeresources.py was sent (its tool "counts").
int resourceReads(McpServerPool *pool)
{
    McpClientSession *session = pool->readySession(QStringLiteral("fake"));
    if (!session)
        return -1;
    std::optional<int> reads;
    session->callTool(QStringLiteral("counts"), nlohmann::json::object(), nullptr, [&reads](const McpReply &reply) {
        const nlohmann::json counts
            = nlohmann::json::parse(reply.result["content"][0].value("text", std::string("{}")), nullptr, false);
        reads = counts.is_object() ? counts.value("resources/read", 0) : -1;
    });
    (void)QTest::qWaitFor([&reads] { return reads.has_value(); }, 20000);
    return reads.value_or(-1);
}

/// A child of `parent` by object name, or a failed QVERIFY in the caller (check null).
template<typename T>
T *child(QObject *parent, const char *name)
{
    return parent ? parent->findChild<T *>(QLatin1String(name)) : nullptr;
}

/// The item of `tree` whose first column reads `text`, at any depth.
QTreeWidgetItem *itemNamed(QTreeWidget *tree, const QString &text)
{
    const QList<QTreeWidgetItem *> found = tree->findItems(text, Qt::MatchExactly | Qt::MatchRecursive);
    return found.isEmpty() ? nullptr : found.front();
}

/// A project with fakeresources.py as "fake" (mode good) and "bare" (tools only),
/// connected; the pool of its servers.
McpServerPool *resourcesProject(const QTemporaryDir &dir)
{
    writeFile(dir.filePath(QStringLiteral("srv/fakeresources.py")), fileBytes(mcpFixture("fakeresources.py")));
    writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "b", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeresources.py", "good"]},
  "bare": {"command": "python3", "args": ["srv/fakeresources.py", "tools-only"]}}})");
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    if (!project)
        return nullptr;
    McpProjectTools::connectAndAdd(*project);
    return McpServerPool::forProject(dir.path());
}

/// The row of server `name` ("name: its state", across the columns).
QTreeWidgetItem *serverRow(QTreeWidget *tree, const QString &name)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0).startsWith(name + QLatin1Char(':')))
            return tree->topLevelItem(i);
    return nullptr;
}

/// Selects the server row `name` in the dock and clicks Browse…; the window it opened.
QWidget *browse(McpServersView &view, const QString &name)
{
    QTreeWidgetItem *row = serverRow(view.tree(), name);
    if (!row)
        return nullptr;
    view.tree()->clearSelection();
    row->setSelected(true);
    auto *button = child<QToolButton>(&view, "mcpBrowse");
    if (!button || !button->isEnabled())
        return nullptr;
    button->click();
    return child<QWidget>(&view, "mcpBrowser");
}

} // namespace

// A url server without a type that answered only over the older HTTP+SSE transport
// shows it beside the revision (tests/data/mcp/fakesseserver.py).
void TestMcpServersView::olderHttpSseServerShowsItsTransport()
{
    QProcess fake;
    fake.start(QStandardPaths::findExecutable(QStringLiteral("python3")), {mcpFixture("fakesseserver.py")});
    QVERIFY(fake.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(fake.canReadLine(), 30000);
    const QByteArray port = fake.readLine().trimmed();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      "{\"name\": \"s\", \"mcp_servers\": {\"old\": {\"url\": \"http://127.0.0.1:" + port
                          + "/sse/good\"}}}"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    McpProjectTools::connectAndAdd(*project);
    McpServersView view;
    view.setPool(McpServerPool::forProject(dir.path()));
    QCOMPARE(view.tree()->topLevelItemCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(view.tree()->topLevelItem(0)->text(0),
                              QStringLiteral("old: ready · MCP 2024-11-05, HTTP+SSE · 2 tool(s)"), 30000);
    fake.kill();
    fake.waitForFinished();
}

void TestMcpServersView::serversWithStateToolsAndRestart()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "v", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "good"]},
  "broken": {"command": "python3", "args": ["srv/missing.py"]},
  "m26": {"command": "python3", "args": ["srv/fakeserver.py", "modern"]}}})"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    McpProjectTools::connectAndAdd(*project);
    McpServerPool *pool = McpServerPool::forProject(dir.path());

    McpServersView view;
    view.setPool(pool);
    QTreeWidget *tree = view.tree();
    QCOMPARE(tree->topLevelItemCount(), 3); // by name, as the pool keeps them
    // A 2026-07-28 server shows its era with the revision.
    QCOMPARE(tree->topLevelItem(2)->text(0), QStringLiteral("m26: ready · MCP 2026-07-28, stateless · 3 tool(s)"));
    QTreeWidgetItem *fake = tree->topLevelItem(1);
    // A server's row spans the columns, its state beside its name; the second column is
    // its tools' titles.
    QCOMPARE(fake->text(0), QStringLiteral("fake: ready · MCP 2025-06-18 · 5 tool(s)"));
    QVERIFY(tree->isFirstColumnSpanned(1, QModelIndex()));
    QCOMPARE(tree->headerItem()->text(1), QStringLiteral("Title"));
    QCOMPARE(fake->childCount(), 5);
    QCOMPARE(fake->child(0)->text(0), QStringLiteral("fake__tool-0"));
    QTreeWidgetItem *broken = tree->topLevelItem(0);
    QCOMPARE(broken->text(0), QStringLiteral("broken: failed"));
    QCOMPARE(broken->childCount(), 1);
    QTreeWidgetItem *why = broken->child(0);
    QVERIFY2(why->text(0).startsWith(QStringLiteral("why: ")), qPrintable(why->text(0)));
    QVERIFY2(why->text(0).contains(QStringLiteral("missing.py")), qPrintable(why->text(0)));
    QVERIFY(tree->isFirstColumnSpanned(0, tree->indexFromItem(broken)));
    // The whole reason where the pointer is: the row is cut in a narrow dock.
    QVERIFY2(why->toolTip(0).contains(QStringLiteral("missing.py")), qPrintable(why->toolTip(0)));

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
    QCOMPARE(tree->topLevelItem(1)->text(0), QStringLiteral("fake: ready · MCP 2025-06-18 · 5 tool(s)"));
    QVERIFY(tree->topLevelItem(1)->isSelected());

    // A tool's row selected: the window shows it in the Tool dock (toolSelected); a
    // server's row is no tool. The tool stays selected when the rows are listed again,
    // without a second toolSelected; Restart still restarts its server.
    QSignalSpy toolSelected(&view, &McpServersView::toolSelected);
    tree->clearSelection();
    QCOMPARE(toolSelected.count(), 0);
    tree->topLevelItem(1)->child(2)->setSelected(true);
    QCOMPARE(toolSelected.count(), 1);
    QCOMPARE(toolSelected.at(0).at(0).toString(), QStringLiteral("fake__tool-2"));
    QVERIFY(view.restartButton()->isEnabled());
    states.clear();
    view.restartButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(states, QStringList({QStringLiteral("starting"), QStringLiteral("ready")}), 30000);
    QVERIFY(tree->topLevelItem(1)->child(2)->isSelected());
    QCOMPARE(toolSelected.count(), 1);
    tree->clearSelection();
    tree->topLevelItem(0)->setSelected(true);
    QCOMPARE(toolSelected.count(), 1);
}

void TestMcpServersView::browseResourcesAndPrompts()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpServerPool *pool = resourcesProject(dir);
    QVERIFY(pool);
    McpServersView view;
    view.setPool(pool);
    QVERIFY(!child<QToolButton>(&view, "mcpBrowse")->isEnabled()); // nothing selected
    QWidget *browser = browse(view, QStringLiteral("fake"));
    QVERIFY(browser);
    QVERIFY(browser->isWindow());
    auto *resources = child<QTreeWidget>(browser, "mcpResources");
    QVERIFY(resources);
    QTRY_VERIFY(itemNamed(resources, QStringLiteral("Resources (6)")));
    QTRY_VERIFY(itemNamed(resources, QStringLiteral("Templates (2)")));
    auto *note = child<QLabel>(browser, "mcpResourcesNote");
    QCOMPARE(note->text(),
             QStringLiteral("resources/list: 5 entries left out (a name or uri missing, a uri with "
                            "control characters or too long)"));

    // A server's description is a tooltip as text: its markup escaped (an <img> would be
    // loaded by the tooltip), its escape sequences printable.
    QCOMPARE(itemNamed(resources, QStringLiteral("passwd"))->toolTip(0),
             QStringLiteral("<p style=\"white-space: pre-wrap\">file:///etc/passwd\n\\u001b[31mred\\u001b[0m "
                            "&lt;img src=&quot;file:///etc/hostname&quot;&gt;&lt;b&gt;bold&lt;/b&gt;</p>"));

    // A text resource: picked, read (the busy bar shows while the request is open, the
    // window is never blocked), shown, copied.
    auto *uri = child<QLineEdit>(browser, "mcpResourceUri");
    auto *read = child<QPushButton>(browser, "mcpResourceRead");
    auto *busy = child<QProgressBar>(browser, "mcpResourceBusy");
    auto *status = child<QLabel>(browser, "mcpResourceStatus");
    auto *content = child<ContentBlocksView>(browser, "mcpResourceContent");
    QVERIFY(uri && read && busy && status && content);
    itemNamed(resources, QStringLiteral("Notes"))->setSelected(true);
    QCOMPARE(uri->text(), QStringLiteral("file:///notes.txt"));
    read->click();
    QVERIFY(!busy->isHidden());
    QCOMPARE(status->text(), QStringLiteral("Reading file:///notes.txt…"));
    QTRY_VERIFY(busy->isHidden());
    QVERIFY2(status->text().startsWith(QStringLiteral("Read at ")), qPrintable(status->text()));
    QVERIFY2(content->toPlainText().contains(QStringLiteral("hello notes")), qPrintable(content->toPlainText()));
    child<QPushButton>(browser, "mcpResourceCopy")->click();
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("hello notes"));
    QVERIFY(child<QPushButton>(browser, "mcpResourceSave")->isEnabled());

    // An image blob is rendered; a blob that is not base64 is said so, and not saveable.
    resources->clearSelection();
    itemNamed(resources, QStringLiteral("pixel.png"))->setSelected(true);
    read->click();
    QTRY_VERIFY(busy->isHidden());
    QCOMPARE(content->imageCount(), 1);
    resources->clearSelection();
    itemNamed(resources, QStringLiteral("broken.bin"))->setSelected(true);
    read->click();
    QTRY_VERIFY(busy->isHidden());
    QVERIFY2(status->text().endsWith(
                 QStringLiteral("Not shown: file:///broken.bin: its blob is not valid base64 (11 characters)")),
             qPrintable(status->text()));
    QVERIFY2(content->toPlainText().contains(QStringLiteral("a blob that is not base64 (11 characters): not shown")),
             qPrintable(content->toPlainText()));
    QVERIFY(!child<QPushButton>(browser, "mcpResourceSave")->isEnabled());

    // A javascript: resource: its text shown as text, not as markup, not run.
    resources->clearSelection();
    itemNamed(resources, QStringLiteral("script"))->setSelected(true);
    read->click();
    QTRY_VERIFY(busy->isHidden());
    QVERIFY2(content->toPlainText().contains(QStringLiteral("<script>alert(1)</script><b>bold</b>")),
             qPrintable(content->toPlainText()));

    // A template: a field per variable makes the URI; one beyond level 1 is said so.
    resources->clearSelection();
    itemNamed(resources, QStringLiteral("note"))->setSelected(true);
    auto *folder = child<QLineEdit>(browser, "mcpTemplateVar_folder");
    auto *name = child<QLineEdit>(browser, "mcpTemplateVar_name");
    QVERIFY(folder && name);
    QTest::keyClicks(folder, QStringLiteral("a b"));
    QTest::keyClicks(name, QStringLiteral("c"));
    QCOMPARE(uri->text(), QStringLiteral("file:///notes/a%20b/c"));
    read->click();
    QTRY_VERIFY(busy->isHidden());
    QVERIFY2(content->toPlainText().contains(QStringLiteral("note at file:///notes/a%20b/c")),
             qPrintable(content->toPlainText()));
    resources->clearSelection();
    itemNamed(resources, QStringLiteral("search"))->setSelected(true);
    QVERIFY(!child<QLineEdit>(browser, "mcpTemplateVar_folder"));
    QVERIFY2(child<QLabel>(browser, "mcpTemplateNote")->text().contains(QStringLiteral("beyond RFC 6570 level 1")),
             qPrintable(child<QLabel>(browser, "mcpTemplateNote")->text()));

    // An error in place: a resource the server does not have.
    uri->setText(QStringLiteral("file:///nothing"));
    read->click();
    QTRY_VERIFY(busy->isHidden());
    QCOMPARE(status->text(), QStringLiteral("resources/read failed: -32002: Resource not found: file:///nothing"));

    // Subscribe: the server says the resource changed, and it is read again.
    resources->clearSelection();
    itemNamed(resources, QStringLiteral("Notes"))->setSelected(true);
    auto *subscribe = child<QCheckBox>(browser, "mcpResourceSubscribe");
    QVERIFY(subscribe->isEnabled());
    subscribe->setChecked(true);
    QTRY_COMPARE(note->text(),
                 QStringLiteral("Subscribed to file:///notes.txt: it is read again when the server says it changed."));
    QTRY_VERIFY(content->toPlainText().contains(QStringLiteral("hello notes")));
    QTRY_VERIFY(busy->isHidden());

    // A flood of updates is one read at a time and one more after it, not a read each
    // (attack33 F2: 100 000 updates were as many resources/read).
    const int readsBefore = resourceReads(pool);
    for (int n = 0; n < 100; ++n)
        Q_EMIT pool->resourceUpdated(QStringLiteral("fake"), QStringLiteral("file:///notes.txt"));
    QTRY_COMPARE_WITH_TIMEOUT(resourceReads(pool), readsBefore + 2, 20000);
    QTest::qWait(300); // a read more would have been sent by now
    QTRY_VERIFY(busy->isHidden());
    QCOMPARE(resourceReads(pool), readsBefore + 2);

    // Prompts: the form marks the required argument; Get without it asks for it in
    // place; with it, the messages with their roles.
    child<QTabWidget>(browser, "mcpBrowserTabs")->setCurrentIndex(1);
    auto *prompts = child<QTreeWidget>(browser, "mcpPrompts");
    QTRY_COMPARE(prompts->topLevelItemCount(), 2);
    QCOMPARE(child<QLabel>(browser, "mcpPromptsNote")->text(),
             QStringLiteral("2 prompts left out (no name, arguments that are not a list of named arguments)"));
    prompts->topLevelItem(0)->setSelected(true);
    auto *who = child<QLineEdit>(browser, "mcpPromptArg_name");
    QVERIFY(who && child<QLineEdit>(browser, "mcpPromptArg_style"));
    const QList<QLabel *> labels = child<QGroupBox>(browser, "mcpPromptArguments")->findChildren<QLabel *>();
    QStringList texts;
    for (const QLabel *label : labels)
        texts << label->text();
    QCOMPARE(texts.join(u','), QStringLiteral("name *:,style:"));
    auto *get = child<QPushButton>(browser, "mcpPromptGet");
    auto *promptStatus = child<QLabel>(browser, "mcpPromptStatus");
    auto *promptBusy = child<QProgressBar>(browser, "mcpPromptBusy");
    auto *messages = child<ContentBlocksView>(browser, "mcpPromptContent");
    get->click();
    QCOMPARE(promptStatus->text(), QStringLiteral("Fill in the required arguments: name"));
    QVERIFY(promptBusy->isHidden());
    QTest::keyClicks(who, QStringLiteral("Ada"));
    get->click();
    QTRY_VERIFY(promptBusy->isHidden());
    QCOMPARE(promptStatus->text(), QStringLiteral("a greeting\n2 message(s)."));
    const QString shown = messages->toPlainText();
    QVERIFY2(shown.contains(QStringLiteral("1 · user · text")) && shown.contains(QStringLiteral("Hello, Ada!"))
                 && shown.contains(QStringLiteral("2 · assistant · text")),
             qPrintable(shown));
    child<QPushButton>(browser, "mcpPromptCopy")->click();
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("user: Hello, Ada!\nassistant: Hi!"));

    // Content types the studio does not know are named, left to the tree.
    prompts->clearSelection();
    prompts->topLevelItem(1)->setSelected(true);
    get->click();
    QTRY_VERIFY(promptBusy->isHidden());
    const QString odd = messages->toPlainText();
    QVERIFY2(odd.contains(QStringLiteral("1 · user · hologram"))
                 && odd.contains(QStringLiteral("not shown here: see the Tree tab"))
                 && odd.contains(QStringLiteral("2 · \\u001b[2Jsystem · text"))
                 && odd.contains(QStringLiteral("image/png: not shown: its data is not base64")),
             qPrintable(odd));
    QCOMPARE(promptStatus->text(),
             QStringLiteral("3 message(s).\n2 message(s) left out: not an object with a content object"));

    // Browse… again raises the same window.
    QCOMPARE(browse(view, QStringLiteral("fake")), browser);
    QCOMPARE(view.findChildren<McpServerBrowser *>().size(), 1);
    browser->close();
}

void TestMcpServersView::serverWithoutResourcesSaysSo()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpServerPool *pool = resourcesProject(dir);
    QVERIFY(pool);
    McpServersView view;
    view.setPool(pool);
    QWidget *browser = browse(view, QStringLiteral("bare"));
    QVERIFY(browser);
    QCOMPARE(child<QLabel>(browser, "mcpResourcesNote")->text(),
             QStringLiteral("the server declares no \"resources\" capability in its initialize result: it offers "
                            "none, so the studio does not ask"));
    QCOMPARE(child<QLabel>(browser, "mcpPromptsNote")->text(),
             QStringLiteral("the server declares no \"prompts\" capability in its initialize result: it offers none, "
                            "so the studio does not ask"));
    QVERIFY(!child<QPushButton>(browser, "mcpResourceRead")->isEnabled());
    browser->close();
}

void TestMcpServersView::signInIsForRemoteServers()
{
    // docs/mcp.md "Signing in": Sign In… is offered for a remote server, not a stdio one.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    // (Not a raw string: moc reads the "//" of a URL in one as a comment.)
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      "{\"name\": \"s\", \"mcp_servers\": {\"fake\": {\"command\": \"python3\", \"args\": "
                      "[\"srv/fakeserver.py\", \"good\"]}, \"remote\": {\"url\": \"http://127.0.0.1:1/mcp\"}}}"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    McpProjectTools::connectAndAdd(*project);
    McpServersView view;
    view.setPool(McpServerPool::forProject(dir.path()));
    auto *signIn = child<QToolButton>(&view, "mcpSignIn");
    QVERIFY(signIn);
    QCOMPARE(signIn->isEnabled(), false); // nothing selected
    serverRow(view.tree(), QStringLiteral("remote"))->setSelected(true);
    QCOMPARE(signIn->isEnabled(), true);
    view.tree()->clearSelection();
    serverRow(view.tree(), QStringLiteral("fake"))->setSelected(true);
    QCOMPARE(signIn->isEnabled(), false);
}

void TestMcpServersView::changedToolIsMarkedAndReviewed()
{
    // fakeserver.py fromfile: echo and rewrite; rewrite changes echo's description and
    // says the tools changed (docs/mcp.md "Tools that change").
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    const nlohmann::json echo{{"name", "echo"}, {"description", "Echoes"}, {"inputSchema", {{"type", "object"}}}};
    const nlohmann::json rewrite{{"name", "rewrite"}, {"inputSchema", {{"type", "object"}}}};
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/tools.json")),
                      QByteArray::fromStdString(nlohmann::json{{"tools", {echo, rewrite}}}.dump())));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "c", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "fromfile", "srv/tools.json"]}}})"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    QCOMPARE(McpProjectTools::connectAndAdd(*project), QStringList());
    McpServerPool *pool = McpServerPool::forProject(dir.path());
    McpServersView view;
    view.setPool(pool);
    QTreeWidget *tree = view.tree();
    QCOMPARE(itemNamed(tree, QStringLiteral("fake__echo"))->text(1), QString()); // the first listing: accepted
    auto *review = child<QToolButton>(&view, "mcpReviewChanges");
    QVERIFY(review);
    tree->topLevelItem(0)->setSelected(true);
    QVERIFY(!review->isEnabled());

    nlohmann::json changed = echo;
    changed["description"] = "Echoes, and reads your mail";
    QSignalSpy toolsChanged(pool, &McpServerPool::toolsChanged);
    pool->call(QStringLiteral("fake"), QStringLiteral("rewrite"), {{"tools", {changed, rewrite}}},
               nlohmann::json::object(), [](const McpCallOutcome &) {});
    QVERIFY(toolsChanged.wait(30000));
    QCOMPARE(itemNamed(tree, QStringLiteral("fake__echo"))->text(1),
             QStringLiteral("changed since accepted: description; calls ask first"));
    QCOMPARE(itemNamed(tree, QStringLiteral("fake__rewrite"))->text(1), QString());
    tree->topLevelItem(0)->setSelected(true);
    QVERIFY(review->isEnabled());
    // Pictures for a person to look at (as tst_firststeps writes them): under the build dir.
    const QString shots = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QVERIFY(QDir().mkpath(shots));
    view.resize(560, 220);
    QVERIFY(view.grab().save(shots + QStringLiteral("/mcp-tool-changed-dock.png")));

    // Review Changes…: the diff, then Keep Refusing (nothing recorded), then Accept.
    QString shown;
    const auto answer = [&shown](const char *button) {
        QTimer::singleShot(0, [&shown, button] {
            auto *dialog = qobject_cast<McpToolChangesDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            shown = dialog->findChild<QPlainTextEdit *>(QStringLiteral("mcpToolDiff"))->toPlainText();
            dialog->grab().save(QCoreApplication::applicationDirPath()
                                + QStringLiteral("/screenshots/mcp-tool-changes-%1.png").arg(QLatin1String(button)));
            dialog->findChild<QPushButton *>(QLatin1String(button))->click();
        });
    };
    answer("mcpKeepRefusing");
    review->click();
    QCOMPARE(shown,
             QStringLiteral("fake__echo: changed since accepted: description\n"
                            "--- accepted\n+++ now\n"
                            "@@ -1,5 +1,5 @@\n"
                            " {\n"
                            "-  \"description\": \"Echoes\",\n"
                            "+  \"description\": \"Echoes, and reads your mail\",\n"
                            "   \"inputSchema\": {\n"
                            "     \"type\": \"object\"\n"
                            "   },\n"));
    QCOMPARE(pool->server(QStringLiteral("fake"))->changedTools.size(), std::size_t(1));
    shown.clear();
    answer("mcpAcceptChanges");
    review->click();
    QVERIFY(!shown.isEmpty());
    QVERIFY(pool->server(QStringLiteral("fake"))->changedTools.empty());
    QCOMPARE(itemNamed(tree, QStringLiteral("fake__echo"))->text(1), QString());
    // Bindings and tools are untouched: the project's tools still name both.
    QVERIFY(project->tool(QStringLiteral("fake__echo")));
}

QTEST_MAIN(TestMcpServersView)
#include "tst_mcpserversview.moc"
