// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runspanel.h"

#include "cli/traceexport.h"
#include "durablerunactions.h"
#include "journal.h"
#include "project.h"
#include "runcomparepanel.h"
#include "runcontroller.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMainWindow>
#include <QPushButton>
#include <QStatusBar>
#include <QTreeWidget>
#include <QVBoxLayout>

RunsPanel::RunsPanel(QMainWindow *window, RunController *run, std::function<const Project *()> project,
                     Reporter report, DurableRunActions *durable)
    : QWidget(window)
    , m_window(window)
    , m_run(run)
    , m_project(std::move(project))
    , m_report(std::move(report))
{
    m_view = new QTreeWidget(this);
    m_view->setObjectName(QStringLiteral("runsView"));
    m_view->setHeaderLabels({tr("Run", "runs list column: a run's id"), tr("Script"), tr("Status"), tr("Started"),
                             tr("Duration"), tr("Kind", "runs list column: run, replay, rerun, …")});
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection); // two runs to compare
    m_view->header()->resizeSection(0, 170);
    connect(m_view, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem *item) { Q_EMIT openRequested(item->data(0, Qt::UserRole).toString()); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    const auto button = [&](const QString &text, const char *name, const QString &tip) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(QString::fromLatin1(name));
        b->setToolTip(tip);
        bar->addWidget(b);
        return b;
    };
    QPushButton *openRun = button(tr("&Open"), "openRun", tr("Show the selected run's trace and output"));
    QPushButton *replayRun = button(tr("&Replay"), "replayRun",
                                    tr("Run the selected run's script again with its recorded results memoized"));
    QPushButton *resumeRun = button(tr("Res&ume"), "resumeRun", tr("Continue a suspended run up to its open call"));
    bar->addWidget(durable->makeRunsButton(this));
    QPushButton *exportJson = button(tr("Export &JSON…"), "exportRunJson",
                                     tr("Save the selected run as JSON (docs/run-export.md)"));
    QPushButton *exportChrome = button(tr("Export &Chrome Trace…"), "exportRunChrome",
                                       tr("Save the selected run as Chrome trace-event JSON (opens in Perfetto)"));
    QPushButton *compare = button(tr("Co&mpare"), "compareRuns",
                                  tr("Compare the two selected runs step by step (Ctrl+click to select two)"));
    connect(compare, &QPushButton::clicked, this, [this] {
        QList<QTreeWidgetItem *> items = m_view->selectedItems();
        if (items.size() != 2)
            return;
        // Newest first in the list: the older run is A.
        if (m_view->indexOfTopLevelItem(items[0]) < m_view->indexOfTopLevelItem(items[1]))
            std::swap(items[0], items[1]);
        compareRuns(items[0]->data(0, Qt::UserRole).toString(), items[1]->data(0, Qt::UserRole).toString());
    });
    bar->addStretch(1);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(openRun, &QPushButton::clicked, this, [this] { Q_EMIT openRequested(currentRun()); });
    connect(replayRun, &QPushButton::clicked, this, [this] { Q_EMIT startRequested(currentRun(), false); });
    connect(resumeRun, &QPushButton::clicked, this, [this] { Q_EMIT startRequested(currentRun(), true); });
    connect(exportJson, &QPushButton::clicked, this, [this] { exportRun(currentRun(), QStringLiteral("json"), {}); });
    connect(exportChrome, &QPushButton::clicked, this,
            [this] { exportRun(currentRun(), QStringLiteral("chrome"), {}); });
    const auto updateButtons = [=, this] {
        QTreeWidgetItem *item = m_view->currentItem();
        const bool any = item != nullptr;
        const bool idle = !m_run->isActive();
        openRun->setEnabled(any && idle);
        replayRun->setEnabled(any && idle);
        resumeRun->setEnabled(any && idle && item->data(2, Qt::UserRole).toInt() == int(RunStatus::Suspended));
        resumeRun->setToolTip(resumeRun->isEnabled() ? tr("Continue a suspended run up to its open call")
                                                     : tr("Only a suspended run can be resumed"));
        exportJson->setEnabled(any);
        exportChrome->setEnabled(any);
        compare->setEnabled(m_view->selectedItems().size() == 2);
    };
    connect(m_view, &QTreeWidget::currentItemChanged, this, updateButtons);
    connect(m_view, &QTreeWidget::itemSelectionChanged, this, updateButtons);
    connect(m_run, &RunController::statusChanged, this, updateButtons);
    connect(m_run, &RunController::finished, this, updateButtons);
    updateButtons();
}

QString RunsPanel::currentRun() const
{
    QTreeWidgetItem *item = m_view->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

void RunsPanel::refresh()
{
    m_view->clear();
    const Project *project = m_project();
    if (!project || !QFileInfo::exists(project->journalPath()))
        return;
    Journal journal;
    if (!journal.open(project->journalPath()))
        return;
    std::vector<RunRecord> runs = journal.runs();
    std::sort(runs.begin(), runs.end(), [](const RunRecord &a, const RunRecord &b) { return a.startedAt > b.startedAt; });
    for (const RunRecord &run : runs) {
        auto *item = new QTreeWidgetItem(m_view);
        item->setText(0, run.id);
        item->setData(0, Qt::UserRole, run.id);
        item->setText(1, run.scriptPath.startsWith(QLatin1Char('(')) ? run.scriptPath
                                                                      : QDir(project->dir).relativeFilePath(run.scriptPath));
        item->setText(2, runStatusName(run.status));
        item->setData(2, Qt::UserRole, int(run.status));
        item->setText(3, QDateTime::fromMSecsSinceEpoch(run.startedAt).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        const double seconds = double(qMax<qint64>(run.endedAt - run.startedAt, 0)) / 1000.0;
        item->setText(4, run.endedAt > 0 ? tr("%1 s").arg(QString::number(seconds, 'f', 1)) : QString());
        item->setToolTip(2, run.error);
        // As `toolstudio runs` says it: "rerun of RUN" for a run made from another one.
        item->setText(5, run.sourceRun.isEmpty() ? run.kind : tr("%1 of %2").arg(run.kind, run.sourceRun));
    }
}

bool RunsPanel::exportRun(const QString &runId, const QString &format, QString path)
{
    const Project *project = m_project();
    if (!project || runId.isEmpty())
        return false;
    if (path.isEmpty()) {
        const QString suggested = QDir(project->dir).filePath(
            format == QLatin1String("chrome") ? runId + QStringLiteral(".trace.json") : runId + QStringLiteral(".json"));
        path = QFileDialog::getSaveFileName(m_window, format == QLatin1String("chrome") ? tr("Export Chrome Trace")
                                                                                         : tr("Export Run as JSON"),
                                            suggested, tr("JSON files (*.json)"));
        if (path.isEmpty())
            return false;
    }
    Journal journal;
    QString error;
    if (!journal.open(project->journalPath(), &error) || !TraceExport::exportRun(journal, runId, format, path, &error)) {
        m_report(tr("Export Run"), error);
        return false;
    }
    m_window->statusBar()->showMessage(tr("Exported %1 to %2").arg(runId, QDir::toNativeSeparators(path)), 5000);
    return true;
}

RunComparePanel *RunsPanel::compareRuns(const QString &leftRun, const QString &rightRun)
{
    const Project *project = m_project();
    if (!project)
        return nullptr;
    auto *panel = new RunComparePanel(m_window);
    panel->setObjectName(QStringLiteral("runCompare"));
    panel->setAttribute(Qt::WA_DeleteOnClose);
    QString error;
    if (!panel->load(project->journalPath(), leftRun, rightRun, &error)) {
        delete panel;
        m_report(tr("Compare Runs"), error);
        return nullptr;
    }
    panel->show();
    panel->raise();
    return panel;
}
