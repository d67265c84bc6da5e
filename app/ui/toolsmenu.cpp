// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolsmenu.h"

#include "exchange/bundle.h"
#include "exporttoolsdialog.h"
#include "mcp/mcpconfigimport.h"
#include "mcp/mcpimportfolders.h"
#include "plaintextbox.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "python/secrets.h"
#include "secretsdialog.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QUrl>
#include <QWidget>

#include <algorithm>

ToolsMenu::ToolsMenu(QWidget *window, std::function<const Project *()> project, std::function<void()> changed)
    : QObject(window)
    , m_window(window)
    , m_project(std::move(project))
    , m_changed(std::move(changed))
{
    const auto separator = [this] {
        auto *action = new QAction(this);
        action->setSeparator(true);
        return action;
    };
    m_exportTools = new QAction(tr("&Export Tools…"), this);
    m_exportTools->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportTools->setStatusTip(tr("The tool definitions as the Anthropic or OpenAI API takes them: preview, "
                                   "copy or save (Ctrl+Shift+E)"));
    connect(m_exportTools, &QAction::triggered, this, &ToolsMenu::openExportDialog);

    m_importTools = new QAction(tr("&Import Tools…"), this);
    m_importTools->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_importTools->setStatusTip(tr("Add tools from Anthropic, OpenAI or MCP tools/list JSON, or a Python tool "
                                   "file (Ctrl+Shift+I)"));
    connect(m_importTools, &QAction::triggered, this, &ToolsMenu::chooseAndImportTools);

    m_exportBundle = new QAction(tr("Export &Bundle…"), this);
    m_exportBundle->setStatusTip(tr("Write the project's tools, tool files and valves to a .zip (never secrets)"));
    connect(m_exportBundle, &QAction::triggered, this, &ToolsMenu::chooseAndExportBundle);

    m_importBundle = new QAction(tr("Import B&undle…"), this);
    m_importBundle->setStatusTip(tr("Add the tools, tool files and valves of a bundle .zip to the project"));
    connect(m_importBundle, &QAction::triggered, this, &ToolsMenu::chooseAndImportBundle);

    m_importMcpConfig = new QAction(tr("Import &MCP Config…"), this);
    m_importMcpConfig->setStatusTip(tr("Add the MCP servers of a Claude Desktop, Cursor, Claude Code or VS Code config "
                                       "(claude_desktop_config.json, .mcp.json, .vscode/mcp.json)"));
    connect(m_importMcpConfig, &QAction::triggered, this, &ToolsMenu::chooseAndImportMcpConfig);

    m_secrets = new QAction(tr("&Secrets…"), this);
    m_secrets->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    m_secrets->setStatusTip(tr("API keys and other secrets of this project, given to Python tools and command "
                               "handlers as environment variables (Ctrl+Shift+K)"));
    connect(m_secrets, &QAction::triggered, this, &ToolsMenu::openSecretsDialog);

    m_actions = {m_exportTools,  m_importTools,     separator(), m_exportBundle,
                 m_importBundle, m_importMcpConfig, separator(), m_secrets};
    m_chooseRenames = [this](const std::vector<ToolImport::Refusal> &refused) {
        QMap<QString, QString> accepted;
        if (!m_interactive)
            return accepted;
        QStringList lines;
        for (const ToolImport::Refusal &refusal : refused)
            lines << tr("'%1' as '%2' (%3)").arg(elidedText(refusal.name), refusal.suggestion, refusal.reason);
        QMessageBox box(QMessageBox::Question, tr("Import Tools"),
                        tr("%n tool(s) cannot be imported under their own name. Import them under the suggested "
                           "name?",
                           nullptr, int(refused.size())),
                        QMessageBox::NoButton, m_window);
        box.setInformativeText(QStringLiteral("• ") + lines.join(QStringLiteral("\n• ")));
        showAsPlainText(&box);
        QPushButton *rename = box.addButton(tr("Use the &Suggested Names"), QMessageBox::AcceptRole);
        box.addButton(tr("Import &Only the Others"), QMessageBox::RejectRole);
        box.setDefaultButton(rename);
        box.exec();
        if (box.clickedButton() == rename)
            for (const ToolImport::Refusal &refusal : refused)
                accepted.insert(refusal.name, refusal.suggestion);
        return accepted;
    };
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(m_window, tr("Delete Tools"), question, QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No)
            == QMessageBox::Yes;
    };
    updateActions(false, false);
}

void ToolsMenu::updateActions(bool projectOpen, bool runActive)
{
    m_exportTools->setEnabled(projectOpen);
    m_exportBundle->setEnabled(projectOpen);
    m_secrets->setEnabled(projectOpen);
    m_importTools->setEnabled(projectOpen && !runActive);
    m_importBundle->setEnabled(projectOpen && !runActive);
    m_importMcpConfig->setEnabled(projectOpen && !runActive);
}

void ToolsMenu::summarize(const QString &title, bool ok, const QString &headline, const QStringList &lines)
{
    m_lastSummary = headline;
    for (const QString &line : lines)
        m_lastSummary += QLatin1Char('\n') + line;
    if (!m_interactive)
        return;
    // Window-modal and opened with open(): never blocks the event loop.
    auto *box = new QMessageBox(ok ? QMessageBox::Information : QMessageBox::Warning, title, headline, QMessageBox::Ok,
                                m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (!lines.isEmpty())
        box->setInformativeText(QStringLiteral("• ") + lines.join(QStringLiteral("\n• ")));
    showAsPlainText(box);
    box->open();
}

bool ToolsMenu::importable(const QList<QUrl> &urls)
{
    return std::any_of(urls.begin(), urls.end(), [](const QUrl &url) {
        const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
        return url.isLocalFile() && (suffix == QLatin1String("json") || suffix == QLatin1String("py"));
    });
}

bool ToolsMenu::importDropped(const QList<QUrl> &urls)
{
    if (!m_project()) {
        summarize(tr("Import Tools"), false, tr("Open a project before importing tools."), {});
        return false;
    }
    bool all = true;
    for (const QUrl &url : urls)
        all = url.isLocalFile() && importTools(url.toLocalFile(), ToolImport::As::Manual) && all;
    return all;
}

bool ToolsMenu::importTools(const QString &file, ToolImport::As as)
{
    const Project *project = m_project();
    if (!project)
        return false;
    const QString dir = project->dir;
    const bool python = QFileInfo(file).suffix().compare(QLatin1String("py"), Qt::CaseInsensitive) == 0;
    QMap<QString, QString> renames; // only what the person accepted: nothing is renamed silently
    if (!python) {
        std::vector<ToolImport::Refusal> renamable;
        for (const ToolImport::Refusal &refusal : ToolImport::plan(dir, file, as).refused)
            if (!refusal.suggestion.isEmpty())
                renamable.push_back(refusal);
        if (!renamable.empty() && m_chooseRenames)
            renames = m_chooseRenames(renamable);
    }
    const std::optional<nlohmann::ordered_json> before = ProjectWriter::readManifest(dir);
    const ToolImport::Outcome outcome = ToolImport::importFile(dir, file, as, renames);
    const QString name = QFileInfo(file).fileName();
    QStringList refusals;
    for (const ToolImport::Refusal &refusal : outcome.refused)
        refusals << tr("refused: %1").arg(ToolImport::Outcome::describe(refusal));
    if (!outcome.ok()) {
        summarize(tr("Import Tools"), false, tr("Nothing was imported from %1; the project is unchanged:").arg(name),
                  outcome.errors + refusals);
        return false;
    }
    // JSON definitions only changed toolstudio.json: replay that change as one undoable
    // edit (before written back, then after through the window's undo stack). A tool
    // file landed in tools/, which undo cannot take back.
    const std::optional<nlohmann::ordered_json> after = ProjectWriter::readManifest(dir);
    if (!python && before && after && m_editManifest && ProjectWriter::writeManifest(dir, *before)) {
        m_editManifest(tr("Import %1").arg(name), [&](nlohmann::ordered_json &manifest, QString *) {
            manifest = *after;
            return true;
        });
    } else {
        m_changed(); // `project` is stale from here on
    }
    QStringList lines = outcome.imported;
    for (auto it = renames.constBegin(); it != renames.constEnd(); ++it)
        lines << tr("'%1' imported as '%2' (the suggested name you accepted)").arg(it.key(), it.value());
    for (const QString &note : outcome.notes)
        lines << tr("note: %1").arg(note);
    lines << refusals;
    const int count = int(outcome.imported.size());
    const QString kind = python      ? tr("(a Python tool file, now in tools/)")
        : as == ToolImport::As::Mock ? tr("as mock tools")
                                     : tr("as manual tools");
    const QString headline = outcome.refused.empty()
        ? tr("Imported %n tool(s) from %1 %2:", nullptr, count).arg(name, kind)
        : tr("Imported %1 of %n tool(s) from %2 %3; %4 refused:", nullptr, outcome.total)
              .arg(count)
              .arg(name, kind)
              .arg(outcome.refused.size());
    summarize(tr("Import Tools"), true, headline, lines);
    return true;
}

bool ToolsMenu::importMcpConfig(const QString &file, std::optional<bool> replace)
{
    const Project *project = m_project();
    if (!project)
        return false;
    const QString title = tr("Import MCP Config");
    const QString name = QFileInfo(file).fileName();
    const QString unchanged = tr("Nothing was imported from %1; the project is unchanged:").arg(name);
    QString error;
    std::optional<McpConfigImport::Config> config;
    // Only a regular file: a FIFO would block the window until someone writes to it.
    if (const auto text = McpConfigImport::readFile(file, false, &error))
        config = McpConfigImport::read(*text, &error);
    if (!config) {
        summarize(title, false, unchanged, {error});
        return false;
    }
    McpImportFolders::note(*config, project->dir);
    QStringList taken;
    for (const McpConfigImport::Server &server : config->servers)
        for (const McpServerConfig &existing : project->mcpServers)
            if (existing.name == server.name)
                taken << server.name;
    if (!replace && !taken.isEmpty() && m_interactive) {
        const auto answer = QMessageBox::question(
            m_window, title,
            tr("The project has %n server(s) of the same name already: %1. Replace them with the imported ones?",
               nullptr, int(taken.size()))
                .arg(taken.join(QStringLiteral(", "))),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, QMessageBox::No);
        if (answer == QMessageBox::Cancel)
            return false;
        replace = answer == QMessageBox::Yes;
    }
    auto manifest = ProjectWriter::readManifest(project->dir, &error);
    Secrets secrets = Secrets::load(project->dir, manifest ? &error : nullptr);
    McpConfigImport::Outcome outcome;
    if (!manifest || !error.isEmpty()
        || !McpConfigImport::apply(*manifest, secrets, *config, replace.value_or(false), &outcome, &error)) {
        summarize(title, false, unchanged, {error});
        return false;
    }
    // The secrets first: servers naming secrets that were not saved would not start.
    if (!outcome.secretsSet.isEmpty() && !secrets.save(&error)) {
        summarize(title, false, unchanged, {tr("the secrets could not be saved: %1").arg(error)});
        return false;
    }
    const bool written = m_editManifest ? m_editManifest(tr("Import %1").arg(name),
                                                         [&](nlohmann::ordered_json &edited, QString *) {
                                                             edited = *manifest;
                                                             return true;
                                                         })
                                        : ProjectWriter::writeManifest(project->dir, *manifest, &error);
    if (!written) {
        summarize(title, false, unchanged, {error});
        return false;
    }
    if (!m_editManifest)
        m_changed();
    QStringList lines;
    for (const McpConfigImport::Server &server : config->servers) {
        const bool added = outcome.added.contains(server.name);
        if (!added && !outcome.replaced.contains(server.name))
            continue;
        lines << (added ? tr("added %1").arg(server.name) : tr("replaced %1").arg(server.name));
        for (const QString &note : server.notes + outcome.notes.value(server.name))
            lines << QStringLiteral("%1: %2").arg(server.name, note);
    }
    for (const QString &skipped : std::as_const(outcome.skipped))
        lines << tr("skipped %1").arg(skipped);
    if (!outcome.secretsSet.isEmpty())
        lines << tr("saved as the project's secrets (Tools ▸ Secrets; Undo does not remove them): %1")
                     .arg(outcome.secretsSet.join(QStringLiteral(", ")));
    const int count = int(outcome.added.size() + outcome.replaced.size());
    summarize(title, true, tr("Imported %n MCP server(s) from %1 (%2):", nullptr, count).arg(name, config->format),
              lines);
    return true;
}

bool ToolsMenu::exportBundle(const QString &zip)
{
    const Project *project = m_project();
    if (!project)
        return false;
    QStringList exported;
    QString error;
    if (!Bundle::exportBundle(project->dir, zip, &exported, &error)) {
        summarize(tr("Export Bundle"), false, tr("The bundle was not written:"), {error});
        return false;
    }
    summarize(
        tr("Export Bundle"), true,
        tr("Wrote %n item(s) to %1 (never secrets):", nullptr, int(exported.size())).arg(QDir::toNativeSeparators(zip)),
        exported);
    return true;
}

bool ToolsMenu::importBundle(const QString &zip)
{
    const Project *project = m_project();
    if (!project)
        return false;
    QStringList imported, errors;
    const QString name = QFileInfo(zip).fileName();
    if (!Bundle::importBundle(project->dir, zip, &imported, &errors)) {
        summarize(
            tr("Import Bundle"), false,
            tr("Nothing was imported from %1; the project is unchanged (%n problem(s)):", nullptr, int(errors.size()))
                .arg(name),
            errors);
        return false;
    }
    m_changed();
    summarize(tr("Import Bundle"), true, tr("Imported %n tool(s) from %1:", nullptr, int(imported.size())).arg(name),
              imported);
    return true;
}

bool ToolsMenu::deleteTools(const QStringList &names)
{
    const Project *project = m_project();
    if (!project || names.isEmpty() || !m_editManifest)
        return false;
    const QString list = names.join(QStringLiteral(", "));
    if (!m_confirm(tr("Delete %n tool(s): %1?\nEdit ▸ Undo brings back the ones deleted from toolstudio.json.", nullptr,
                      int(names.size()))
                       .arg(list)))
        return false;
    QStringList failed;
    QStringList fromManifest;
    for (const QString &name : names) {
        if (const PythonToolFile *file = project->pythonFileOf(name))
            failed << tr("%1: defined by a method in %2; delete the method there, or switch the tool off")
                          .arg(name, file->path);
        else
            fromManifest << name;
    }
    QStringList deleted;
    if (!fromManifest.isEmpty()) {
        // One undo step for all of them; a tool that cannot be removed is reported, the rest go.
        m_editManifest(tr("Delete %1").arg(fromManifest.join(QStringLiteral(", "))),
                       [&](nlohmann::ordered_json &manifest, QString *error) {
                           for (const QString &name : std::as_const(fromManifest)) {
                               QString reason;
                               if (ProjectWriter::removeTool(manifest, name, &reason))
                                   deleted << name;
                               else
                                   failed << QStringLiteral("%1: %2").arg(name, reason);
                           }
                           if (deleted.isEmpty() && error)
                               *error = tr("No tool was deleted.");
                           return !deleted.isEmpty();
                       });
    }
    // `project` is stale from here on (the edit reloaded it).
    if (failed.isEmpty()) {
        m_lastSummary = tr("Deleted %n tool(s): %1 (Edit ▸ Undo brings them back)", nullptr, int(deleted.size()))
                            .arg(deleted.join(QStringLiteral(", ")));
        if (auto *window = qobject_cast<QMainWindow *>(m_window))
            window->statusBar()->showMessage(m_lastSummary, 5000);
        return true;
    }
    summarize(tr("Delete Tools"), false,
              tr("Deleted %1 of %n tool(s); not deleted:", nullptr, int(names.size())).arg(deleted.size()), failed);
    return !deleted.isEmpty();
}

ExportToolsDialog *ToolsMenu::openExportDialog()
{
    const Project *project = m_project();
    if (!project)
        return nullptr;
    auto *dialog = new ExportToolsDialog(project->dir, project->name, project->tools, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

SecretsDialog *ToolsMenu::openSecretsDialog()
{
    const Project *project = m_project();
    if (!project)
        return nullptr;
    auto *dialog = new SecretsDialog(project->dir, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void ToolsMenu::chooseAndImportMcpConfig()
{
    const Project *project = m_project();
    if (!project)
        return;
    // Claude Desktop keeps its config here on Linux; else start in the project. The
    // configs people import are often hidden files (.mcp.json, .vscode/mcp.json).
    const QString claude = QDir::homePath() + QStringLiteral("/.config/Claude");
    QFileDialog dialog(m_window, tr("Import MCP Config"), QFileInfo(claude).isDir() ? claude : project->dir,
                       tr("MCP configs (*.json);;All files (*)"));
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setFilter(dialog.filter() | QDir::Hidden);
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        importMcpConfig(dialog.selectedFiles().constFirst());
}

void ToolsMenu::chooseAndImportTools()
{
    const Project *project = m_project();
    if (!project)
        return;
    const QString file = QFileDialog::getOpenFileName(
        m_window, tr("Import Tools"), project->dir,
        tr("Tool definitions (*.json *.py);;JSON: Anthropic, OpenAI, MCP tools/list (*.json);;Python tool files "
           "(*.py);;All files (*)"));
    if (file.isEmpty())
        return;
    ToolImport::As as = ToolImport::As::Manual;
    if (QFileInfo(file).suffix().compare(QLatin1String("py"), Qt::CaseInsensitive) != 0) {
        QMessageBox box(QMessageBox::Question, tr("Import Tools"),
                        tr("Import the tools of %1 as which kind of tool?").arg(QFileInfo(file).fileName()),
                        QMessageBox::Cancel, m_window);
        box.setTextFormat(Qt::PlainText); // a file name is data, never markup
        box.setInformativeText(tr("Manual: a person answers each call in the studio.\nMock: each call gets a canned "
                                  "result that you edit in the Tool dock."));
        QPushButton *manual = box.addButton(tr("As &Manual Tools"), QMessageBox::AcceptRole);
        QPushButton *mock = box.addButton(tr("As M&ock Tools"), QMessageBox::AcceptRole);
        box.setDefaultButton(manual);
        box.exec();
        if (box.clickedButton() == mock)
            as = ToolImport::As::Mock;
        else if (box.clickedButton() != manual)
            return;
    }
    importTools(file, as);
}

void ToolsMenu::chooseAndExportBundle()
{
    const Project *project = m_project();
    if (!project)
        return;
    const QString zip = QFileDialog::getSaveFileName(
        m_window, tr("Export Bundle"), QDir(project->dir).filePath(QStringLiteral("%1-tools.zip").arg(project->name)),
        tr("Tool bundles (*.zip)"));
    if (!zip.isEmpty())
        exportBundle(zip);
}

void ToolsMenu::chooseAndImportBundle()
{
    const Project *project = m_project();
    if (!project)
        return;
    const QString zip
        = QFileDialog::getOpenFileName(m_window, tr("Import Bundle"), project->dir, tr("Tool bundles (*.zip)"));
    if (!zip.isEmpty())
        importBundle(zip);
}
