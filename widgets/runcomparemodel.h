// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <array>
#include <utility>
#include <vector>

/// Two runs side by side (issue 8 "compare two runs"): the steps of run A (left) and
/// run B (right) aligned by a longest common subsequence of their (tool, argument
/// hash) keys, so a step one run made and the other did not shows as a gap on the
/// other side instead of shifting every later row. Aligned steps whose status or
/// result/error differ are marked Changed; the differing cells are highlighted.
/// One row per aligned pair or unmatched step, in sequence order on both sides.
class RunCompareModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        LeftSequence,
        LeftTool,
        LeftStatus,
        LeftResult,
        LeftDuration,
        Difference,
        RightSequence,
        RightTool,
        RightStatus,
        RightResult,
        RightDuration,
        NUM_COLUMNS
    };
    enum Roles {
        DifferenceRole = Qt::UserRole, ///< int(RunCompareModel::Diff) of the row
        LeftCallIdRole,                ///< the left step's call id; empty in a gap
        RightCallIdRole,
    };
    /// How a row's two sides relate.
    enum class Diff { Same, Changed, OnlyLeft, OnlyRight };

    /// One row: indexes into the left and right steps (-1 = a gap on that side).
    struct Row
    {
        int left = -1;
        int right = -1;
        Diff diff = Diff::Same;
    };

    explicit RunCompareModel(QObject *parent = nullptr);

    /// Replaces both runs (steps in sequence order) and aligns them.
    void setRuns(std::vector<Step> left, std::vector<Step> right);
    const std::vector<Row> &rows() const { return m_rows; }
    const std::vector<Step> &leftSteps() const { return m_left; }
    const std::vector<Step> &rightSteps() const { return m_right; }
    /// Rows by kind: {same, changed, only left, only right}.
    std::array<int, 4> counts() const;

    /// The alignment key of a step: tool and a hash of its arguments' compact JSON.
    static QString alignmentKey(const Step &step);
    /// Index pairs of a longest common subsequence of `a` and `b` (increasing in both).
    /// A common prefix and suffix are matched first; the rest is aligned by dynamic
    /// programming, or position by position when it would take more than
    /// MaxAlignmentCells table cells (runs that differ almost everywhere).
    static std::vector<std::pair<int, int>> longestCommonSubsequence(const QStringList &a, const QStringList &b);
    static constexpr qint64 MaxAlignmentCells = 4 * 1024 * 1024;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// The status / result text of one side, for display and comparison.
    static QString outcomeText(const Step &step);
    bool cellDiffers(const Row &row, int column) const;

    std::vector<Step> m_left;
    std::vector<Step> m_right;
    std::vector<Row> m_rows;
};
