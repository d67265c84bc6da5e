// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "manifesteditor.h"

#include "project/project.h"
#include "settings.h"

#include <QAction>
#include <QInputDialog>
#include <QLineEdit>
#include <QUndoStack>

namespace {

/// One structured edit of toolstudio.json: the manifest before and after, written
/// back on redo/undo; the project is reloaded after each.
class ManifestCommand : public QUndoCommand
{
public:
    ManifestCommand(std::function<void()> reload, QString dir, nlohmann::ordered_json before,
                    nlohmann::ordered_json after, const QString &text)
        : QUndoCommand(text)
        , m_reload(std::move(reload))
        , m_dir(std::move(dir))
        , m_before(std::move(before))
        , m_after(std::move(after))
    {}
    void redo() override { write(m_after); }
    void undo() override { write(m_before); }

private:
    void write(const nlohmann::ordered_json &manifest)
    {
        QString error;
        if (!ProjectWriter::writeManifest(m_dir, manifest, &error))
            qWarning("%s", qPrintable(error));
        m_reload();
    }
    std::function<void()> m_reload;
    QString m_dir;
    nlohmann::ordered_json m_before;
    nlohmann::ordered_json m_after;
};

} // namespace

ManifestEditor::ManifestEditor(QWidget *window, std::function<const Project *()> project, std::function<void()> reload,
                               Reporter report)
    : QObject(window)
    , m_window(window)
    , m_project(std::move(project))
    , m_reload(std::move(reload))
    , m_report(std::move(report))
    , m_undoStack(new QUndoStack(this))
{
    m_undoStack->setObjectName(QStringLiteral("manifestUndoStack"));
    m_undoAction = m_undoStack->createUndoAction(this, tr("&Undo"));
    m_undoAction->setObjectName(QStringLiteral("undoAction"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_redoAction = m_undoStack->createRedoAction(this, tr("&Redo"));
    m_redoAction->setObjectName(QStringLiteral("redoAction"));
    m_redoAction->setShortcut(QKeySequence::Redo);
    m_redoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_newToolAction = new QAction(tr("New &Mock Tool…"), this);
    m_newToolAction->setStatusTip(tr("Add a mock tool to toolstudio.json"));
    connect(m_newToolAction, &QAction::triggered, this, &ManifestEditor::newTool);
}

bool ManifestEditor::edit(const QString &text, const ProjectWriter::Edit &edit)
{
    const Project *project = m_project();
    if (!project)
        return false;
    QString error;
    std::optional<nlohmann::ordered_json> before = ProjectWriter::readManifest(project->dir, &error);
    if (!before) {
        m_report(text, error);
        return false;
    }
    nlohmann::ordered_json after = *before;
    if (!edit(after, &error)) {
        m_report(text, error);
        m_reload(); // e.g. undo a checkbox the model already toggled
        return false;
    }
    m_undoStack->push(new ManifestCommand(m_reload, project->dir, std::move(*before), std::move(after), text));
    return true;
}

void ManifestEditor::newTool()
{
    if (!m_project())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(m_window, tr("New Tool"), tr("Name of the new mock tool:"),
                                               QLineEdit::Normal, QStringLiteral("new_tool"), &ok)
                             .trimmed();
    if (!ok || name.isEmpty())
        return;
    const Settings *settings = Settings::instance();
    if (edit(tr("New tool %1").arg(name), [&](nlohmann::ordered_json &m, QString *error) {
            nlohmann::ordered_json tool = ProjectWriter::newMockTool(name);
            tool["retry"] = {{"max_attempts", settings->maxAttempts()},
                             {"initial_backoff_seconds", settings->initialBackoffMs() / 1000.0},
                             {"attempt_timeout_seconds", settings->attemptTimeoutMs() / 1000.0}};
            return ProjectWriter::addTool(m, tool, error);
        }))
        Q_EMIT toolWritten(name);
}

void ManifestEditor::renameTool(const QString &tool)
{
    bool ok = false;
    const QString name = QInputDialog::getText(m_window, tr("Rename Tool"), tr("New name for %1:").arg(tool),
                                               QLineEdit::Normal, tool, &ok)
                             .trimmed();
    if (!ok || name.isEmpty() || name == tool)
        return;
    if (edit(tr("Rename %1 to %2").arg(tool, name), [&](nlohmann::ordered_json &m, QString *error) {
            return ProjectWriter::renameTool(m, tool, name, error);
        }))
        Q_EMIT toolWritten(name);
}

void ManifestEditor::cloneTool(const QString &tool)
{
    QString name;
    if (edit(tr("Clone %1").arg(tool), [&](nlohmann::ordered_json &m, QString *error) {
            name = ProjectWriter::uniqueToolName(m, tool);
            return ProjectWriter::cloneTool(m, tool, name, error);
        }))
        Q_EMIT toolWritten(name);
}
