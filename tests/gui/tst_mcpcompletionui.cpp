// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The Resources and Prompts window offers the server's completions under a template's
// variable and a prompt's argument as one types (McpCompletionField): the values pop
// up, arrows and Enter pick one, a failure is a tooltip, an answer for text typed
// over is dropped, a server without `completions` is not asked — against
// tests/data/mcp/fakeresources.py and the MCP reference server "everything" from npm
// (its completable-prompt; skipped when ./toolstudio.sh test has not installed it).
#include "mcpsessionwaits.h"
#include "mcpstdiofixtures.h"
#include "ui/mcpcompletionfield.h"
#include "ui/mcppromptspage.h"
#include "ui/mcpresourcespage.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTreeWidget>

using nlohmann::json;

namespace {

/// How many requests of `method` the fake got (its tool "counts"); -1 when it did not say.
int requests(McpClientSession &session, const char *method)
{
    const McpReply reply = callAndWait(session, QStringLiteral("counts"));
    const json counts = reply.ok()
        ? json::parse(reply.result["content"][0].value("text", std::string("{}")), nullptr, false)
        : json();
    return counts.is_object() ? counts.value(method, 0) : -1;
}

/// The rows the completer's popup shows.
QStringList popupRows(QCompleter *completer)
{
    QStringList rows;
    const QAbstractItemModel *model = completer->popup()->model();
    for (int row = 0; model && row < model->rowCount(); ++row)
        rows << model->index(row, 0).data().toString();
    return rows;
}

/// Shows `page` as an active window (a completer pops up only under the focused field).
bool showActive(QWidget *page)
{
    page->resize(900, 600);
    page->show();
    page->activateWindow();
    return QTest::qWaitForWindowActive(page);
}

/// Shows `page`, lists its prompts and chooses the first (fakeresources.py lists two);
/// false when that did not happen.
bool chooseFirstPrompt(McpPromptsPage &page)
{
    if (!showActive(&page))
        return false;
    page.list();
    auto *prompts = page.findChild<QTreeWidget *>(QStringLiteral("mcpPrompts"));
    if (!prompts || !QTest::qWaitFor([prompts] { return prompts->topLevelItemCount() == 2; }))
        return false;
    prompts->topLevelItem(0)->setSelected(true);
    return true;
}

} // namespace

class TestMcpCompletionUi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void templateVariablesAreCompleted();
    void promptArgumentsAreCompleted();
    void serverWithoutCompletionsIsNotAsked();
    void methodNotFoundIsAskedOnce();
    void referenceServerPromptIsCompleted();
};

void TestMcpCompletionUi::templateVariablesAreCompleted()
{
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("good")));
    QVERIFY(waitReady(session));
    McpResourcesPage page(QStringLiteral("fake"), [&session](QString *) { return &session; });
    QVERIFY(showActive(&page));
    page.list();
    auto *resources = page.findChild<QTreeWidget *>(QStringLiteral("mcpResources"));
    QTRY_VERIFY(!resources->findItems(QStringLiteral("note"), Qt::MatchRecursive).isEmpty());
    resources->findItems(QStringLiteral("note"), Qt::MatchRecursive).front()->setSelected(true);
    auto *folder = page.findChild<QLineEdit *>(QStringLiteral("mcpTemplateVar_folder"));
    auto *name = page.findChild<QLineEdit *>(QStringLiteral("mcpTemplateVar_name"));
    auto *uri = page.findChild<QLineEdit *>(QStringLiteral("mcpResourceUri"));
    QVERIFY(folder && name && uri);
    auto *folderCompletion = folder->findChild<McpCompletionField *>();
    auto *nameCompletion = name->findChild<McpCompletionField *>();
    QVERIFY(folderCompletion && nameCompletion);
    QCOMPARE(folder->completer(), folderCompletion->completer());
    QAbstractItemView *popup = folderCompletion->completer()->popup();

    // Typing asks once the typing rests; the values pop up under the field.
    folder->setFocus();
    QTest::keyClicks(folder, QStringLiteral("i"));
    QCOMPARE(requests(session, "completion/complete"), 0); // not before DebounceMs
    QTRY_COMPARE(folderCompletion->values(), (QStringList{QStringLiteral("inbox"), QStringLiteral("ideas")}));
    QTRY_VERIFY(popup->isVisible());
    QCOMPARE(popupRows(folderCompletion->completer()), (QStringList{QStringLiteral("inbox"), QStringLiteral("ideas")}));
    QCOMPARE(requests(session, "completion/complete"), 1);

    // Arrows choose, Enter puts the value in the field (and the URI): it does not read.
    QTest::keyClick(popup, Qt::Key_Down);
    QCOMPARE(folder->text(), QStringLiteral("inbox"));
    QTest::keyClick(popup, Qt::Key_Down);
    QCOMPARE(folder->text(), QStringLiteral("ideas"));
    QTest::keyClick(popup, Qt::Key_Return);
    QVERIFY(!popup->isVisible());
    QCOMPARE(folder->text(), QStringLiteral("ideas"));
    QCOMPARE(uri->text(), QStringLiteral("file:///notes/ideas/"));
    QCOMPARE(requests(session, "resources/read"), 0);

    // The other variable is completed with this one as context.
    folder->setText(QStringLiteral("inbox"));
    name->setFocus();
    QTest::keyClicks(name, QStringLiteral("to"));
    QTRY_COMPARE(nameCompletion->values(), (QStringList{QStringLiteral("todo.txt"), QStringLiteral("today.txt")}));
    QTRY_VERIFY(nameCompletion->completer()->popup()->isVisible());
    QTest::keyClick(nameCompletion->completer()->popup(), Qt::Key_Escape);
    QVERIFY(!nameCompletion->completer()->popup()->isVisible());
    QCOMPARE(name->text(), QStringLiteral("to"));

    // A failure is a tooltip, not a dialog; the next answer clears it.
    QSignalSpy answered(nameCompletion, &McpCompletionField::answered);
    name->clear();
    QTest::keyClicks(name, QStringLiteral("error"));
    QVERIFY(answered.wait(10000));
    QCOMPARE(nameCompletion->problem(), QStringLiteral("-32602: no completions for that"));
    QCOMPARE(name->toolTip(),
             QStringLiteral("<p style=\"white-space: pre-wrap\">Completions failed: -32602: no completions for "
                            "that</p>"));
    QVERIFY(!QApplication::activeModalWidget());
    QVERIFY(nameCompletion->values().isEmpty());
    QVERIFY(!nameCompletion->completer()->popup()->isVisible());

    // Text typed while a request is open: one request at a time, the stale answer dropped.
    answered.clear();
    const int before = requests(session, "completion/complete");
    name->clear();
    QTest::keyClicks(name, QStringLiteral("slow")); // answered after 1.5 s
    QTest::qWait(McpCompletionField::DebounceMs + 150);
    QTest::keyClicks(name, QStringLiteral("x"));
    QTest::qWait(McpCompletionField::DebounceMs + 50);
    QTest::keyClicks(name, QStringLiteral("y"));
    QVERIFY(answered.wait(10000));
    QTest::qWait(McpCompletionField::DebounceMs * 2); // an answer or a request more would come by now
    QCOMPARE(answered.size(), 1);
    QCOMPARE(name->text(), QStringLiteral("slowxy"));
    QCOMPARE(nameCompletion->values(), QStringList()); // slowxy: nothing; "slow-answer" was dropped
    QCOMPARE(nameCompletion->problem(), QString());
    QCOMPARE(name->toolTip(), QString());
    QCOMPARE(requests(session, "completion/complete"), before + 2);

    // Another template: the fields and their completions go with the form.
    const QPointer<McpCompletionField> gone(nameCompletion);
    resources->clearSelection();
    resources->findItems(QStringLiteral("Notes"), Qt::MatchRecursive).front()->setSelected(true);
    QTRY_VERIFY(!gone);
}

void TestMcpCompletionUi::promptArgumentsAreCompleted()
{
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("good")));
    QVERIFY(waitReady(session));
    McpPromptsPage page(QStringLiteral("fake"), [&session](QString *) { return &session; });
    QVERIFY(chooseFirstPrompt(page));
    auto *who = page.findChild<QLineEdit *>(QStringLiteral("mcpPromptArg_name"));
    auto *style = page.findChild<QLineEdit *>(QStringLiteral("mcpPromptArg_style"));
    QVERIFY(who && style);
    auto *completion = who->findChild<McpCompletionField *>();
    QVERIFY(completion);
    QAbstractItemView *popup = completion->completer()->popup();

    who->setFocus();
    QTest::keyClicks(who, QStringLiteral("A"));
    QTRY_VERIFY(popup->isVisible());
    QCOMPARE(popupRows(completion->completer()), (QStringList{QStringLiteral("Ada"), QStringLiteral("Alan")}));
    QTest::keyClick(popup, Qt::Key_Down);
    QTest::keyClick(popup, Qt::Key_Enter);
    QVERIFY(!popup->isVisible());
    QCOMPARE(who->text(), QStringLiteral("Ada"));
    QCOMPARE(requests(session, "prompts/get"), 0); // Enter picked; it did not get the prompt

    // The argument's description stays in the tooltip, a note under it.
    style->setFocus();
    QTest::keyClicks(style, QStringLiteral("mixed"));
    auto *styleCompletion = style->findChild<McpCompletionField *>();
    QTRY_COMPARE(styleCompletion->values(), (QStringList{QStringLiteral("ok"), QStringLiteral("fine")}));
    QCOMPARE(style->toolTip(),
             QStringLiteral("<p style=\"white-space: pre-wrap\">10 value(s) of the server left out (not text, empty, "
                            "repeated, longer than 500 characters or with control characters).</p>"));
    // A value that does not start with the typed text is put in the field whole.
    QTRY_VERIFY(styleCompletion->completer()->popup()->isVisible());
    QTest::keyClick(styleCompletion->completer()->popup(), Qt::Key_Down);
    QCOMPARE(style->text(), QStringLiteral("ok"));
    QTest::keyClick(styleCompletion->completer()->popup(), Qt::Key_Escape);
    style->clear();
    QTest::keyClicks(style, QStringLiteral("many"));
    QTRY_COMPARE(styleCompletion->values().size(), McpCompletion::MaxValues);
    QCOMPARE(style->toolTip(),
             QStringLiteral("<p style=\"white-space: pre-wrap\">The server has more values than it "
                            "offered: type more to narrow them.</p>"));
    QTRY_VERIFY(styleCompletion->completer()->popup()->isVisible());
    QCOMPARE(popupRows(styleCompletion->completer()).size(), 100);
}

void TestMcpCompletionUi::serverWithoutCompletionsIsNotAsked()
{
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("no-completions")));
    QVERIFY(waitReady(session));
    McpPromptsPage page(QStringLiteral("fake"), [&session](QString *) { return &session; });
    QVERIFY(chooseFirstPrompt(page));
    auto *who = page.findChild<QLineEdit *>(QStringLiteral("mcpPromptArg_name"));
    QVERIFY(who);
    auto *completion = who->findChild<McpCompletionField *>();
    QSignalSpy answered(completion, &McpCompletionField::answered);
    who->setFocus();
    QTest::keyClicks(who, QStringLiteral("A"));
    QTest::qWait(McpCompletionField::DebounceMs * 3);
    QCOMPARE(answered.size(), 0);
    QCOMPARE(requests(session, "completion/complete"), 0);
    QVERIFY(completion->values().isEmpty());
    QCOMPARE(who->toolTip(), QStringLiteral("<p style=\"white-space: pre-wrap\">Who</p>"));
}

void TestMcpCompletionUi::methodNotFoundIsAskedOnce()
{
    // It declares completions but answers -32601: one request, then none for the rest of
    // the session, in this field or another; each says why in its tooltip.
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("complete-not-found")));
    QVERIFY(waitReady(session));
    McpPromptsPage page(QStringLiteral("fake"), [&session](QString *) { return &session; });
    QVERIFY(chooseFirstPrompt(page));
    auto *who = page.findChild<QLineEdit *>(QStringLiteral("mcpPromptArg_name"));
    auto *style = page.findChild<QLineEdit *>(QStringLiteral("mcpPromptArg_style"));
    QVERIFY(who && style);
    auto *completion = who->findChild<McpCompletionField *>();
    QSignalSpy answered(completion, &McpCompletionField::answered);
    const QString missing = QStringLiteral(
        "the server declares \"completions\" but answers completion/complete with -32601: Method not found");
    // The tooltip is rich text: the server's words in it are escaped.
    const QString quoted = QString(missing).replace(u'"', QStringLiteral("&quot;"));
    const QString tip
        = QStringLiteral("<p style=\"white-space: pre-wrap\">Who\nCompletions failed: %1</p>").arg(quoted);
    who->setFocus();
    QTest::keyClicks(who, QStringLiteral("A"));
    QVERIFY(answered.wait(10000));
    QCOMPARE(completion->problem(), missing);
    QCOMPARE(who->toolTip(), tip);
    QCOMPARE(requests(session, "completion/complete"), 1);

    QTest::keyClicks(who, QStringLiteral("d"));
    QTest::qWait(McpCompletionField::DebounceMs * 3);
    style->setFocus();
    QTest::keyClicks(style, QStringLiteral("f"));
    QTest::qWait(McpCompletionField::DebounceMs * 3);
    QCOMPARE(requests(session, "completion/complete"), 1);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(who->toolTip(), tip);
    QCOMPARE(style->findChild<McpCompletionField *>()->problem(), missing);
    QCOMPARE(style->toolTip(),
             QStringLiteral("<p style=\"white-space: pre-wrap\">Completions failed: %1</p>").arg(quoted));
    QVERIFY(!QApplication::activeModalWidget());
}

void TestMcpCompletionUi::referenceServerPromptIsCompleted()
{
    const QString modules = referenceServerModules();
    if (modules.isEmpty())
        QSKIP(ReferenceServerMissing);
    const McpStdioTransport::Launch launch = everythingOverStdio(modules);
    McpClientSession session;
    session.open(launch);
    QVERIFY(waitReady(session));
    McpPromptsPage page(QStringLiteral("everything"), [&session](QString *) { return &session; });
    QVERIFY(showActive(&page));
    page.list();
    auto *prompts = page.findChild<QTreeWidget *>(QStringLiteral("mcpPrompts"));
    QTRY_VERIFY_WITH_TIMEOUT(!prompts->findItems(QStringLiteral("completable-prompt"), Qt::MatchExactly).isEmpty(),
                             20000);
    prompts->findItems(QStringLiteral("completable-prompt"), Qt::MatchExactly).front()->setSelected(true);
    auto *department = page.findChild<QLineEdit *>(QStringLiteral("mcpPromptArg_department"));
    auto *name = page.findChild<QLineEdit *>(QStringLiteral("mcpPromptArg_name"));
    QVERIFY(department && name);
    QCompleter *departments = department->findChild<McpCompletionField *>()->completer();
    QCompleter *names = name->findChild<McpCompletionField *>()->completer();

    // The department by its first letter, picked with the keyboard.
    department->setFocus();
    QTest::keyClicks(department, QStringLiteral("S"));
    QTRY_VERIFY_WITH_TIMEOUT(departments->popup()->isVisible(), 20000);
    QCOMPARE(popupRows(departments), (QStringList{QStringLiteral("Sales"), QStringLiteral("Support")}));
    QTest::keyClick(departments->popup(), Qt::Key_Down);
    QTest::keyClick(departments->popup(), Qt::Key_Down);
    QTest::keyClick(departments->popup(), Qt::Key_Return);
    QCOMPARE(department->text(), QStringLiteral("Support"));

    // The name: the server completes it from the department the form sends as context.
    name->setFocus();
    QTest::keyClicks(name, QStringLiteral("K"));
    QTRY_VERIFY_WITH_TIMEOUT(names->popup()->isVisible(), 20000);
    QCOMPARE(popupRows(names), QStringList{QStringLiteral("Kim")});
    QTest::keyClick(names->popup(), Qt::Key_Down);
    QTest::keyClick(names->popup(), Qt::Key_Enter);
    QCOMPARE(name->text(), QStringLiteral("Kim"));
}

QTEST_MAIN(TestMcpCompletionUi)
#include "tst_mcpcompletionui.moc"
