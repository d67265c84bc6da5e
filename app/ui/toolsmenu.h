// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "exchange/toolimport.h"
#include "project/projectwriter.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class ExportToolsDialog;
class Project;
class QAction;
class QUrl;
class QWidget;
class SecretsDialog;

/// The Tools menu's workspace operations (issue 6 items 5–8; docs/python-tools.md
/// "For the window"): Export Tools…, Import Tools…, Export Bundle…, Import Bundle…
/// and Secrets…. Each runs the core call the headless `toolstudio tools …` command
/// runs (ToolExport, ToolImport, Bundle, Secrets), reloads the project after a
/// change, and ends with a summary of what was done and of everything refused, with
/// the reason — nothing is dropped or renamed silently.
///
/// Importing JSON definitions is one undoable edit of toolstudio.json (through the
/// manifest editor). A tool file or a bundle writes tools/ outside the window's undo
/// stack, so `changed` (given by the window) must reload the project and drop undo
/// steps that would write an older manifest back.
class ToolsMenu : public QObject
{
    Q_OBJECT
public:
    ToolsMenu(QWidget *window, std::function<const Project *()> project, std::function<void()> changed);

    /// In menu order, separators as separator actions.
    QList<QAction *> actions() const { return m_actions; }
    QAction *exportToolsAction() const { return m_exportTools; }
    QAction *importToolsAction() const { return m_importTools; }
    QAction *secretsAction() const { return m_secrets; }
    /// Imports need an open project and no run in progress; the rest an open project.
    void updateActions(bool projectOpen, bool runActive);

    /// Without dialogs (tests, scripted use): summaries only go to lastSummary().
    void setInteractive(bool interactive) { m_interactive = interactive; }
    /// The last summary as plain text: a headline, then one line per item or reason.
    QString lastSummary() const { return m_lastSummary; }

    /// The steps behind the actions, after the file was chosen; true when something
    /// was imported or written.
    bool importTools(const QString &file, ToolImport::As as);
    /// Files dropped on the window: true when one is a local .json or .py file.
    static bool importable(const QList<QUrl> &urls);
    /// Imports each dropped local file as importTools() does (JSON as manual tools);
    /// without a project, says to open one. True when every file was imported.
    bool importDropped(const QList<QUrl> &urls);
    bool exportBundle(const QString &zip);
    bool importBundle(const QString &zip);
    /// Tools ▸ Import MCP Config… after the file was chosen: adds the servers of a Claude
    /// Desktop, Cursor, Claude Code or VS Code MCP config to mcp_servers as one undoable
    /// edit (McpConfigImport; the credentials it moves out are saved as the project's
    /// secrets, which undo does not take back). Servers whose name the project has
    /// already are replaced when `replace` says so; unset, the person is asked
    /// (not interactive: kept).
    bool importMcpConfig(const QString &file, std::optional<bool> replace = std::nullopt);
    /// Project dock ▸ Delete on the selected tools: one confirmation, then one undoable
    /// edit of toolstudio.json removing every manifest tool of `names`, then a summary of
    /// each tool that was not deleted and why (a Python tool lives in its tools/*.py
    /// file). True when at least one tool was deleted.
    bool deleteTools(const QStringList &names);
    /// The window's undoable manifest edit (ManifestEditor::edit), used by deleteTools
    /// and JSON imports.
    void setManifestEditor(std::function<bool(const QString &text, const ProjectWriter::Edit &edit)> editor)
    {
        m_editManifest = std::move(editor);
    }
    /// Before importing JSON definitions that would be refused for a name clash or an
    /// invalid name: the suggested names the person accepts (OLD → NEW); the rest is
    /// imported without them. The default asks in a question box (accept all or none);
    /// not interactive, none. Tests replace it.
    void setRenameChooser(std::function<QMap<QString, QString>(const std::vector<ToolImport::Refusal> &)> choose)
    {
        m_chooseRenames = std::move(choose);
    }
    /// Asks before deleting; the default shows a question box. Tests replace it.
    void setConfirmation(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }

    /// Opens the dialogs (non-modal, deleted on close) and returns them.
    ExportToolsDialog *openExportDialog();
    SecretsDialog *openSecretsDialog();

private:
    void chooseAndImportTools();
    void chooseAndExportBundle();
    void chooseAndImportBundle();
    void chooseAndImportMcpConfig();
    void summarize(const QString &title, bool ok, const QString &headline, const QStringList &lines);

    QWidget *m_window;
    std::function<const Project *()> m_project;
    std::function<void()> m_changed;
    std::function<bool(const QString &, const ProjectWriter::Edit &)> m_editManifest;
    std::function<bool(const QString &)> m_confirm;
    std::function<QMap<QString, QString>(const std::vector<ToolImport::Refusal> &)> m_chooseRenames;
    QList<QAction *> m_actions;
    QAction *m_exportTools = nullptr;
    QAction *m_importTools = nullptr;
    QAction *m_exportBundle = nullptr;
    QAction *m_importBundle = nullptr;
    QAction *m_importMcpConfig = nullptr;
    QAction *m_secrets = nullptr;
    bool m_interactive = true;
    QString m_lastSummary;
};
