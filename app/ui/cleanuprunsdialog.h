// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QStringList>

#include <optional>

class JournalHousekeeping;
class QCheckBox;
class QLabel;
class QPushButton;
class QSpinBox;

/// The Runs dock's *Clean Up…* (issue 20 "Housekeeping"): prune runs by age and/or by
/// count and compact the journal, the window's `toolstudio runs --prune --older-than DAYS
/// --keep N --compact`. The rules are ticked and set here; which runs they delete is read
/// from the journal as they change and shown before anything is deleted. Live runs
/// (running or waiting) are never candidates. The dialog only chooses: the caller
/// deletes and compacts (RunsPanel::cleanUpRuns).
class CleanUpRunsDialog : public QDialog
{
    Q_OBJECT
public:
    /// `house` is open on the project's journal; `journalBytes` its size now (with its
    /// write-ahead log), shown beside the compaction choice.
    CleanUpRunsDialog(const JournalHousekeeping &house, qint64 journalBytes, QWidget *parent = nullptr);

    /// The runs the ticked rules delete, oldest first, as last read.
    QStringList candidates() const { return m_candidates; }
    bool compactAfter() const;

    QCheckBox *olderThanBox() const { return m_olderThan; }
    QSpinBox *daysBox() const { return m_days; }
    QCheckBox *keepBox() const { return m_keep; }
    QSpinBox *keepCountBox() const { return m_keepCount; }
    QCheckBox *compactBox() const { return m_compact; }
    QLabel *previewLabel() const { return m_preview; }
    QPushButton *cleanUpButton() const { return m_cleanUp; }

private:
    /// Re-reads the candidates for the rules as set and says what Clean Up will do.
    void preview();

    const JournalHousekeeping &m_house;
    qint64 m_now; ///< "days ago" counts from when the dialog opened
    QCheckBox *m_olderThan = nullptr;
    QSpinBox *m_days = nullptr;
    QCheckBox *m_keep = nullptr;
    QSpinBox *m_keepCount = nullptr;
    QCheckBox *m_compact = nullptr;
    QLabel *m_preview = nullptr;
    QPushButton *m_cleanUp = nullptr;
    QStringList m_candidates;
};
