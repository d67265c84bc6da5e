// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QWidget;
class ScriptEditor;

/// The editor's find/replace bar (Ctrl+F, Ctrl+H), shown under the editor tabs.
/// Enter finds the next match, Shift+Enter the previous one, Escape closes the bar.
class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(QWidget *parent = nullptr);

    void setEditor(ScriptEditor *editor);
    /// Shows the bar with the editor's selection as the search text.
    void showFind();
    /// The same with the replace row.
    void showReplace();

    QLineEdit *findEdit() const { return m_findEdit; }
    QLineEdit *replaceEdit() const { return m_replaceEdit; }
    QCheckBox *caseCheck() const { return m_caseCheck; }

public Q_SLOTS:
    bool findNext();
    bool findPrevious();
    /// Replaces the current match and finds the next one.
    bool replaceCurrent();
    /// Replaces every match; returns how many.
    int replaceAll();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    bool find(bool forward);
    void setReplaceVisible(bool visible);

    QPointer<ScriptEditor> m_editor;
    QLineEdit *m_findEdit = nullptr;
    QLineEdit *m_replaceEdit = nullptr;
    QCheckBox *m_caseCheck = nullptr;
    QWidget *m_replaceRow = nullptr;
    QLabel *m_status = nullptr;
};
