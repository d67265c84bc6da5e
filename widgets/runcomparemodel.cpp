// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcomparemodel.h"
#include "project/printabletext.h"

#include "project/durationtext.h"
#include "tracemodel.h"

#include <QColor>
#include <QCryptographicHash>

#include <cstdint>

namespace {

// Translucent, so they read on the light and the dark palette alike.
const QColor OnlyLeftColour(229, 57, 53, 60);
const QColor OnlyRightColour(67, 160, 71, 60);
const QColor ChangedColour(251, 140, 0, 80);
const QColor GapColour(128, 128, 128, 40);

bool isLeft(int column)
{
    return column < RunCompareModel::Difference;
}

} // namespace

RunCompareModel::RunCompareModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

QString RunCompareModel::alignmentKey(const Step &step)
{
    const std::string args = step.args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const QByteArray hash = QCryptographicHash::hash(QByteArray::fromStdString(args), QCryptographicHash::Sha256);
    return step.tool + QLatin1Char('\n') + QString::fromLatin1(hash.toHex().left(32));
}

std::vector<std::pair<int, int>> RunCompareModel::longestCommonSubsequence(const QStringList &a, const QStringList &b)
{
    const int n = int(a.size());
    const int m = int(b.size());
    int prefix = 0;
    while (prefix < n && prefix < m && a[prefix] == b[prefix])
        ++prefix;
    int suffix = 0;
    while (suffix < n - prefix && suffix < m - prefix && a[n - 1 - suffix] == b[m - 1 - suffix])
        ++suffix;
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < prefix; ++i)
        pairs.emplace_back(i, i);

    // The middle: a[prefix, n - suffix) against b[prefix, m - suffix).
    const int rows = n - prefix - suffix;
    const int cols = m - prefix - suffix;
    if (rows > 0 && cols > 0) {
        if (qint64(rows + 1) * (cols + 1) > MaxAlignmentCells) {
            for (int k = 0; k < std::min(rows, cols); ++k)
                if (a[prefix + k] == b[prefix + k])
                    pairs.emplace_back(prefix + k, prefix + k);
        } else {
            // length[i][j]: LCS of the middles' suffixes from i and j. At most
            // MaxAlignmentCells cells, so min(rows, cols) < 2^16 and 16 bits suffice.
            const int width = cols + 1;
            std::vector<std::uint16_t> length(std::size_t(rows + 1) * std::size_t(width), 0);
            const auto at = [&](int i, int j) -> std::uint16_t & {
                return length[std::size_t(i) * std::size_t(width) + std::size_t(j)];
            };
            for (int i = rows - 1; i >= 0; --i)
                for (int j = cols - 1; j >= 0; --j)
                    at(i, j) = a[prefix + i] == b[prefix + j] ? std::uint16_t(at(i + 1, j + 1) + 1)
                                                              : std::max(at(i + 1, j), at(i, j + 1));
            int i = 0, j = 0;
            while (i < rows && j < cols) {
                if (a[prefix + i] == b[prefix + j]) {
                    pairs.emplace_back(prefix + i, prefix + j);
                    ++i;
                    ++j;
                } else if (at(i + 1, j) >= at(i, j + 1)) {
                    ++i;
                } else {
                    ++j;
                }
            }
        }
    }
    for (int k = suffix; k > 0; --k)
        pairs.emplace_back(n - k, m - k);
    return pairs;
}

void RunCompareModel::setRuns(std::vector<Step> left, std::vector<Step> right)
{
    beginResetModel();
    m_left = std::move(left);
    m_right = std::move(right);
    m_rows.clear();
    QStringList leftKeys, rightKeys;
    leftKeys.reserve(qsizetype(m_left.size()));
    rightKeys.reserve(qsizetype(m_right.size()));
    for (const Step &s : m_left)
        leftKeys.append(alignmentKey(s));
    for (const Step &s : m_right)
        rightKeys.append(alignmentKey(s));
    int i = 0, j = 0;
    const auto gapsUntil = [&](int li, int rj) {
        for (; i < li; ++i)
            m_rows.push_back({i, -1, Diff::OnlyLeft});
        for (; j < rj; ++j)
            m_rows.push_back({-1, j, Diff::OnlyRight});
    };
    for (const auto &[li, rj] : longestCommonSubsequence(leftKeys, rightKeys)) {
        gapsUntil(li, rj);
        const Step &l = m_left[std::size_t(li)];
        const Step &r = m_right[std::size_t(rj)];
        const bool same = l.status == r.status && outcomeText(l) == outcomeText(r);
        m_rows.push_back({li, rj, same ? Diff::Same : Diff::Changed});
        ++i;
        ++j;
    }
    gapsUntil(int(m_left.size()), int(m_right.size()));
    endResetModel();
}

std::array<int, 4> RunCompareModel::counts() const
{
    std::array<int, 4> result{};
    for (const Row &row : m_rows)
        ++result[std::size_t(row.diff)];
    return result;
}

QString RunCompareModel::outcomeText(const Step &step)
{
    if (step.error)
        return printableText(step.error->text());
    if (step.result)
        return TraceModel::jsonText(*step.result);
    return {};
}

bool RunCompareModel::cellDiffers(const Row &row, int column) const
{
    if (row.diff != Diff::Changed)
        return false;
    const Step &l = m_left[std::size_t(row.left)];
    const Step &r = m_right[std::size_t(row.right)];
    switch (column) {
    case LeftStatus:
    case RightStatus:
        return l.status != r.status;
    case LeftResult:
    case RightResult:
        return outcomeText(l) != outcomeText(r);
    default:
        return false;
    }
}

int RunCompareModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RunCompareModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant RunCompareModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    const int column = index.column();
    const Step *left = row.left >= 0 ? &m_left[std::size_t(row.left)] : nullptr;
    const Step *right = row.right >= 0 ? &m_right[std::size_t(row.right)] : nullptr;
    switch (role) {
    case DifferenceRole:
        return int(row.diff);
    case LeftCallIdRole:
        return left ? left->callId : QString();
    case RightCallIdRole:
        return right ? right->callId : QString();
    case Qt::DisplayRole: {
        if (column == Difference) {
            switch (row.diff) {
            case Diff::Same:
                return QStringLiteral("=");
            case Diff::Changed:
                return QStringLiteral("\u2260");
            case Diff::OnlyLeft:
                return QStringLiteral("\u2212");
            case Diff::OnlyRight:
                return QStringLiteral("+");
            }
            return {};
        }
        const Step *step = isLeft(column) ? left : right;
        if (!step)
            return {};
        switch (isLeft(column) ? column : column - RightSequence) {
        case LeftSequence:
            return QString::number(step->sequence);
        case LeftTool:
            return printableText(step->tool);
        case LeftStatus:
            return stepStatusName(step->status);
        case LeftResult:
            return printableText(outcomeText(*step).left(TraceModel::MaxSummaryChars));
        case LeftDuration:
            return step->endedAt > 0 && step->queuedAt > 0 ? durationText(step->durationMs()) : QString();
        default:
            return {};
        }
    }
    case Qt::ToolTipRole:
        switch (row.diff) {
        case Diff::Same:
            return tr("The same call with the same outcome in both runs");
        case Diff::Changed:
            return tr("The same call (tool and arguments); its status or result differs");
        case Diff::OnlyLeft:
            return tr("Only run A made this call");
        case Diff::OnlyRight:
            return tr("Only run B made this call");
        }
        return {};
    case Qt::BackgroundRole:
        if (column == Difference)
            return {};
        if ((isLeft(column) && !left) || (!isLeft(column) && !right))
            return GapColour;
        if (row.diff == Diff::OnlyLeft)
            return OnlyLeftColour;
        if (row.diff == Diff::OnlyRight)
            return OnlyRightColour;
        return cellDiffers(row, column) ? QVariant(ChangedColour) : QVariant();
    case Qt::TextAlignmentRole:
        if (column == Difference)
            return int(Qt::AlignCenter);
        return {};
    default:
        return {};
    }
}

QVariant RunCompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= NUM_COLUMNS)
        return {};
    switch (section) {
    case LeftSequence:
        return tr("A #");
    case LeftTool:
        return tr("A tool");
    case LeftStatus:
        return tr("A status");
    case LeftResult:
        return tr("A result / error");
    case LeftDuration:
        return tr("A duration");
    case Difference:
        return QString();
    case RightSequence:
        return tr("B #");
    case RightTool:
        return tr("B tool");
    case RightStatus:
        return tr("B status");
    case RightResult:
        return tr("B result / error");
    case RightDuration:
        return tr("B duration");
    default:
        return {};
    }
}
