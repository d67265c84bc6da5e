// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tools ▸ Generate Tool with AI… (issue 19 item 6; docs/user/models.md): the dialog
// driven against a `mock` model and the local fake model server. A new file is
// reviewed as a diff, written, and becomes a tool after the reload; a change to the open
// file is one undo step in its editor; an existing different file is replaced only when
// the person agrees; errors (no model, 401, endpoint down, a reply over the cap, a
// timeout, a reply without code) keep the description. The model's reply is untrusted:
// a file name it suggests is never used, text-direction characters show escaped, and
// code it writes runs only in the confined tool worker.

#include "fakemodelserver.h"
#include "scripteditor.h"
#include "ui/documentationwindow.h"
#include "ui/generatetooldialog.h"
#include "ui/helpmenu.h"
#include "ui/projectactions.h"
#include "windowfixture.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QTcpServer>

using json = nlohmann::json;
using namespace Qt::StringLiterals;

namespace {

const QString Adder = u"\"\"\"\ntitle: Adder\n\"\"\"\n\n\nclass Tools:\n    def add(self, a: int, b: int) -> int:\n"
                      u"        \"\"\"Add two numbers.\n\n        :param a: The first.\n        :param b: The second.\n"
                      u"        \"\"\"\n        return a + b\n"_s;
const QString Subtract = u"\n    def subtract(self, a: int, b: int) -> int:\n        \"\"\"Subtract b from a.\n\n"
                         u"        :param a: The first.\n        :param b: The second.\n        \"\"\"\n"
                         u"        return a - b\n"_s;

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// A mock turn answering `content`.
json turn(const QString &content)
{
    return {{"content", content.toStdString()}};
}

} // namespace

class TstGenerateTool
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private:
    FakeModelServer m_server;
    QString m_dir;

    /// A project with `models` and one retry attempt, opened trusted.
    bool openProject(const json &models, const QByteArray &toolFile = {})
    {
        m_dir = m_scratch->filePath(u"gen"_s);
        json manifest = {{"name", "gen"}, {"models", models}, {"retry", {{"max_attempts", 1}}}};
        if (!writeFile(m_dir + u"/toolstudio.json"_s, QByteArray::fromStdString(manifest.dump(2))))
            return false;
        QDir().mkpath(m_dir + u"/tools"_s);
        if (!toolFile.isEmpty() && !writeFile(m_dir + u"/tools/adder.py"_s, toolFile))
            return false;
        return openTrusted(*m_window, m_dir);
    }

    GenerateToolDialog *openDialog()
    {
        QAction *action = m_window->projectActions()->generateToolAction();
        if (!action->isEnabled())
            return nullptr;
        action->trigger();
        return m_window->findChild<GenerateToolDialog *>(u"generateToolDialog"_s);
    }

    template<class T>
    static T *child(GenerateToolDialog *dialog, const char *name)
    {
        T *found = dialog->findChild<T *>(QLatin1String(name));
        if (!found)
            qFatal("the dialog has no %s", name);
        return found;
    }
    static QString status(GenerateToolDialog *d) { return child<QLabel>(d, "generateStatus")->text(); }
    static QString diff(GenerateToolDialog *d) { return child<QPlainTextEdit>(d, "generateDiff")->toPlainText(); }
    static QPushButton *acceptButton(GenerateToolDialog *d) { return child<QPushButton>(d, "acceptButton"); }
    static QPushButton *generateButton(GenerateToolDialog *d) { return child<QPushButton>(d, "generateButton"); }

    /// Fills in the form and presses Generate; true when the diff or an error came.
    static bool generate(GenerateToolDialog *dialog, const QString &description, const QString &newFile = {})
    {
        if (!newFile.isEmpty()) {
            child<QRadioButton>(dialog, "generateNewFile")->setChecked(true);
            child<QLineEdit>(dialog, "generateFileName")->setText(newFile);
        }
        child<QPlainTextEdit>(dialog, "generateDescription")->setPlainText(description);
        generateButton(dialog)->click();
        QDeadlineTimer deadline(30000);
        while (dialog->isGenerating() && !deadline.hasExpired())
            QTest::qWait(20);
        return !dialog->isGenerating();
    }

private Q_SLOTS:
    void initTestCase()
    {
        initWindowTestCase();
        if (FakeModelServer::python().isEmpty())
            QSKIP("python3 is not installed");
        const QString error = m_server.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    void init() { initWindow(); }
    void cleanup() { closeWindow(); }

    /// A project whose only model is a person: the dialog says how to add one, links
    /// the docs, and Generate is off.
    void noModelSaysHowToAddOne()
    {
        QVERIFY(openProject(json::array({{{"name", "teacher"}, {"provider", "manual"}}})));
        GenerateToolDialog *dialog = openDialog();
        QVERIFY(dialog);
        auto *note = child<QLabel>(dialog, "generateNoModel");
        QVERIFY(note->isVisible());
        QVERIFY(note->text().contains(u"This project has no model that can write code. Add one to "
                                      u"<code>models</code> in toolstudio.json"_s));
        QVERIFY(!generateButton(dialog)->isEnabled());
        QVERIFY(!dialog->generate());
        QCOMPARE(status(dialog), u"There is no model to ask: add one to \"models\" in toolstudio.json."_s);
        Q_EMIT note->linkActivated(u"models.md#declaring-models"_s);
        auto *docs = m_window->findChild<DocumentationWindow *>();
        QVERIFY(docs);
        QCOMPARE(docs->currentPage(), u"models.md"_s);
        QCOMPARE(docs->currentAnchor(), u"declaring-models"_s);
        dialog->reject();
    }

    /// A new file from a mock model: the diff shows the added lines; Accept writes
    /// tools/adder.py (not the name the reply suggests), the tool loads, the file opens.
    void newFileFromAMockModel()
    {
        const QString reply = u"Save this as ../../outside.py:\n\n```python\n"_s + Adder + u"```\n"_s;
        QVERIFY(openProject(json::array({{{"name", "scripted"}, {"provider", "mock"}, {"turns", {turn(reply)}}}})));
        QVERIFY(!m_window->project()->tool(u"add"_s));
        QPointer<GenerateToolDialog> dialog = openDialog(); // deleted when it closes
        QVERIFY(dialog);
        QVERIFY(!child<QLabel>(dialog, "generateNoModel")->isVisible());
        QCOMPARE(generateButton(dialog)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Return));
        QVERIFY(!acceptButton(dialog)->isEnabled());
        QVERIFY(generate(dialog, u"Add two integers."_s, u"adder"_s));
        QVERIFY2(diff(dialog).startsWith(u"@@ -0,0 +1,13 @@\n+\"\"\"\n+title: Adder\n"_s), qPrintable(diff(dialog)));
        QVERIFY(diff(dialog).contains(u"\n+    def add(self, a: int, b: int) -> int:\n"_s));
        QCOMPARE(status(dialog),
                 u"Review the change to tools/adder.py: 13 line(s) added, 0 removed. Accept and Save "
                 u"writes it."_s);
        QVERIFY(!child<QLabel>(dialog, "generateWarning")->isVisible());
        QVERIFY(acceptButton(dialog)->isEnabled());
        acceptButton(dialog)->click();
        QCOMPARE(readAll(m_dir + u"/tools/adder.py"_s), Adder.toUtf8());
        QVERIFY(!QFileInfo::exists(m_scratch->filePath(u"outside.py"_s)));
        QVERIFY(!QFileInfo::exists(m_dir + u"/../outside.py"_s));
        QVERIFY(waitForPythonTools(*m_window));
        QVERIFY(m_window->project()->tool(u"add"_s));
        QCOMPARE(m_window->project()->tool(u"add"_s)->description, u"Add two numbers."_s);
        QVERIFY(editor());
        QCOMPARE(editor()->filePath(), m_dir + u"/tools/adder.py"_s);
        QTRY_VERIFY(!dialog);
    }

    /// The open tool file: the model gets its text; Accept is one undoable edit of the
    /// editor, saved; the new tool loads; Ctrl+Z in the editor gives the old text back.
    void openFileChangeIsOneUndoStep()
    {
        const QString changed = Adder + Subtract;
        QVERIFY(openProject(json::array({{{"name", "scripted"},
                                          {"provider", "mock"},
                                          {"turns", {turn(u"```python\n"_s + changed + u"```"_s)}}}}),
                            Adder.toUtf8()));
        QVERIFY(m_window->project()->tool(u"add"_s));
        QVERIFY(m_window->openFile(m_dir + u"/tools/adder.py"_s));
        GenerateToolDialog *dialog = openDialog();
        QVERIFY(dialog);
        auto *openFile = child<QRadioButton>(dialog, "generateOpenFile");
        QVERIFY(openFile->isEnabled());
        QVERIFY(openFile->isChecked());
        QCOMPARE(openFile->text(), u"The &open file: tools/adder.py"_s);
        QVERIFY(generate(dialog, u"Add a subtract tool."_s));
        QVERIFY2(
            diff(dialog).contains(u"         return a + b\n+\n+    def subtract(self, a: int, b: int) -> int:\n"_s),
            qPrintable(diff(dialog)));
        QVERIFY(!diff(dialog).contains(u"\n-"_s));
        QVERIFY(dialog->acceptGenerated());
        dialog->accept();
        ScriptEditor *e = editor();
        QCOMPARE(e->text(), changed);
        QVERIFY(!e->isModified());
        QCOMPARE(readAll(m_dir + u"/tools/adder.py"_s), changed.toUtf8());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->project()->tool(u"subtract"_s), 30000);
        QVERIFY(waitForPythonTools(*m_window));
        e->setFocus();
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->text(), Adder);
        QVERIFY(!e->isUndoAvailable()); // one step took it all back
    }

    /// A new file whose name exists with other text: the diff is against that file, and
    /// it is replaced only when the person says so.
    void existingDifferentFileIsReplacedOnlyWhenAsked()
    {
        const QString changed = Adder + Subtract;
        QVERIFY(openProject(json::array({{{"name", "scripted"},
                                          {"provider", "mock"},
                                          {"turns", {turn(u"```python\n"_s + changed + u"```"_s)}}}}),
                            Adder.toUtf8()));
        GenerateToolDialog *dialog = openDialog();
        QVERIFY(dialog);
        QStringList asked;
        bool agree = false;
        dialog->setConfirmation([&](const QString &question) {
            asked << question;
            return agree;
        });
        QVERIFY(generate(dialog, u"Add a subtract tool."_s, u"adder"_s));
        QVERIFY(diff(dialog).contains(u"\n+    def subtract"_s));
        QVERIFY(!diff(dialog).contains(u"\n+    def add"_s));
        QVERIFY(!dialog->acceptGenerated());
        QCOMPARE(asked,
                 QStringList{u"tools/adder.py exists and is different from the generated file (the diff "
                             u"shows how). Replace it?"_s});
        QCOMPARE(status(dialog), u"Nothing was written: tools/adder.py was kept. Choose another file name."_s);
        QCOMPARE(readAll(m_dir + u"/tools/adder.py"_s), Adder.toUtf8());
        agree = true;
        QVERIFY(dialog->acceptGenerated());
        QCOMPARE(readAll(m_dir + u"/tools/adder.py"_s), changed.toUtf8());
        dialog->reject();
    }

    /// Errors from a real protocol endpoint keep the description and say what to do.
    void errorsKeepTheDescription_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("timeoutSeconds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("401 names the secret") << u"auth"_s << 20
                                              << u"the key was refused (HTTP 401 from %1/auth/chat/completions: "
                                                 u"invalid api key); set the secret GEN_KEY to a valid key"_s;
        QTest::newRow("endpoint down") << u"down"_s << 20 << u"cannot reach http://127.0.0.1:"_s;
        QTest::newRow("reply over the cap")
            << u"huge"_s << 20
            << u"the reply from %1/huge/chat/completions is larger than 1048576 bytes; it was not read further"_s;
        QTest::newRow("timeout") << u"stall"_s << 1
                                 << u"no complete answer from %1/stall/chat/completions within 1 s (timeout_seconds)"_s;
        QTest::newRow("no code in the reply")
            << u"ok"_s << 20
            << u"The model's reply has no Python file with a class Tools in it. It starts: 1 EUR is 1.08 USD."_s;
    }

    void errorsKeepTheDescription()
    {
        QFETCH(QString, scenario);
        QFETCH(int, timeoutSeconds);
        QFETCH(QString, expected);
        QString base = m_server.base() + u'/' + scenario;
        if (scenario == u"down"_s) {
            QTcpServer closed; // a port nobody listens on
            QVERIFY(closed.listen(QHostAddress::LocalHost));
            base = u"http://127.0.0.1:%1/v1"_s.arg(closed.serverPort());
        }
        QVERIFY(openProject(json::array({{{"name", "remote"},
                                          {"provider", "openai-chat"},
                                          {"base_url", base.toStdString()},
                                          {"model", "fake-1"},
                                          {"api_key_secret", "GEN_KEY"},
                                          {"timeout_seconds", timeoutSeconds}}}),
                            Adder.toUtf8()));
        Secrets secrets = Secrets::load(m_dir);
        QVERIFY(secrets.set(u"GEN_KEY"_s, u"wrong-key-123"_s));
        QVERIFY(secrets.save());
        QVERIFY(m_window->openFile(m_dir + u"/tools/adder.py"_s));
        GenerateToolDialog *dialog = openDialog();
        QVERIFY(dialog);
        const QString description = u"Add a subtract tool."_s;
        QVERIFY(generate(dialog, description));
        QVERIFY2(status(dialog).contains(QString(expected).replace(u"%1"_s, m_server.base())),
                 qPrintable(status(dialog)));
        if (scenario == u"auth"_s)
            QVERIFY(status(dialog).endsWith(u"\nIn the window: Tools ▸ Secrets… (Ctrl+Shift+K)."_s));
        QCOMPARE(child<QPlainTextEdit>(dialog, "generateDescription")->toPlainText(), description);
        QVERIFY(!acceptButton(dialog)->isEnabled());
        QVERIFY(generateButton(dialog)->isEnabled());
        QCOMPARE(diff(dialog), QString());
        if (scenario == u"ok"_s) {
            // The model was given the open file to change, in the neutral shape.
            const json last = m_server.get(u"/last"_s);
            const json body = json::parse(last["body"].get<std::string>(), nullptr, false);
            QVERIFY(body.is_object());
            const std::string user = body["messages"][1]["content"].get<std::string>();
            QCOMPARE(QString::fromStdString(user),
                     u"This is the tool file tools/adder.py now:\n\n```python\n"_s + Adder
                         + u"```\n\nChange it: Add a subtract tool."_s);
            QCOMPARE(readAll(m_dir + u"/tools/adder.py"_s), Adder.toUtf8());
        }
        dialog->reject();
    }

    /// Stop while the model thinks: the form is kept, nothing arrives later.
    void stopKeepsTheForm()
    {
        json slow = turn(u"```python\n"_s + Adder + u"```"_s);
        slow["delay_seconds"] = 2;
        QVERIFY(openProject(json::array({{{"name", "scripted"}, {"provider", "mock"}, {"turns", {slow}}}})));
        GenerateToolDialog *dialog = openDialog();
        QVERIFY(dialog);
        child<QPlainTextEdit>(dialog, "generateDescription")->setPlainText(u"Add two integers."_s);
        QVERIFY(dialog->generate());
        QVERIFY(dialog->isGenerating());
        QVERIFY(child<QProgressBar>(dialog, "generateBusy")->isVisible());
        auto *cancel = child<QPushButton>(dialog, "cancelButton");
        QCOMPARE(cancel->text(), u"&Stop"_s);
        cancel->click();
        QVERIFY(!dialog->isGenerating());
        QVERIFY(dialog->isVisible());
        QCOMPARE(status(dialog), u"Stopped. The description is kept: change it or Generate again."_s);
        QTest::qWait(2500);
        QCOMPARE(diff(dialog), QString());
        QCOMPARE(child<QPlainTextEdit>(dialog, "generateDescription")->toPlainText(), u"Add two integers."_s);
        QVERIFY(generateButton(dialog)->isEnabled());
        dialog->reject();
    }

    /// Text-direction characters in the reply show escaped in the diff, with a warning.
    void hiddenCharactersAreShown()
    {
        const QString sneaky = Adder + u"\n# \u202E }; os.system('x') {\n"_s;
        QVERIFY(openProject(json::array(
            {{{"name", "scripted"}, {"provider", "mock"}, {"turns", {turn(u"```python\n"_s + sneaky + u"```"_s)}}}})));
        GenerateToolDialog *dialog = openDialog();
        QVERIFY(generate(dialog, u"Add two integers."_s, u"adder"_s));
        QVERIFY(diff(dialog).contains(u"+# \\u202e }; os.system('x') {"_s));
        QVERIFY(!diff(dialog).contains(QChar(0x202E)));
        QVERIFY(child<QLabel>(dialog, "generateWarning")->isVisible());
        QVERIFY(child<QLabel>(dialog, "generateWarning")->text().startsWith(u"Careful: the generated code holds"_s));
        dialog->reject();
    }

    /// Code the model writes runs only in the confined tool worker: top-level os.system
    /// that would write into the project cannot (the project is read-only there), and the
    /// file still loads as a tool file.
    void generatedCodeLoadsOnlyInTheConfinedWorker()
    {
        const QString hostile = u"import os\nos.system('touch pwned; touch \"$HOME\"/../pwned-home')\n"_s + Adder;
        QVERIFY(openProject(json::array(
            {{{"name", "scripted"}, {"provider", "mock"}, {"turns", {turn(u"```python\n"_s + hostile + u"```"_s)}}}})));
        GenerateToolDialog *dialog = openDialog();
        QVERIFY(generate(dialog, u"Add two integers."_s, u"adder"_s));
        QVERIFY(dialog->acceptGenerated());
        dialog->accept();
        QVERIFY(waitForPythonTools(*m_window));
        QVERIFY(m_window->project()->tool(u"add"_s));
        QVERIFY(!QFileInfo::exists(m_dir + u"/pwned"_s));
        QVERIFY(!QFileInfo::exists(m_dir + u"/tools/pwned"_s));
    }
};

QTEST_MAIN(TstGenerateTool)
#include "tst_generatetool.moc"
