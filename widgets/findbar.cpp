// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "findbar.h"

#include "scripteditor.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

FindBar::FindBar(QWidget *parent)
    : QWidget(parent)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(4, 2, 4, 2);
    m_findEdit = new QLineEdit(this);
    m_findEdit->setObjectName(QStringLiteral("findEdit"));
    m_findEdit->setPlaceholderText(tr("Find"));
    m_findEdit->setClearButtonEnabled(true);
    auto *findLabel = new QLabel(tr("Fi&nd:"), this);
    findLabel->setBuddy(m_findEdit);
    auto *previous = new QPushButton(tr("&Previous"), this);
    auto *next = new QPushButton(tr("N&ext"), this);
    m_caseCheck = new QCheckBox(tr("&Match case"), this);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Esc)"));
    close->setAutoRaise(true);
    m_status = new QLabel(this);
    grid->addWidget(findLabel, 0, 0);
    grid->addWidget(m_findEdit, 0, 1);
    grid->addWidget(previous, 0, 2);
    grid->addWidget(next, 0, 3);
    grid->addWidget(m_caseCheck, 0, 4);
    grid->addWidget(m_status, 0, 5);
    grid->addWidget(close, 0, 6);

    m_replaceRow = new QWidget(this);
    auto *row = new QHBoxLayout(m_replaceRow);
    row->setContentsMargins(0, 0, 0, 0);
    m_replaceEdit = new QLineEdit(m_replaceRow);
    m_replaceEdit->setObjectName(QStringLiteral("replaceEdit"));
    m_replaceEdit->setPlaceholderText(tr("Replace with"));
    auto *replaceLabel = new QLabel(tr("Rep&lace:"), this);
    replaceLabel->setBuddy(m_replaceEdit);
    auto *replace = new QPushButton(tr("&Replace"), m_replaceRow);
    auto *all = new QPushButton(tr("Replace &All"), m_replaceRow);
    row->addWidget(m_replaceEdit, 1);
    row->addWidget(replace);
    row->addWidget(all);
    grid->addWidget(replaceLabel, 1, 0);
    grid->addWidget(m_replaceRow, 1, 1, 1, 4);
    grid->setColumnStretch(1, 1);
    m_replaceRow->setProperty("label", QVariant::fromValue<QObject *>(replaceLabel));

    connect(m_findEdit, &QLineEdit::returnPressed, this, &FindBar::findNext);
    connect(m_replaceEdit, &QLineEdit::returnPressed, this, &FindBar::replaceCurrent);
    connect(next, &QPushButton::clicked, this, &FindBar::findNext);
    connect(previous, &QPushButton::clicked, this, &FindBar::findPrevious);
    connect(replace, &QPushButton::clicked, this, &FindBar::replaceCurrent);
    connect(all, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    setTabOrder(m_findEdit, previous);
    setTabOrder(previous, next);
    setTabOrder(next, m_caseCheck);
    setTabOrder(m_caseCheck, m_replaceEdit);
    setTabOrder(m_replaceEdit, replace);
    setTabOrder(replace, all);
}

void FindBar::setEditor(ScriptEditor *editor)
{
    m_editor = editor;
}

void FindBar::setReplaceVisible(bool visible)
{
    m_replaceRow->setVisible(visible);
    if (auto *label = qobject_cast<QWidget *>(m_replaceRow->property("label").value<QObject *>()))
        label->setVisible(visible);
}

void FindBar::showFind()
{
    setReplaceVisible(false);
    show();
    if (m_editor && m_editor->hasSelectedText() && !m_editor->selectedText().contains(QLatin1Char('\n')))
        m_findEdit->setText(m_editor->selectedText());
    m_findEdit->setFocus();
    m_findEdit->selectAll();
}

void FindBar::showReplace()
{
    showFind();
    setReplaceVisible(true);
}

bool FindBar::find(bool forward)
{
    if (!m_editor || m_findEdit->text().isEmpty())
        return false;
    int line = 0;
    int index = 0;
    m_editor->getCursorPosition(&line, &index);
    if (!forward && m_editor->hasSelectedText()) {
        int lineFrom = 0, indexFrom = 0, lineTo = 0, indexTo = 0;
        m_editor->getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        line = lineFrom;
        index = indexFrom;
    }
    const bool found = m_editor->findFirst(m_findEdit->text(), false, m_caseCheck->isChecked(), false, true, forward,
                                           line, index, true);
    m_status->setText(found ? QString() : tr("Not found"));
    return found;
}

bool FindBar::findNext()
{
    return find(true);
}

bool FindBar::findPrevious()
{
    return find(false);
}

bool FindBar::replaceCurrent()
{
    if (!m_editor)
        return false;
    const Qt::CaseSensitivity cs = m_caseCheck->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
    if (m_editor->hasSelectedText() && m_editor->selectedText().compare(m_findEdit->text(), cs) == 0)
        m_editor->replaceSelectedText(m_replaceEdit->text());
    return findNext();
}

int FindBar::replaceAll()
{
    if (!m_editor || m_findEdit->text().isEmpty())
        return 0;
    int count = 0;
    m_editor->beginUndoAction();
    bool found
        = m_editor->findFirst(m_findEdit->text(), false, m_caseCheck->isChecked(), false, false, true, 0, 0, false);
    while (found) {
        m_editor->replace(m_replaceEdit->text());
        ++count;
        found = m_editor->findNext();
    }
    m_editor->endUndoAction();
    m_status->setText(tr("%n replaced", nullptr, count));
    return count;
}

void FindBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (m_editor)
            m_editor->setFocus();
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && (event->modifiers() & Qt::ShiftModifier)) {
        findPrevious();
        return;
    }
    QWidget::keyPressEvent(event);
}
