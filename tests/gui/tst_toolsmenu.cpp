// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "clirunner.h"
#include "exchange/toolexport.h"
#include "project/project.h"
#include "project/projectwriter.h"
#include "python/secrets.h"
#include "testfiles.h"
#include "ui/exporttoolsdialog.h"
#include "ui/mainwindow.h"
#include "ui/manifesteditor.h"
#include "ui/plaintextbox.h"
#include "ui/projectpanel.h"
#include "ui/secretsdialog.h"
#include "ui/toolsmenu.h"
#include "windowfixture.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <sys/stat.h>

#include <memory>

// The Tools menu's export / import / bundle / secrets, driven the way the window
// drives them, and checked in what a person sees (the preview text, the Project dock's
// rows, the secrets table) and in what lands on disk.

namespace {

const char *const SecretValue = "sk-menu-7c1d2e3f";

// Two tools: `lookup` quotes the secret in its description; `tag` takes a free-form
// dict, which strict mode cannot express.
const char *const Manifest
    = "{\"name\": \"menu\", \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}], \"tools\": [\n"
      " {\"name\": \"lookup\", \"description\": \"Looks up a customer with key sk-menu-7c1d2e3f.\",\n"
      "  \"input_schema\": {\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"integer\", \"description\": "
      "\"Customer id\"},\n"
      "   \"note\": {\"type\": \"string\"}}, \"required\": [\"id\"]}, \"handler\": {\"kind\": \"manual\"}},\n"
      " {\"name\": \"tag\", \"description\": \"Tags things.\", \"input_schema\": {\"type\": \"object\", \"properties\": "
      "{\"labels\": {\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}}},\n"
      "  \"handler\": {\"kind\": \"manual\"}}\n"
      "]}\n";

const char *const EmptyManifest
    = "{\"name\": \"empty\", \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}]}\n";

QStringList column(const QAbstractItemModel *model, int column)
{
    QStringList values;
    for (int row = 0; row < model->rowCount(); ++row)
        values << model->index(row, column).data().toString();
    return values;
}

} // namespace

class TstToolsMenu
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    // Import and error boxes quote tool and file names: a name written as markup shows as
    // typed, in the text and in the informative text (which setTextFormat alone leaves to
    // auto-detection).
    void messageBoxesShowNamesAsTyped()
    {
        QMessageBox box(QMessageBox::Warning, QStringLiteral("Import Tools"), QStringLiteral("<b>bold</b> tool"),
                        QMessageBox::Ok);
        box.setInformativeText(QStringLiteral("• '<img src=\"x.png\">' as 'x' (bad name)"));
        showAsPlainText(&box);
        int texts = 0;
        for (QLabel *label : box.findChildren<QLabel *>()) {
            if (label->text().isEmpty())
                continue;
            ++texts;
            QCOMPARE(label->textFormat(), Qt::PlainText);
        }
        QCOMPARE(texts, 2);
    }

    void initTestCase()
    {
        // The studio's own names and a private config folder: the built toolstudio
        // (started with the same environment) then reads the same secrets file.
        QVERIFY(m_config.isValid());
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        QCoreApplication::setApplicationName(QStringLiteral("Tool Studio"));
        QCoreApplication::setOrganizationName(QStringLiteral("toolstudio"));
    }

    void init()
    {
        makeScratch();
        m_dir = m_scratch->filePath(QStringLiteral("menu"));
        QVERIFY(writeFile(m_dir + QStringLiteral("/toolstudio.json"), Manifest));
        QVERIFY(writeFile(m_dir + QStringLiteral("/scripts/main.py"), "print(1)\n"));
        Secrets secrets = Secrets::load(m_dir);
        QVERIFY(secrets.set(QStringLiteral("CRM_KEY"), QString::fromLatin1(SecretValue)));
        QVERIFY(secrets.save());
        showWindow();
        m_window->toolsMenu()->setInteractive(false);
        QVERIFY(openTrusted(*m_window, m_dir));
    }

    void cleanup()
    {
        const QString secretsFile = Secrets::filePath(m_dir);
        closeWindow();
        QFile::remove(secretsFile);
    }

    void menuHoldsTheActionsWithShortcuts()
    {
        QMenu *tools = nullptr;
        for (QAction *action : m_window->menuBar()->actions())
            if (action->menu() && action->text() == QStringLiteral("&Tools"))
                tools = action->menu();
        QVERIFY(tools);
        QStringList texts;
        for (QAction *action : tools->actions())
            if (!action->isSeparator())
                texts << action->text() + QLatin1Char('|') + action->shortcut().toString();
        QCOMPARE(
            texts,
            QStringList({QStringLiteral("New &Mock Tool…|"), QStringLiteral("&Generate Tool with AI…|"),
                         QStringLiteral("&Export Tools…|Ctrl+Shift+E"), QStringLiteral("&Import Tools…|Ctrl+Shift+I"),
                         QStringLiteral("Export &Bundle…|"), QStringLiteral("Import B&undle…|"),
                         QStringLiteral("Import &MCP Config…|"), QStringLiteral("&Secrets…|Ctrl+Shift+K")}));
        QVERIFY(m_window->toolsMenu()->importToolsAction()->isEnabled());
    }

    /// The preview is byte for byte ToolExport's JSON, masked — and what the built
    /// `toolstudio tools export` prints for the same project and format.
    void exportDialogShowsExactJson_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("anthropic") << int(ToolExport::Format::Anthropic)
                                   << QByteArray("[\n"
                                                 "  {\n"
                                                 "    \"name\": \"lookup\",\n"
                                                 "    \"description\": \"Looks up a customer with key ********.\",\n"
                                                 "    \"input_schema\": {\n"
                                                 "      \"type\": \"object\",\n"
                                                 "      \"properties\": {\n"
                                                 "        \"id\": {\n"
                                                 "          \"type\": \"integer\",\n"
                                                 "          \"description\": \"Customer id\"\n"
                                                 "        },\n"
                                                 "        \"note\": {\n"
                                                 "          \"type\": \"string\"\n"
                                                 "        }\n"
                                                 "      },\n"
                                                 "      \"required\": [\n"
                                                 "        \"id\"\n"
                                                 "      ]\n"
                                                 "    }\n"
                                                 "  },\n"
                                                 "  {\n"
                                                 "    \"name\": \"tag\",\n"
                                                 "    \"description\": \"Tags things.\",\n"
                                                 "    \"input_schema\": {\n"
                                                 "      \"type\": \"object\",\n"
                                                 "      \"properties\": {\n"
                                                 "        \"labels\": {\n"
                                                 "          \"type\": \"object\",\n"
                                                 "          \"additionalProperties\": {\n"
                                                 "            \"type\": \"string\"\n"
                                                 "          }\n"
                                                 "        }\n"
                                                 "      }\n"
                                                 "    }\n"
                                                 "  }\n"
                                                 "]\n");
        QTest::newRow("openai-chat") << int(ToolExport::Format::OpenAIChat) << QByteArray();
        QTest::newRow("openai-responses")
            << int(ToolExport::Format::OpenAIResponses)
            << QByteArray("[\n"
                          "  {\n"
                          "    \"type\": \"function\",\n"
                          "    \"name\": \"lookup\",\n"
                          "    \"description\": \"Looks up a customer with key ********.\",\n"
                          "    \"parameters\": {\n"
                          "      \"type\": \"object\",\n"
                          "      \"properties\": {\n"
                          "        \"id\": {\n"
                          "          \"type\": \"integer\",\n"
                          "          \"description\": \"Customer id\"\n"
                          "        },\n"
                          "        \"note\": {\n"
                          "          \"type\": \"string\"\n"
                          "        }\n"
                          "      },\n"
                          "      \"required\": [\n"
                          "        \"id\"\n"
                          "      ]\n"
                          "    },\n"
                          "    \"strict\": false\n"
                          "  },\n"
                          "  {\n"
                          "    \"type\": \"function\",\n"
                          "    \"name\": \"tag\",\n"
                          "    \"description\": \"Tags things.\",\n"
                          "    \"parameters\": {\n"
                          "      \"type\": \"object\",\n"
                          "      \"properties\": {\n"
                          "        \"labels\": {\n"
                          "          \"type\": \"object\",\n"
                          "          \"additionalProperties\": {\n"
                          "            \"type\": \"string\"\n"
                          "          }\n"
                          "        }\n"
                          "      }\n"
                          "    },\n"
                          "    \"strict\": false\n"
                          "  }\n"
                          "]\n");
    }

    void exportDialogShowsExactJson()
    {
        QFETCH(int, format);
        QFETCH(QByteArray, expected);
        ExportToolsDialog *dialog = m_window->toolsMenu()->openExportDialog();
        QVERIFY(dialog);
        dialog->setFormat(ToolExport::Format(format));
        const QByteArray text = dialog->text();
        QCOMPARE(dialog->findChild<QPlainTextEdit *>(QStringLiteral("exportPreview"))->toPlainText().toUtf8(), text);
        QVERIFY(!text.contains(SecretValue));
        QVERIFY(text.contains("Looks up a customer with key ********."));
        QVERIFY(dialog->refused().isEmpty());
        QVERIFY(dialog->findChild<QListWidget *>(QStringLiteral("exportRefused"))->isHidden());
        if (!expected.isEmpty())
            QCOMPARE(text, expected);
        // The same as ToolExport itself, then masked.
        QStringList refused;
        const auto list
            = ToolExport::exportTools(m_window->project()->tools, ToolExport::Format(format), false, &refused);
        QCOMPARE(text, Secrets::load(m_dir).mask(QByteArray::fromStdString(list.dump(2) + '\n')));

        dialog->copyToClipboard();
        QCOMPARE(QApplication::clipboard()->text().toUtf8(), text);
        const QString saved = m_scratch->filePath(QStringLiteral("out.json"));
        QString error;
        QVERIFY2(dialog->saveTo(saved, &error), qPrintable(error));
        QCOMPARE(fileBytes(saved), text);

        const QString binary = qEnvironmentVariable("TOOLSTUDIO_BINARY");
        if (binary.isEmpty() || !QFileInfo::exists(binary))
            QSKIP("toolstudio is not built (TOOLSTUDIO_BINARY)");
        QProcess cli;
        cli.start(binary,
                  withTrust({QStringLiteral("tools"), QStringLiteral("export"), m_dir, QStringLiteral("--format"),
                             ToolExport::formatName(ToolExport::Format(format))}));
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(cli.readAllStandardOutput(), text);
    }

    void strictRefusalIsListedWithTheReason()
    {
        ExportToolsDialog *dialog = m_window->toolsMenu()->openExportDialog();
        dialog->setFormat(ToolExport::Format::Anthropic);
        dialog->setStrict(true);
        QVERIFY(!dialog->isStrict()); // strict is OpenAI only
        dialog->setFormat(ToolExport::Format::OpenAIChat);
        QVERIFY(dialog->isStrict());
        QCOMPARE(dialog->refused(),
                 QStringList{QStringLiteral("tool 'tag': input_schema/properties/labels: a map (additionalProperties) "
                                            "has no fixed properties; strict mode needs them")});
        auto *list = dialog->findChild<QListWidget *>(QStringLiteral("exportRefused"));
        QVERIFY(!list->isHidden());
        QCOMPARE(list->count(), 1);
        QCOMPARE(list->item(0)->text(), dialog->refused().first());
        // The rest is still exported, strictly.
        QVERIFY(dialog->text().contains("\"name\": \"lookup\""));
        QVERIFY(!dialog->text().contains("\"name\": \"tag\""));
        QVERIFY(dialog->text().contains("\"strict\": true"));
    }

    // An array without items gets `items: {}` for the APIs; the dialog lists where.
    void exportListsTheKeysItAdded()
    {
        QVERIFY(m_window->manifestEditor()->edit(QStringLiteral("Add"), [](nlohmann::ordered_json &m, QString *error) {
            return ProjectWriter::addTool(
                m,
                nlohmann::ordered_json::parse("{\"name\": \"bag\", \"input_schema\": {\"type\": \"object\", "
                                              "\"properties\": {\"things\": {\"type\": \"array\"}}}, \"handler\": "
                                              "{\"kind\": \"manual\"}}"),
                error);
        }));
        ExportToolsDialog *dialog = m_window->toolsMenu()->openExportDialog();
        dialog->setFormat(ToolExport::Format::Anthropic);
        auto *list = dialog->findChild<QListWidget *>(QStringLiteral("exportRefused"));
        QVERIFY(!list->isHidden());
        QCOMPARE(list->count(), 1);
        QCOMPARE(list->item(0)->text(),
                 QStringLiteral("tool 'bag': added \"items\": {} (any item) to the array schema at "
                                "/properties/things (OpenAI refuses an array schema without items)"));
        QVERIFY(dialog->text().contains("\"things\": {\n"));
    }

    void importOpenAiFileAddsManualTools()
    {
        const QString file = m_scratch->filePath(QStringLiteral("openai.json"));
        QVERIFY(writeFile(file,
                          "[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"description\": "
                          "\"Weather for a city.\", \"parameters\": {\"type\": \"object\", \"properties\": "
                          "{\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}}},\n"
                          " {\"type\": \"function\", \"function\": {\"name\": \"get_time\", \"parameters\": "
                          "{\"type\": \"object\", \"properties\": {}}}}]"));
        // The import is one undo step after an earlier edit, and undo takes it back.
        QVERIFY(
            m_window->manifestEditor()->edit(QStringLiteral("Rename"), [](nlohmann::ordered_json &m, QString *error) {
                return ProjectWriter::renameTool(m, QStringLiteral("tag"), QStringLiteral("label"), error);
            }));
        QCOMPARE(undoStack()->count(), 1);
        QVERIFY(m_window->toolsMenu()->importTools(file, ToolImport::As::Manual));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Imported 2 tool(s) from openai.json as manual tools:\nget_weather\nget_time"));
        const QAbstractItemModel *model = m_window->projectPanel()->toolModel();
        QCOMPARE(column(model, ProjectPanel::NameColumn),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("label"), QStringLiteral("get_weather"),
                              QStringLiteral("get_time")}));
        QCOMPARE(model->index(2, ProjectPanel::HandlerColumn).data().toString(), QStringLiteral("manual"));
        QCOMPARE(model->index(3, ProjectPanel::HandlerColumn).data().toString(), QStringLiteral("manual"));
        const Tool *tool = m_window->project()->tool(QStringLiteral("get_weather"));
        QVERIFY(tool);
        QCOMPARE(tool->parameterOrder, QStringList{QStringLiteral("city")});
        QCOMPARE(undoStack()->count(), 2);
        QCOMPARE(undoStack()->undoText(), QStringLiteral("Import openai.json"));
        undoStack()->undo();
        QCOMPARE(column(model, ProjectPanel::NameColumn),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("label")}));
        undoStack()->redo();
        QVERIFY(m_window->project()->tool(QStringLiteral("get_time")));
    }

    // Tools ▸ Import MCP Config: one undoable edit of mcp_servers; the credential goes to
    // the secrets, not into toolstudio.json; a name taken is kept unless replaced.
    void importMcpConfigIsOneUndoableEdit()
    {
        const QString file = m_scratch->filePath(QStringLiteral("claude_desktop_config.json"));
        QVERIFY(writeFile(file,
                          "{\"mcpServers\": {\"weather\": {\"command\": \"node\", \"args\": [\"weather.js\"], "
                          "\"env\": {\"API_TOKEN\": \"tok-123\"}}, \"bad\": {\"url\": \"ftp://x\"}}}"));
        QVERIFY(m_window->toolsMenu()->importMcpConfig(file));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Imported 1 MCP server(s) from claude_desktop_config.json (Claude Desktop, Cursor or "
                                "Claude Code (mcpServers)):\n"
                                "added weather\n"
                                "weather: env API_TOKEN looks like a credential: its value moved to the project's "
                                "secrets as API_TOKEN (not into toolstudio.json)\n"
                                "skipped bad: mcp server 'bad': 'url' must start with http:// or https://\n"
                                "saved as the project's secrets (Tools ▸ Secrets; Undo does not remove them): "
                                "API_TOKEN"));
        QCOMPARE(m_window->project()->mcpServers.size(), std::size_t(1));
        QCOMPARE(m_window->project()->mcpServers[0].env.value(QStringLiteral("API_TOKEN")),
                 QStringLiteral("${secret:API_TOKEN}"));
        QCOMPARE(Secrets::load(m_dir).value(QStringLiteral("API_TOKEN")), QStringLiteral("tok-123"));
        QFile manifest(m_dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QVERIFY(!manifest.readAll().contains("tok-123"));
        QCOMPARE(undoStack()->undoText(), QStringLiteral("Import claude_desktop_config.json"));
        undoStack()->undo();
        QVERIFY(m_window->project()->mcpServers.empty());
        undoStack()->redo();
        QCOMPARE(m_window->project()->mcpServers.size(), std::size_t(1));

        // Again, not interactive: the server of that name is kept, nothing is written.
        const int edits = undoStack()->count();
        QVERIFY(!m_window->toolsMenu()->importMcpConfig(file));
        QVERIFY(m_window->toolsMenu()->lastSummary().contains(
            QStringLiteral("weather: the project has a server of that name already")));
        QCOMPARE(undoStack()->count(), edits);
        QVERIFY(m_window->toolsMenu()->importMcpConfig(file, true));
        QVERIFY(m_window->toolsMenu()->lastSummary().contains(QStringLiteral("replaced weather")));

        const QString notJson = m_scratch->filePath(QStringLiteral("broken.json"));
        QVERIFY(writeFile(notJson, "{\"mcpServers\": "));
        QVERIFY(!m_window->toolsMenu()->importMcpConfig(notJson));
        QVERIFY(m_window->toolsMenu()->lastSummary().startsWith(
            QStringLiteral("Nothing was imported from broken.json; the project is unchanged:\nthe file is not valid "
                           "JSON")));
    }

    // attack10: a FIFO chosen in the file dialog blocked the window in open() until
    // something wrote to it; the escape sequences of a key reached the summary as they were.
    void importMcpConfigRefusesAPipeAndQuotesTheFile()
    {
        const QString fifo = m_scratch->filePath(QStringLiteral("pipe.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(!m_window->toolsMenu()->importMcpConfig(fifo));
        QVERIFY2(m_window->toolsMenu()->lastSummary().endsWith(
                     QStringLiteral("pipe.json is not a regular file (a pipe or a device)")),
                 qPrintable(m_window->toolsMenu()->lastSummary()));

        const QString file = m_scratch->filePath(QStringLiteral("escapes.json"));
        QVERIFY(writeFile(file, "{\"mcpServers\": {\"esc\": {\"command\": \"x\", \"\\u001b]2;pwned\\u0007\": 1}}}"));
        QVERIFY(m_window->toolsMenu()->importMcpConfig(file));
        QVERIFY2(m_window->toolsMenu()->lastSummary().endsWith(
                     QStringLiteral("esc: left out (not Tool Studio settings): \\u001b]2;pwned\\u0007")),
                 qPrintable(m_window->toolsMenu()->lastSummary()));
    }

    // Partial import: the clashing tool is refused with a suggested name, the other is
    // imported; nothing is renamed unless the person accepts the suggestion.
    void importNameCollisionIsRefusedWithASuggestion()
    {
        const QString file = m_scratch->filePath(QStringLiteral("anthropic.json"));
        QVERIFY(writeFile(file,
                          "[{\"name\": \"lookup\", \"input_schema\": {\"type\": \"object\"}},"
                          " {\"name\": \"fresh\", \"input_schema\": {\"type\": \"object\"}}]"));
        std::vector<ToolImport::Refusal> offered;
        m_window->toolsMenu()->setRenameChooser([&](const std::vector<ToolImport::Refusal> &refused) {
            offered = refused;
            return QMap<QString, QString>(); // declined
        });
        QVERIFY(m_window->toolsMenu()->importTools(file, ToolImport::As::Mock));
        QCOMPARE(offered.size(), std::size_t(1));
        QCOMPARE(offered[0].name, QStringLiteral("lookup"));
        QCOMPARE(offered[0].suggestion, QStringLiteral("lookup_2"));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Imported 1 of 2 tool(s) from anthropic.json as mock tools; 1 refused:\nfresh\n"
                                "refused: tool 'lookup': the project already has a tool of that name; it is not "
                                "renamed (suggested: 'lookup_2'; on the command line: --rename lookup=lookup_2)"));
        QCOMPARE(column(m_window->projectPanel()->toolModel(), ProjectPanel::NameColumn),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("tag"), QStringLiteral("fresh")}));

        // Accepted: imported under the suggested name, and the summary says so.
        const QString again = m_scratch->filePath(QStringLiteral("again.json"));
        QVERIFY(writeFile(again, "[{\"name\": \"lookup\", \"input_schema\": {\"type\": \"object\"}}]"));
        m_window->toolsMenu()->setRenameChooser([](const std::vector<ToolImport::Refusal> &refused) {
            QMap<QString, QString> accepted;
            for (const ToolImport::Refusal &refusal : refused)
                accepted.insert(refusal.name, refusal.suggestion);
            return accepted;
        });
        QVERIFY(m_window->toolsMenu()->importTools(again, ToolImport::As::Manual));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Imported 1 tool(s) from again.json as manual tools:\nlookup_2\n"
                                "'lookup' imported as 'lookup_2' (the suggested name you accepted)"));
        QVERIFY(m_window->project()->tool(QStringLiteral("lookup_2")));
    }

    void importWithEveryToolRefusedChangesNothing()
    {
        const QByteArray before = fileBytes(m_dir + QStringLiteral("/toolstudio.json"));
        const QString file = m_scratch->filePath(QStringLiteral("clash.json"));
        QVERIFY(writeFile(file, "[{\"name\": \"lookup\", \"input_schema\": {\"type\": \"object\"}}]"));
        QVERIFY(!m_window->toolsMenu()->importTools(file, ToolImport::As::Mock));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Nothing was imported from clash.json; the project is unchanged:\n"
                                "refused: tool 'lookup': the project already has a tool of that name; it is not "
                                "renamed (suggested: 'lookup_2'; on the command line: --rename lookup=lookup_2)"));
        QCOMPARE(fileBytes(m_dir + QStringLiteral("/toolstudio.json")), before);
    }

    void secretsDialogAddShowRemoveRoundTrip()
    {
        SecretsDialog *dialog = m_window->toolsMenu()->openSecretsDialog();
        QVERIFY(dialog);
        QTableWidget *table = dialog->table();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, SecretsDialog::NameColumn)->text(), QStringLiteral("CRM_KEY"));
        QCOMPARE(table->item(0, SecretsDialog::ValueColumn)->data(Qt::DisplayRole).toString(),
                 SecretsDialog::maskedText());

        QTest::keyClicks(dialog->nameEdit(), QStringLiteral("WEATHER_API_KEY"));
        QTest::keyClicks(dialog->valueEdit(), QStringLiteral("wx-9a8b7c6d"));
        QCOMPARE(dialog->addButton()->text(), QStringLiteral("&Add"));
        QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
        QCOMPARE(dialog->errorText(), QString());
        QCOMPARE(table->rowCount(), 2);
        for (int row = 0; row < table->rowCount(); ++row)
            for (int col = 0; col < table->columnCount(); ++col) {
                const QString shown = table->item(row, col)->data(Qt::DisplayRole).toString();
                QVERIFY2(!shown.contains(QLatin1String("wx-9a8b7c6d")) && !shown.contains(QLatin1String(SecretValue)),
                         qPrintable(shown));
            }
        // Saved at once, outside the project, mode 0600.
        QCOMPARE(Secrets::load(m_dir).value(QStringLiteral("WEATHER_API_KEY")), QStringLiteral("wx-9a8b7c6d"));
        struct stat info
        {};
        QCOMPARE(::stat(QFile::encodeName(Secrets::filePath(m_dir)).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);

        // Show reveals that row's value only, and hides it again.
        const int row = table->findItems(QStringLiteral("WEATHER_API_KEY"), Qt::MatchExactly).first()->row();
        table->item(row, SecretsDialog::ShowColumn)->setCheckState(Qt::Checked);
        QCOMPARE(table->item(row, SecretsDialog::ValueColumn)->text(), QStringLiteral("wx-9a8b7c6d"));
        QCOMPARE(table->item(1 - row, SecretsDialog::ValueColumn)->text(), SecretsDialog::maskedText());
        table->item(row, SecretsDialog::ShowColumn)->setCheckState(Qt::Unchecked);
        QCOMPARE(table->item(row, SecretsDialog::ValueColumn)->text(), SecretsDialog::maskedText());

        // Remove asks once; "no" keeps it, "yes" removes it from the file.
        QStringList questions;
        bool answer = false;
        dialog->setConfirmation([&](const QString &question) {
            questions << question;
            return answer;
        });
        table->selectRow(row);
        QTest::mouseClick(dialog->removeButton(), Qt::LeftButton);
        QCOMPARE(table->rowCount(), 2);
        answer = true;
        QTest::mouseClick(dialog->removeButton(), Qt::LeftButton);
        QCOMPARE(questions.size(), 2);
        QCOMPARE(questions.last(),
                 QStringLiteral("Remove the secret WEATHER_API_KEY? Tools that read it will no longer get it."));
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(Secrets::load(m_dir).names(), QStringList{QStringLiteral("CRM_KEY")});
        dialog->close();

        // A new dialog reads what was saved.
        SecretsDialog *again = m_window->toolsMenu()->openSecretsDialog();
        QCOMPARE(again->table()->rowCount(), 1);
        QCOMPARE(again->table()->item(0, SecretsDialog::NameColumn)->text(), QStringLiteral("CRM_KEY"));
        again->close();
    }

    void secretsDialogRefusesBadInput_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("empty name") << QString() << QStringLiteral("v-1234")
                                    << QStringLiteral("Enter a name for the secret.");
        QTest::newRow("not an env name") << QStringLiteral("api-key") << QStringLiteral("v-1234")
                                         << QStringLiteral(
                                                "“api-key” is not an environment variable name: use letters, "
                                                "digits and _, and do not start with a digit.");
        QTest::newRow("leading digit") << QStringLiteral("1KEY") << QStringLiteral("v-1234")
                                       << QStringLiteral("“1KEY” is not an environment variable name: use letters, "
                                                         "digits and _, and do not start with a digit.");
        QTest::newRow("empty value") << QStringLiteral("CRM_KEY") << QString()
                                     << QStringLiteral("Enter a value for CRM_KEY. To delete a secret, select it and "
                                                       "click Remove.");
    }

    void secretsDialogRefusesBadInput()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, error);
        SecretsDialog *dialog = m_window->toolsMenu()->openSecretsDialog();
        QTest::keyClicks(dialog->nameEdit(), name);
        QTest::keyClicks(dialog->valueEdit(), value);
        QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
        QCOMPARE(dialog->errorText(), error);
        QCOMPARE(dialog->table()->rowCount(), 1);
        // Nothing changed on disk: the existing secret keeps its value.
        const Secrets saved = Secrets::load(m_dir);
        QCOMPARE(saved.names(), QStringList{QStringLiteral("CRM_KEY")});
        QCOMPARE(saved.value(QStringLiteral("CRM_KEY")), QString::fromLatin1(SecretValue));
        dialog->close();
    }

    void secretsDialogWarnsAboutShortValues()
    {
        SecretsDialog *dialog = m_window->toolsMenu()->openSecretsDialog();
        QTest::keyClicks(dialog->nameEdit(), QStringLiteral("PIN"));
        QTest::keyClicks(dialog->valueEdit(), QStringLiteral("123"));
        QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
        QCOMPARE(dialog->errorText(),
                 QStringLiteral("PIN was saved, but a value shorter than 4 characters is not "
                                "masked in views and exports."));
        QCOMPARE(Secrets::load(m_dir).value(QStringLiteral("PIN")), QStringLiteral("123"));
        dialog->close();
    }

    void bundleExportThenImportIntoEmptyProject()
    {
        const QString zip = m_scratch->filePath(QStringLiteral("tools.zip"));
        QVERIFY(m_window->toolsMenu()->exportBundle(zip));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Wrote 2 item(s) to %1 (never secrets):\ntool 'lookup'\ntool 'tag'")
                     .arg(QDir::toNativeSeparators(zip)));
        QVERIFY(!fileBytes(zip).contains(SecretValue));

        const QString other = m_scratch->filePath(QStringLiteral("empty"));
        QVERIFY(writeFile(other + QStringLiteral("/toolstudio.json"), EmptyManifest));
        QVERIFY(writeFile(other + QStringLiteral("/scripts/main.py"), "print(1)\n"));
        QVERIFY(openTrusted(*m_window, other));
        QCOMPARE(m_window->projectPanel()->toolModel()->rowCount(), 0);
        QVERIFY(m_window->toolsMenu()->importBundle(zip));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Imported 2 tool(s) from tools.zip:\nlookup\ntag"));
        QCOMPARE(column(m_window->projectPanel()->toolModel(), ProjectPanel::NameColumn),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("tag")}));

        // Again: every name is taken now, so nothing is imported, with the reasons.
        QVERIFY(!m_window->toolsMenu()->importBundle(zip));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Nothing was imported from tools.zip; the project is unchanged (2 problem(s)):\n"
                                "tool 'lookup' (bundle.json): the project already has a tool of that name\n"
                                "tool 'tag' (bundle.json): the project already has a tool of that name"));
    }

    /// Project dock ▸ Delete on three selected tools: one question; the two from
    /// toolstudio.json go in one undo step; the Python one stays, with the reason.
    void deleteSelectedToolsAsksOnceAndReportsFailures()
    {
        QVERIFY(writeFile(m_dir + QStringLiteral("/tools/extra.py"),
                          "class Tools:\n    def ping(self) -> str:\n        \"\"\"Answers pong.\"\"\"\n"
                          "        return 'pong'\n"));
        QVERIFY(m_window->reloadProject());
        QVERIFY(waitForPythonTools(*m_window));
        ProjectPanel *panel = m_window->projectPanel();
        QCOMPARE(column(panel->toolModel(), ProjectPanel::NameColumn),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("tag"), QStringLiteral("ping")}));
        QStringList questions;
        bool answer = false;
        m_window->toolsMenu()->setConfirmation([&](const QString &question) {
            questions << question;
            return answer;
        });
        panel->toolView()->selectAll();
        QCOMPARE(panel->selectedTools(),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("tag"), QStringLiteral("ping")}));
        QAction *remove = nullptr;
        for (QAction *action : panel->toolView()->actions())
            if (action->text() == QStringLiteral("Delete"))
                remove = action;
        QVERIFY(remove);
        QCOMPARE(remove->shortcut(), QKeySequence(QKeySequence::Delete));

        remove->trigger(); // answered No: nothing happens
        QCOMPARE(questions,
                 QStringList{QStringLiteral("Delete 3 tool(s): lookup, tag, ping?\nEdit ▸ Undo brings back the ones "
                                            "deleted from toolstudio.json.")});
        QCOMPARE(panel->toolModel()->rowCount(), 3);

        answer = true;
        remove->trigger();
        QCOMPARE(questions.size(), 2);
        QCOMPARE(column(panel->toolModel(), ProjectPanel::NameColumn), QStringList{QStringLiteral("ping")});
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Deleted 2 of 3 tool(s); not deleted:\nping: defined by a method in tools/extra.py; "
                                "delete the method there, or switch the tool off"));
        QCOMPARE(undoStack()->count(), 1);
        QCOMPARE(undoStack()->undoText(), QStringLiteral("Delete lookup, tag"));
        undoStack()->undo();
        QCOMPARE(column(panel->toolModel(), ProjectPanel::NameColumn),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("tag"), QStringLiteral("ping")}));
    }

    /// Saving a tools/*.py file reloads the project: the new method is a tool.
    void savingAToolFileReloadsTheTools()
    {
        const QString file = m_dir + QStringLiteral("/tools/extra.py");
        QVERIFY(writeFile(file, "class Tools:\n    def ping(self) -> str:\n        return 'pong'\n"));
        QVERIFY(m_window->reloadProject());
        QVERIFY(waitForPythonTools(*m_window));
        QVERIFY(m_window->project()->tool(QStringLiteral("ping")));
        QVERIFY(writeFile(file,
                          "class Tools:\n    def ping(self) -> str:\n        return 'pong'\n"
                          "    def echo(self, text: str) -> str:\n        return text\n"));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->project()->tool(QStringLiteral("echo")), 20000);
        QCOMPARE(column(m_window->projectPanel()->toolModel(), ProjectPanel::NameColumn),
                 QStringList({QStringLiteral("lookup"), QStringLiteral("tag"), QStringLiteral("ping"),
                              QStringLiteral("echo")}));
    }

private:
    QTemporaryDir m_config;
    QString m_dir;
};

QTEST_MAIN(TstToolsMenu)
#include "tst_toolsmenu.moc"
