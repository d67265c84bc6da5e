// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QTreeView;
class RunCompareModel;

/// Two recorded runs side by side (Runs dock ▸ Compare): a heading per run (script,
/// status, steps), a count of same / changed / only-in-A / only-in-B steps, and
/// RunCompareModel in a table. Opens as a window of its own.
class RunComparePanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunComparePanel(QWidget *parent = nullptr);

    /// Reads runs `leftRun` (A) and `rightRun` (B) from the journal at `journalPath`.
    /// False with `error` set when the journal cannot be opened or a run is not in it.
    bool load(const QString &journalPath, const QString &leftRun, const QString &rightRun, QString *error);

    RunCompareModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QLabel *summaryLabel() const { return m_summary; }

private:
    RunCompareModel *m_model = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_heading = nullptr;
    QLabel *m_summary = nullptr;
};
