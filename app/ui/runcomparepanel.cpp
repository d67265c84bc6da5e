// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcomparepanel.h"

#include "journal/journal.h"
#include "runcomparemodel.h"
#include "tracerowformat.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

RunComparePanel::RunComparePanel(QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_model(new RunCompareModel(this))
{
    setWindowTitle(tr("Compare Runs"));
    m_heading = new QLabel(this);
    m_heading->setTextFormat(Qt::RichText);
    m_heading->setWordWrap(true);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("compareView"));
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(false);
    const QFontMetrics metrics(m_view->font());
    const int sequence = metrics.horizontalAdvance(QStringLiteral("B # 9999")) + 12;
    const int tool = metrics.horizontalAdvance(QStringLiteral("get_exchange_rate")) + 16;
    const int status = metrics.horizontalAdvance(QStringLiteral("succeeded")) + 16;
    const int duration = metrics.horizontalAdvance(QStringLiteral("B duration")) + 12;
    for (int side : {int(RunCompareModel::LeftSequence), int(RunCompareModel::RightSequence)}) {
        header->resizeSection(side + RunCompareModel::LeftSequence, sequence);
        header->resizeSection(side + RunCompareModel::LeftTool, tool);
        header->resizeSection(side + RunCompareModel::LeftStatus, status);
        header->setSectionResizeMode(side + RunCompareModel::LeftResult, QHeaderView::Stretch);
        header->resizeSection(side + RunCompareModel::LeftDuration, duration);
    }
    header->resizeSection(RunCompareModel::Difference, metrics.horizontalAdvance(QStringLiteral("\u2260")) + 20);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    resize(1100, 520);
}

bool RunComparePanel::load(const QString &journalPath, const QString &leftRun, const QString &rightRun, QString *error)
{
    Journal journal;
    if (!journal.open(journalPath, error))
        return false;
    const std::optional<RunRecord> left = journal.run(leftRun);
    const std::optional<RunRecord> right = journal.run(rightRun);
    if (!left || !right) {
        if (error)
            *error = tr("There is no run %1 in the journal.").arg(left ? rightRun : leftRun);
        return false;
    }
    m_model->setRuns(journal.steps(leftRun), journal.steps(rightRun));
    const auto describe = [&](const QString &side, const RunRecord &run, std::size_t steps) {
        return tr("<b>%1</b>: run %2 — %3, %4, started %5, %n step(s)", nullptr, int(steps))
            .arg(side, run.id.toHtmlEscaped(), QFileInfo(run.scriptPath).fileName().toHtmlEscaped(),
                 TraceRowFormat::runStatusText(run.status),
                 QDateTime::fromMSecsSinceEpoch(run.startedAt).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    };
    m_heading->setText(describe(QStringLiteral("A"), *left, m_model->leftSteps().size()) + QStringLiteral("<br>")
                       + describe(QStringLiteral("B"), *right, m_model->rightSteps().size()));
    const std::array<int, 4> counts = m_model->counts();
    m_summary->setText(tr("%1 same · %2 changed · %3 only in A · %4 only in B")
                           .arg(counts[0])
                           .arg(counts[1])
                           .arg(counts[2])
                           .arg(counts[3]));
    setWindowTitle(tr("Compare %1 and %2").arg(leftRun, rightRun));
    return true;
}
