// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "editoractions.h"

#include "findbar.h"
#include "scripteditor.h"
#include "scripttabs.h"
#include "theme.h"

#include <QAction>
#include <QDir>

EditorActions::EditorActions(ScriptTabs *tabs, FindBar *findBar, QWidget *area, Reporter report)
    : QObject(area)
    , m_tabs(tabs)
    , m_report(std::move(report))
{
    m_saveAction = new QAction(Theme::icon("document-save", "save"), tr("&Save Script"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Write the script back to its file"));
    connect(m_saveAction, &QAction::triggered, this, &EditorActions::save);

    m_closeTabAction = new QAction(tr("&Close File"), this);
    m_closeTabAction->setShortcut(QKeySequence::Close);
    connect(m_closeTabAction, &QAction::triggered, this, [this] {
        if (m_tabs->currentIndex() >= 0)
            m_tabs->closeTab(m_tabs->currentIndex());
    });
    m_findAction = new QAction(tr("&Find…"), this);
    m_findAction->setShortcut(QKeySequence::Find);
    connect(m_findAction, &QAction::triggered, findBar, &FindBar::showFind);
    m_replaceAction = new QAction(tr("Find and &Replace…"), this);
    m_replaceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    connect(m_replaceAction, &QAction::triggered, findBar, &FindBar::showReplace);
    m_goToLineAction = new QAction(tr("&Go to Line…"), this);
    m_goToLineAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_goToLineAction, &QAction::triggered, m_tabs, &ScriptTabs::goToLine);
    for (QAction *action : {m_findAction, m_replaceAction, m_goToLineAction, m_closeTabAction}) {
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        area->addAction(action);
    }
}

bool EditorActions::save()
{
    ScriptEditor *e = m_tabs->current();
    if (!e)
        return false;
    QString error;
    if (!e->save(&error)) {
        m_report(tr("Cannot Save Script"), error);
        return false;
    }
    Q_EMIT notice(tr("Saved %1").arg(QDir::toNativeSeparators(e->filePath())), 3000);
    Q_EMIT saved(e->filePath());
    return true;
}

void EditorActions::updateActions()
{
    const bool open = m_tabs->current() != nullptr;
    for (QAction *action : {m_saveAction, m_closeTabAction, m_findAction, m_replaceAction, m_goToLineAction})
        action->setEnabled(open);
}
