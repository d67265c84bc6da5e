// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runspanel.h"
#include "project/printabletext.h"
#include "tracerowformat.h"

#include "cleanuprunsdialog.h"
#include "durablerunactions.h"
#include "exchange/traceexport.h"
#include "flowlayout.h"
#include "journal/journal.h"
#include "journal/journalhousekeeping.h"
#include "journal/journalwatch.h"
#include "project/durationtext.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "runcomparepanel.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScopeGuard>
#include <QSet>
#include <QStatusBar>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

RunsPanel::RunsPanel(QMainWindow *window, RunController *run, std::function<const Project *()> project, Reporter report,
                     DurableRunActions *durable)
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
    // Wide enough for what the columns hold, so Started and Duration are never cut.
    const QFontMetrics metrics(m_view->font());
    const int padding = 3 * metrics.averageCharWidth() + 8;
    const auto fit = [&](int column, const QString &sample) {
        const QString header = m_view->headerItem()->text(column);
        m_view->header()->resizeSection(
            column, std::max(metrics.horizontalAdvance(sample), metrics.horizontalAdvance(header)) + padding);
    };
    fit(0, QStringLiteral("20261129T233012-4f2a"));
    fit(1, QStringLiteral("scripts/main.py"));
    fit(2, QStringLiteral("timed_out"));
    fit(3, QStringLiteral("2026-12-31 23:59:59"));
    fit(4, durationText(0, 888800, true));
    // Status beside the run's id, before the script: the dock shares the width under the
    // editor, and third it was cut ("comple", nc-crop-runs-dock). Moved on screen only:
    // column 2 is still the status (item->text(2)).
    m_view->header()->moveSection(2, 1);
    m_watch = new JournalWatch(this);
    connect(m_watch, &JournalWatch::runsChanged, this, &RunsPanel::refresh);
    m_ticker = new QTimer(this);
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &RunsPanel::showControllerRun);
    connect(m_view, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem *item) { Q_EMIT openRequested(item->data(0, Qt::UserRole).toString()); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // The buttons wrap to a second row in a narrow dock rather than widening the window
    // or hiding some of them (issue 20: the window fits 1280x720 with the Runs dock
    // under the editor, and at 1440x900 Clean Up… was out of sight in a scrolled strip).
    // What is done to a run's record (export, delete, clean up) is under More and on the
    // list's context menu.
    auto *barWidget = new QWidget(this);
    barWidget->setObjectName(QStringLiteral("runsButtons"));
    auto *bar = new FlowLayout(barWidget);
    bar->setContentsMargins(0, 0, 0, 0);
    const auto button = [&](const QString &text, const char *name, const QString &tip) {
        auto *b = new QPushButton(text, barWidget);
        b->setObjectName(QString::fromLatin1(name));
        b->setToolTip(tip);
        bar->addWidget(b);
        return b;
    };
    const auto action = [&](const QString &text, const char *name, const QString &tip) {
        auto *a = new QAction(text, this);
        a->setObjectName(QString::fromLatin1(name));
        a->setToolTip(tip);
        a->setStatusTip(tip);
        return a;
    };
    QPushButton *openRun = button(tr("&Open"), "openRun", tr("Show the selected run's trace and output"));
    QPushButton *replayRun = button(tr("&Replay"), "replayRun",
                                    tr("Run the selected run's script again with its recorded results memoized"));
    QPushButton *resumeRun = button(tr("Res&ume"), "resumeRun", tr("Continue a suspended run up to its open call"));
    bar->addWidget(durable->makeRunsButton(barWidget));
    QPushButton *compare = button(tr("Co&mpare"), "compareRuns",
                                  tr("Compare the two selected runs step by step (Ctrl+click to select two)"));
    QAction *exportJson
        = action(tr("Export &JSON…"), "exportRunJson", tr("Save the selected run as JSON (docs/run-export.md)"));
    QAction *exportChrome = action(tr("Export &Chrome Trace…"), "exportRunChrome",
                                   tr("Save the selected run as Chrome trace-event JSON (opens in Perfetto)"));
    QAction *deleteRuns
        = action(tr("&Delete…"), "deleteRuns", tr("Delete the selected runs and their traces from the journal"));
    deleteRuns->setShortcut(QKeySequence::Delete);
    deleteRuns->setShortcutContext(Qt::WidgetShortcut);
    connect(deleteRuns, &QAction::triggered, this, &RunsPanel::deleteSelectedRuns);
    QAction *cleanUp
        = action(tr("C&lean Up…"), "cleanUpRuns", tr("Delete old runs by age or count and compact the journal"));
    connect(cleanUp, &QAction::triggered, this, &RunsPanel::cleanUpRuns);
    auto *more = button(tr("Mo&re"), "moreRunActions", tr("Export, delete and clean up runs"));
    auto *moreMenu = new QMenu(more);
    moreMenu->addActions({exportJson, exportChrome});
    moreMenu->addSeparator();
    moreMenu->addActions({deleteRuns, cleanUp});
    more->setMenu(moreMenu);
    // The same on the list's context menu; Del works there as the menu says.
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->addActions({exportJson, exportChrome, deleteRuns, cleanUp});
    connect(compare, &QPushButton::clicked, this, [this] {
        QList<QTreeWidgetItem *> items = m_view->selectedItems();
        if (items.size() != 2)
            return;
        // Newest first in the list: the older run is A.
        if (m_view->indexOfTopLevelItem(items[0]) < m_view->indexOfTopLevelItem(items[1]))
            std::swap(items[0], items[1]);
        compareRuns(items[0]->data(0, Qt::UserRole).toString(), items[1]->data(0, Qt::UserRole).toString());
    });
    layout->addWidget(barWidget);
    m_suspendedBar = new QFrame(this);
    m_suspendedBar->setObjectName(QStringLiteral("suspendedRunBar"));
    static_cast<QFrame *>(m_suspendedBar)->setFrameShape(QFrame::StyledPanel);
    auto *offer = new QHBoxLayout(m_suspendedBar);
    offer->setContentsMargins(6, 2, 2, 2);
    m_suspendedText = new QLabel(m_suspendedBar);
    m_suspendedText->setWordWrap(true);
    m_suspendedText->setTextFormat(Qt::PlainText);
    offer->addWidget(m_suspendedText, 1);
    auto *resumeOffered = new QPushButton(tr("Resume"), m_suspendedBar);
    resumeOffered->setObjectName(QStringLiteral("resumeSuspendedRun"));
    auto *dismissOffered = new QPushButton(tr("Dismiss"), m_suspendedBar);
    offer->addWidget(resumeOffered);
    offer->addWidget(dismissOffered);
    m_suspendedBar->hide();
    connect(resumeOffered, &QPushButton::clicked, this, [this] {
        m_dismissedRuns.insert(m_offeredRun);
        m_suspendedBar->hide();
        Q_EMIT startRequested(m_offeredRun, true);
    });
    connect(dismissOffered, &QPushButton::clicked, this, [this] {
        m_dismissedRuns.insert(m_offeredRun);
        m_suspendedBar->hide();
    });
    layout->addWidget(m_suspendedBar);
    layout->addWidget(m_view, 1);
    connect(openRun, &QPushButton::clicked, this, [this] { Q_EMIT openRequested(currentRun()); });
    connect(replayRun, &QPushButton::clicked, this, [this] { Q_EMIT startRequested(currentRun(), false); });
    connect(resumeRun, &QPushButton::clicked, this, [this] { Q_EMIT startRequested(currentRun(), true); });
    connect(exportJson, &QAction::triggered, this, [this] { exportRun(currentRun(), QStringLiteral("json"), {}); });
    connect(exportChrome, &QAction::triggered, this, [this] { exportRun(currentRun(), QStringLiteral("chrome"), {}); });
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
        deleteRuns->setEnabled(!m_view->selectedItems().isEmpty());
        cleanUp->setEnabled(m_view->topLevelItemCount() > 0);
    };
    connect(m_view, &QTreeWidget::currentItemChanged, this, updateButtons);
    connect(m_view->model(), &QAbstractItemModel::rowsInserted, this, updateButtons);
    connect(m_view->model(), &QAbstractItemModel::rowsRemoved, this, updateButtons);
    connect(m_view, &QTreeWidget::itemSelectionChanged, this, updateButtons);
    // The controller's run is shown live: a resumed run is no longer "suspended".
    connect(m_run, &RunController::started, this, &RunsPanel::refresh);
    connect(m_run, &RunController::statusChanged, this, &RunsPanel::showControllerRun);
    connect(m_run, &RunController::statusChanged, this, updateButtons);
    connect(m_run, &RunController::finished, this, updateButtons);
    updateButtons();
}

QString RunsPanel::currentRun() const
{
    QTreeWidgetItem *item = m_view->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

QString RunsPanel::durationText(qint64 from, qint64 to, bool resumed)
{
    const qint64 ms = qMax<qint64>(to - from, 0);
    return resumed ? tr("%1 s since resume", "runs list: a resumed run's duration counts from the resume")
                         .arg(QLocale().toString(double(ms) / 1000.0, 'f', 1))
                   : ::durationText(ms, DurationStyle::Seconds);
}

namespace {

QString startedText(qint64 at)
{
    return QDateTime::fromMSecsSinceEpoch(at).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

// The script, relative to the project where it is in it; "(try it)" and the like as is.
QString scriptText(const QString &scriptPath, const QString &projectDir)
{
    return scriptPath.startsWith(QLatin1Char('(')) ? scriptPath : QDir(projectDir).relativeFilePath(scriptPath);
}

} // namespace

void RunsPanel::refresh()
{
    // The selection survives a refresh (another process's run arriving, say).
    const QString current = currentRun();
    QSet<QString> selected;
    for (const QTreeWidgetItem *item : m_view->selectedItems())
        selected.insert(item->data(0, Qt::UserRole).toString());
    QSet<QString> listed; // the runs before: those the journal no longer has are gone
    for (int i = 0; i < m_view->topLevelItemCount(); ++i)
        listed.insert(m_view->topLevelItem(i)->data(0, Qt::UserRole).toString());
    m_view->clear();
    m_resumedAt.clear();
    const Project *project = m_project();
    const QString journalPath = project ? project->journalPath() : QString();
    if (journalPath != m_watchedPath) {
        m_watchedPath = journalPath;
        m_watch->watch(journalPath);
    }
    const auto restoreSelection = qScopeGuard([&] {
        const QSignalBlocker blocker(m_view->selectionModel());
        for (int i = 0; i < m_view->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = m_view->topLevelItem(i);
            const QString id = item->data(0, Qt::UserRole).toString();
            if (id == current)
                m_view->setCurrentItem(item, 0, QItemSelectionModel::NoUpdate);
            item->setSelected(selected.contains(id));
        }
    });
    if (!project || !QFileInfo::exists(project->journalPath())) {
        showControllerRun();
        return;
    }
    Journal journal;
    if (!journal.open(project->journalPath())) {
        showControllerRun();
        return;
    }
    std::vector<RunRecord> runs = journal.runs();
    std::sort(runs.begin(), runs.end(),
              [](const RunRecord &a, const RunRecord &b) { return a.startedAt > b.startedAt; });
    m_resumedAt = journal.lastResumes();
    offerSuspended(runs);
    for (const RunRecord &run : runs) {
        listed.remove(run.id);
        const qint64 resumedAt = m_resumedAt.value(run.id);
        auto *item = new QTreeWidgetItem(m_view);
        item->setText(0, run.id);
        item->setData(0, Qt::UserRole, run.id);
        item->setText(1, scriptText(run.scriptPath, project->dir));
        item->setText(2, TraceRowFormat::runStatusText(run.status));
        item->setData(2, Qt::UserRole, int(run.status));
        item->setText(3, startedText(run.startedAt));
        item->setText(4,
                      run.endedAt > 0
                          ? durationText(resumedAt > 0 ? resumedAt : run.startedAt, run.endedAt, resumedAt > 0)
                          : QString());
        if (resumedAt > 0)
            item->setToolTip(4,
                             tr("Resumed at %1, first started at %2. The duration counts from the latest resume, as "
                                "the status bar does: how long the run ran before it was suspended is not known.")
                                 .arg(startedText(resumedAt), startedText(run.startedAt)));
        item->setToolTip(2, printableLines(run.error));
        // As `toolstudio runs` says it: "rerun of RUN" for a run made from another one.
        item->setText(5,
                      run.sourceRun.isEmpty() ? runKindName(run.kind)
                                              : tr("%1 of %2").arg(runKindName(run.kind), run.sourceRun));
    }
    showControllerRun();
    if (!listed.isEmpty() && journalPath == m_listedPath)
        Q_EMIT runsGone(QStringList(listed.begin(), listed.end()));
    m_listedPath = journalPath;
}

void RunsPanel::offerSuspended(const std::vector<RunRecord> &newestFirst)
{
    const auto suspended = std::find_if(newestFirst.begin(), newestFirst.end(), [this](const RunRecord &run) {
        return run.status == RunStatus::Suspended && !m_dismissedRuns.contains(run.id);
    });
    if (suspended == newestFirst.end() || m_run->isActive()) {
        m_suspendedBar->hide();
        return;
    }
    m_offeredRun = suspended->id;
    m_suspendedText->setText(
        tr("Run %1 (%2) was suspended: the studio that ran it exited while it was running or waiting. Resume runs "
           "its script again with the recorded steps memoized, up to its open call.")
            .arg(suspended->id, printableText(QFileInfo(suspended->scriptPath).fileName())));
    m_suspendedBar->show();
    // Offered where it is seen: the Runs dock comes to the front.
    for (QWidget *w = parentWidget(); w; w = w->parentWidget())
        if (auto *dock = qobject_cast<QDockWidget *>(w)) {
            dock->raise();
            break;
        }
}

void RunsPanel::showControllerRun()
{
    const RunRecord &record = m_run->record();
    const Project *project = m_project();
    const bool active = m_run->isActive();
    if (!active)
        m_ticker->stop();
    if (record.id.isEmpty() || !project || QDir(record.projectDir) != QDir(project->dir))
        return;
    QTreeWidgetItem *item = nullptr;
    for (int row = 0; row < m_view->topLevelItemCount() && !item; ++row) {
        if (m_view->topLevelItem(row)->data(0, Qt::UserRole).toString() == record.id)
            item = m_view->topLevelItem(row);
    }
    if (!item) {
        if (!active)
            return;
        // A new run the journal does not list yet: newest, so first.
        item = new QTreeWidgetItem;
        m_view->insertTopLevelItem(0, item);
        item->setText(0, record.id);
        item->setData(0, Qt::UserRole, record.id);
        item->setText(1, scriptText(record.scriptPath, project->dir));
        item->setText(3, startedText(record.startedAt));
        item->setText(5,
                      record.sourceRun.isEmpty() ? runKindName(record.kind)
                                                 : tr("%1 of %2").arg(runKindName(record.kind), record.sourceRun));
    }
    item->setText(2, TraceRowFormat::runStatusText(record.status));
    item->setData(2, Qt::UserRole, int(record.status));
    item->setToolTip(2, record.error);
    // The controller's own times: what the status bar's "Completed in …" is computed from.
    const qint64 end = record.endedAt > 0 ? record.endedAt : active ? QDateTime::currentMSecsSinceEpoch() : 0;
    item->setText(4, end > 0 ? durationText(record.startedAt, end, m_resumedAt.contains(record.id)) : QString());
    if (active && !m_ticker->isActive())
        m_ticker->start();
}

bool RunsPanel::exportRun(const QString &runId, const QString &format, QString path)
{
    const Project *project = m_project();
    if (!project || runId.isEmpty())
        return false;
    if (path.isEmpty()) {
        const QString suggested
            = QDir(project->dir)
                  .filePath(format == QLatin1String("chrome") ? runId + QStringLiteral(".trace.json")
                                                              : runId + QStringLiteral(".json"));
        path = QFileDialog::getSaveFileName(
            m_window, format == QLatin1String("chrome") ? tr("Export Chrome Trace") : tr("Export Run as JSON"),
            suggested, tr("JSON files (*.json)"));
        if (path.isEmpty())
            return false;
    }
    Journal journal;
    QString error;
    if (!journal.open(project->journalPath(), &error)
        || !TraceExport::exportRun(journal, runId, format, path, &error)) {
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

void RunsPanel::deleteSelectedRuns()
{
    const Project *project = m_project();
    QStringList runs;
    for (const QTreeWidgetItem *item : m_view->selectedItems())
        runs.append(item->data(0, Qt::UserRole).toString());
    if (!project || runs.isEmpty())
        return;
    const QString what = runs.size() == 1 ? tr("run %1").arg(runs.first()) : tr("%n runs", nullptr, int(runs.size()));
    const auto choice = QMessageBox::question(
        m_window, tr("Delete Runs"),
        tr("Delete %1 with its steps, output and events from the journal? This cannot be undone.").arg(what),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (choice != QMessageBox::Yes)
        return;
    JournalHousekeeping house;
    QString error;
    if (!house.open(project->journalPath(), &error)) {
        m_report(tr("Delete Runs"), tr("Nothing was deleted: %1").arg(error));
        return;
    }
    const std::optional<int> deleted = deleteRuns(house, runs, tr("Delete Runs"));
    if (deleted && *deleted > 0)
        m_window->statusBar()->showMessage(tr("Deleted %n run(s)", nullptr, *deleted), 5000);
}

std::optional<int> RunsPanel::deleteRuns(JournalHousekeeping &house, const QStringList &runs, const QString &title)
{
    QString error;
    JournalHousekeeping::Outcome outcome;
    if (!runs.isEmpty())
        outcome = house.deleteRuns(runs, &error);
    refresh();
    if (!error.isEmpty()) {
        m_report(title, tr("Nothing was deleted: %1").arg(error));
        return std::nullopt;
    }
    if (!outcome.refused.isEmpty())
        m_report(title, tr("Not deleted:\n%1").arg(printableLines(outcome.refused.join(QLatin1Char('\n')))));
    return int(outcome.deleted.size());
}

void RunsPanel::cleanUpRuns()
{
    const Project *project = m_project();
    if (!project)
        return;
    const QString path = project->journalPath();
    JournalHousekeeping house;
    QString error;
    if (!house.open(path, &error)) {
        m_report(tr("Clean Up Runs"), error);
        return;
    }
    const auto journalBytes
        = [&path] { return QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size(); };
    CleanUpRunsDialog dialog(house, journalBytes(), m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const std::optional<int> deleted = deleteRuns(house, dialog.candidates(), tr("Clean Up Runs"));
    if (!deleted)
        return;
    QString done = tr("Deleted %n run(s)", nullptr, *deleted);
    if (dialog.compactAfter()) {
        qint64 before = 0;
        qint64 after = 0;
        if (!house.compact(&before, &after, &error)) {
            m_report(tr("Clean Up Runs"), tr("%1; the journal was not compacted: %2").arg(done, error));
            return;
        }
        done = tr("%1; the journal went from %2 to %3")
                   .arg(done, QLocale().formattedDataSize(before, 1), QLocale().formattedDataSize(after, 1));
    }
    m_window->statusBar()->showMessage(done, 10000);
}
