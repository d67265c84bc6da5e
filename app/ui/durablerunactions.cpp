// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "durablerunactions.h"
#include "project/printabletext.h"

#include "consoleview.h"
#include "engine/replaysource.h"
#include "journal/journalreader.h"
#include "mainwindow.h"
#include "rerundialog.h"
#include "run/runcontroller.h"
#include "runcommands.h"
#include "runspanel.h"
#include "runviews.h"
#include "scriptbox.h"
#include "tracemodel.h"
#include "tracepanel.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QMenu>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>

DurableRunActions::DurableRunActions(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_update(new QTimer(this))
{
    m_rerun = new QAction(tr("Rerun from &Step…"), this);
    m_rerun->setObjectName(QStringLiteral("rerunFromStep"));
    m_rerun->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5));
    m_traceRerun = new QAction(tr("Rerun from This Step…"), this);
    m_traceRerun->setObjectName(QStringLiteral("rerunFromTraceStep"));
    m_saveCassette = new QAction(tr("Save &Cassette…"), this);
    m_saveCassette->setObjectName(QStringLiteral("saveCassette"));
    m_runWithCassette = new QAction(tr("Run with Cass&ette…"), this);
    m_runWithCassette->setObjectName(QStringLiteral("runWithCassette"));

    connect(m_rerun, &QAction::triggered, this, [this] {
        const QString runId = targetRun();
        if (blocker(runId, true).isEmpty())
            openRerunDialog(runId, 1, true);
    });
    connect(m_traceRerun, &QAction::triggered, this, [this] {
        const QString runId = traceRun();
        const int sequence = m_window->tracePanel()->view()->currentIndex().data(TraceModel::SequenceRole).toInt();
        if (sequence > 0 && blocker(runId, true).isEmpty())
            openRerunDialog(runId, sequence, false);
    });
    connect(m_saveCassette, &QAction::triggered, this, [this] {
        const QString runId = targetRun();
        if (blocker(runId, true).isEmpty())
            saveCassette(runId, QString());
    });
    connect(m_runWithCassette, &QAction::triggered, this, [this] { runWithCassette(QString()); });

    // Many window changes come in bursts (a run's start, an import filling the trace):
    // evaluate once after them.
    m_update->setSingleShot(true);
    m_update->setInterval(0);
    connect(m_update, &QTimer::timeout, this, &DurableRunActions::updateActions);
}

void DurableRunActions::connectWindow()
{
    QTreeWidget *runs = m_window->runsPanel()->view();
    runs->setContextMenuPolicy(Qt::ActionsContextMenu);
    runs->addAction(m_rerun);
    runs->addAction(m_saveCassette);
    QTreeView *trace = m_window->tracePanel()->view();
    trace->setContextMenuPolicy(Qt::ActionsContextMenu);
    trace->addAction(m_traceRerun);

    connect(runs, &QTreeWidget::currentItemChanged, this, &DurableRunActions::scheduleUpdate);
    connect(trace->selectionModel(), &QItemSelectionModel::currentChanged, this, &DurableRunActions::scheduleUpdate);
    TraceModel *model = m_window->traceModel();
    connect(model, &QAbstractItemModel::modelReset, this, &DurableRunActions::scheduleUpdate);
    connect(model, &QAbstractItemModel::rowsInserted, this, &DurableRunActions::scheduleUpdate);
    RunController *run = m_window->runController();
    connect(run, &RunController::started, this, &DurableRunActions::scheduleUpdate);
    connect(run, &RunController::statusChanged, this, &DurableRunActions::scheduleUpdate);
    connect(run, &RunController::finished, this, &DurableRunActions::scheduleUpdate);
    connect(run, &RunController::divergenceFound, this, [this, run](const Step &step) {
        const QString notice = divergenceNotice(step, run->record().kind == RunKind::Cassette);
        m_window->console()->appendNotice(notice);
        m_window->statusBar()->showMessage(notice, 8000);
    });
    updateActions();
}

QPushButton *DurableRunActions::makeRunsButton(QWidget *parent) const
{
    auto *button = new QPushButton(tr("Rerun from Ste&p…"), parent);
    button->setObjectName(QStringLiteral("rerunRun"));
    const auto follow = [button, action = m_rerun] {
        button->setEnabled(action->isEnabled());
        button->setToolTip(action->toolTip());
    };
    connect(m_rerun, &QAction::changed, button, follow);
    connect(button, &QPushButton::clicked, m_rerun, &QAction::trigger);
    follow();
    return button;
}

void DurableRunActions::addTo(QMenu *menu) const
{
    menu->addAction(m_rerun);
    menu->addAction(m_saveCassette);
    menu->addAction(m_runWithCassette);
}

QString DurableRunActions::traceRun() const
{
    if (m_window->runViews()->showsImportedRun())
        return QString();
    TraceModel *model = m_window->traceModel();
    return model->isJournalBacked() ? model->runId() : m_window->runController()->record().id;
}

QString DurableRunActions::targetRun() const
{
    if (QTreeWidgetItem *item = m_window->runsPanel()->view()->currentItem())
        return item->data(0, Qt::UserRole).toString();
    return traceRun();
}

QString DurableRunActions::blocker(const QString &runId, bool needsRun) const
{
    const Project *project = m_window->project();
    if (!project)
        return tr("Open a project first.");
    if (m_window->runController()->isActive())
        return tr("Wait until the current run has finished (or stop it).");
    if (!needsRun)
        return QString();
    if (!project->trusted)
        return tr("The project is not trusted, so nothing of it runs: choose Trust Project in the bar above the "
                  "editor.");
    if (m_window->runViews()->showsImportedRun())
        return tr("The trace shows an imported run: it is not in this project's journal, so there is nothing to "
                  "rerun or record. Open a run from the Runs dock.");
    if (runId.isEmpty())
        return tr("There is no run yet: run the script first (F5).");
    // Runs on every trace selection change: two index look-ups, not a count of the
    // run's rows (~170 ms at a million steps).
    JournalReader journal;
    if (!QFileInfo::exists(project->journalPath()) || !journal.open(project->journalPath()))
        return tr("The project's journal cannot be read.");
    if (journal.sequenceRange(runId).second == 0)
        return tr("Run %1 made no tool calls: there is no step to rerun or record.").arg(runId);
    return QString();
}

void DurableRunActions::scheduleUpdate()
{
    m_update->start();
}

void DurableRunActions::updateActions()
{
    const auto apply = [](QAction *action, const QString &why, const QString &tip) {
        action->setEnabled(why.isEmpty());
        action->setToolTip(why.isEmpty() ? tip : why);
        action->setStatusTip(action->toolTip());
    };
    const QString target = targetRun();
    const QString why = blocker(target, true);
    apply(m_rerun, why,
          tr("Run %1 again from a step you choose, optionally with edited arguments: the steps before it are "
             "memoized, it and every step after it run for real")
              .arg(target));
    const QString traceRunId = traceRun();
    // Usually the same run: one journal look-up, not two, per selection change.
    QString traceWhy = traceRunId == target ? why : blocker(traceRunId, true);
    if (traceWhy.isEmpty()
        && m_window->tracePanel()->view()->currentIndex().data(TraceModel::SequenceRole).toInt() <= 0)
        traceWhy = tr("Select a step in the trace first.");
    apply(m_traceRerun, traceWhy,
          tr("Rerun %1 from the selected step, optionally with edited arguments").arg(traceRunId));
    apply(m_saveCassette, why,
          tr("Save run %1's tool results to a file, to run a script against it offline").arg(target));
    apply(m_runWithCassette, blocker(QString(), false),
          tr("Run the current script offline against a cassette file: every call is answered from the file or "
             "fails"));
}

RerunDialog *DurableRunActions::openRerunDialog(const QString &runId, int sequence, bool chooseStep)
{
    const Project *project = m_window->project();
    if (!project)
        return nullptr;
    // The dialog reads only the step it shows (a run may have a million).
    QString error;
    auto journal = std::make_unique<JournalReader>();
    if (journal->open(project->journalPath(), &error) && journal->sequenceRange(runId).second == 0)
        error = tr("Run %1 made no tool calls: there is no step to rerun.").arg(runId);
    if (!error.isEmpty()) {
        m_window->reportError(tr("Rerun from Step"), error);
        return nullptr;
    }
    if (m_dialog)
        m_dialog->close();
    auto *dialog = new RerunDialog(runId, std::move(journal), *project, sequence, chooseStep, m_window);
    dialog->setObjectName(QStringLiteral("rerunDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const Project *current = m_window->project();
        if (!current)
            return;
        const QString runId = dialog->runId();
        const int sequence = dialog->sequence();
        const std::optional<nlohmann::json> edited = dialog->editedArgs();
        if (!m_window->saveModifiedScripts()) // the script runs from disk, as with Run (F5)
            return;
        m_window->runCommands()->startRunWith(
            tr("Cannot Rerun"), tr("Rerunning %1 from step %2…").arg(runId).arg(sequence),
            [&](QString *why) { return m_window->runController()->rerunFrom(*current, runId, sequence, edited, why); });
    });
    m_dialog = dialog;
    dialog->open();
    return dialog;
}

bool DurableRunActions::saveCassette(const QString &runId, QString path)
{
    const Project *project = m_window->project();
    if (!project || runId.isEmpty())
        return false;
    if (path.isEmpty()) {
        path = QFileDialog::getSaveFileName(m_window, tr("Save Cassette"),
                                            QDir(project->dir).filePath(runId + QStringLiteral(".cassette.json")),
                                            tr("Cassettes (*.cassette.json);;JSON files (*.json)"));
        if (path.isEmpty())
            return false;
    }
    QString error;
    if (!m_window->runController()->saveCassette(*project, runId, path, &error)) {
        m_window->reportError(tr("Save Cassette"), tr("Cannot save the cassette: %1").arg(error));
        return false;
    }
    // What went into the file: only final, non-cancelled steps are written.
    const std::optional<ReplaySource> written = loadCassette(path, &error);
    const int steps = written ? int(written->steps.size()) : 0;
    m_window->statusBar()->showMessage(
        tr("Cassette of run %1 saved to %2 (%n step(s))", nullptr, steps).arg(runId, QDir::toNativeSeparators(path)),
        8000);
    return true;
}

bool DurableRunActions::runWithCassette(QString path)
{
    const Project *project = m_window->project();
    if (!project || m_window->runController()->isActive())
        return false;
    if (path.isEmpty()) {
        path = QFileDialog::getOpenFileName(m_window, tr("Run with Cassette"), project->dir,
                                            tr("Cassettes (*.cassette.json *.json);;All files (*)"));
        if (path.isEmpty())
            return false;
    }
    // The script Run (F5) would start, saved first like Run does; empty: the script
    // recorded in the cassette.
    const QString script = m_window->runCommands()->scriptPath();
    if (!m_window->saveModifiedScripts())
        return false;
    return m_window->runCommands()->startRunWith(
        tr("Cannot Run with Cassette"), tr("Running offline against %1…").arg(QFileInfo(path).fileName()),
        [&](QString *error) { return m_window->runController()->startWithCassette(*project, path, script, error); });
}

QString DurableRunActions::divergenceNotice(const Step &step, bool offline)
{
    return offline ? tr("Divergence at step %1: %2 — offline, so this call and every later one fails "
                        "(not in the cassette)")
                         .arg(step.sequence)
                         .arg(printableText(step.divergence))
                   : tr("Divergence at step %1: %2 — this call and every later one runs for real")
                         .arg(step.sequence)
                         .arg(printableText(step.divergence));
}
