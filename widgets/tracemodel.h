// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QIcon>

#include <array>
#include <vector>

class QTimer;

/// The trace of a run as a tree: one top-level row per step (in order of arrival),
/// one child row per attempt of that step. Fed by RunController's stepAdded /
/// stepChanged signals; new steps are queued and inserted in batches (one
/// beginInsertRows per flush) so a burst of calls costs one view update.
class TraceModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        Sequence,
        Tool,
        Status,   ///< icon + status name
        Attempts, ///< "2/3"
        Duration,
        Summary,  ///< result as compact JSON, or the error ("code: message")
        NUM_COLUMNS
    };

    enum Roles {
        CallIdRole = Qt::UserRole,  ///< QString: the step's call id (attempt rows: their step's)
        StatusRole,                 ///< int: StepStatus of the step (attempt rows: their step's)
        SequenceRole,               ///< int: the step's sequence number
        AttemptNumberRole,          ///< int: the attempt's number; 0 on step rows
        IsAttemptRole,              ///< bool: true on attempt rows
        ResultJsonRole,             ///< QString: compact JSON of the result; null when none
        ErrorCodeRole,              ///< QString: error code of the step / attempt; empty when none
    };

    /// Longest Summary text shown in the view; the tooltip holds the whole value.
    static constexpr int MaxSummaryChars = 200;
    /// How long new steps wait in the queue before they are inserted (ms).
    static constexpr int BatchIntervalMs = 16;

    explicit TraceModel(QObject *parent = nullptr);
    ~TraceModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The step shown at top-level `row`, or nullptr.
    const Step *step(int row) const;
    /// The step with `callId` (inserted or still queued), or nullptr.
    const Step *stepByCallId(const QString &callId) const;
    /// Top-level index of the step with `callId`; invalid while it is still queued.
    QModelIndex indexForCallId(const QString &callId, int column = 0) const;
    /// Steps waiting in the queue for the next flush.
    int queuedCount() const { return int(m_queue.size()); }

    /// Translated display name of a step status ("succeeded", …).
    static QString statusText(StepStatus status);
    /// "12 ms", "0.4 s", "1 min 3 s".
    static QString durationText(qint64 ms);
    /// Compact JSON, never throwing on invalid UTF-8.
    static QString jsonText(const nlohmann::json &value, int indent = -1);

public Q_SLOTS:
    /// Queues a new step (inserted at the next flush). A step whose call id is known
    /// already is treated as an update.
    void addStep(const Step &step);
    /// Replaces the step with the same call id: its row, its status and its attempt
    /// children. An unknown call id is added.
    void updateStep(const Step &step);
    /// Removes every step (a new run).
    void clear();
    /// Inserts the queued steps now, in one batch.
    void flush();

private:
    QVariant stepData(const Step &step, int column, int role) const;
    QVariant attemptData(const Step &step, const Attempt &attempt, int column, int role) const;
    QIcon statusIcon(StepStatus status) const;

    std::vector<Step> m_steps;
    QHash<QString, int> m_rowByCallId;
    std::vector<Step> m_queue;
    QHash<QString, int> m_queueIndexByCallId; ///< index in m_queue; a burst stays O(1) per step
    QTimer *m_flushTimer = nullptr;
    mutable std::array<QIcon, 8> m_icons;
    mutable bool m_iconsLoaded = false;
};
