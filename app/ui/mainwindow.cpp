// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "answerdialog.h"
#include "consoleview.h"
#include "runcontroller.h"
#include "scripteditor.h"
#include "tracemodel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>

namespace {

constexpr int MaxRecentProjects = 8;
const auto GeometryKey = QStringLiteral("window/geometry");
const auto StateKey = QStringLiteral("window/state");
const auto RecentKey = QStringLiteral("recentProjects");
const auto LastDirKey = QStringLiteral("lastProjectParent");

// The desktop theme's icon, else ours from the application's resources.
QIcon icon(const char *themeName, const char *resourceName)
{
    const QString path = QStringLiteral(":/icons/%1.svg").arg(QString::fromLatin1(resourceName));
    return QIcon::fromTheme(QString::fromLatin1(themeName), QFile::exists(path) ? QIcon(path) : QIcon());
}

QString seconds(qint64 ms)
{
    return QString::number(double(qMax<qint64>(ms, 0)) / 1000.0, 'f', 1);
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_run(new RunController(this))
    , m_traceModel(new TraceModel(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    m_editor = new ScriptEditor(this);
    m_editor->setObjectName(QStringLiteral("scriptEditor"));
    setCentralWidget(m_editor);

    createActions();
    createMenus();
    createDocks();
    connectRun();

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("runStatus"));
    statusBar()->addWidget(m_statusLabel, 1);
    setStatus(tr("Open a project to start (File ▸ Open Project…)"));

    connect(m_editor, &QsciScintilla::modificationChanged, this, &QWidget::setWindowModified);

    resize(1200, 800);
    // The layout as built here is "Reset Layout"'s target; the user's comes after.
    m_defaultState = saveState();
    readSettings();
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow()
{
    if (m_run->isActive())
        m_run->stop();
}

AnswerDialog *MainWindow::answerDialog() const
{
    return m_answerDialog;
}

void MainWindow::createActions()
{
    m_openAction = new QAction(icon("document-open", "open"), tr("&Open Project…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a project folder (one with a toolstudio.json)"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::chooseProject);

    m_saveAction = new QAction(icon("document-save", "save"), tr("&Save Script"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Write the script back to its file"));
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_quitAction = new QAction(icon("application-exit", "quit"), tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_runAction = new QAction(icon("media-playback-start", "run"), tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_runAction->setStatusTip(tr("Save the script and run it in the sandbox (F5)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::run);

    m_stopAction = new QAction(icon("media-playback-stop", "stop"), tr("S&top"), this);
    m_stopAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_stopAction->setStatusTip(tr("Stop the run: cancel its steps and kill the script (Shift+F5)"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stop);

    m_answerAction = new QAction(icon("mail-reply-sender", "answer"), tr("&Answer Pending Call…"), this);
    m_answerAction->setShortcut(QKeySequence(Qt::Key_F6));
    m_answerAction->setStatusTip(tr("Answer the oldest call that waits for a person (F6)"));
    connect(m_answerAction, &QAction::triggered, this, &MainWindow::answerPendingCall);

    m_resetLayoutAction = new QAction(tr("&Reset Layout"), this);
    connect(m_resetLayoutAction, &QAction::triggered, this, [this] { restoreState(m_defaultState); });

    m_aboutAction = new QAction(tr("&About Tool Studio"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Tool Studio"),
                           tr("<h3>Tool Studio %1</h3><p>Build and debug the tools that LLM agents call, "
                              "and the agent scripts that call them.</p><p>License: GPL-3.0-or-later.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createMenus()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(m_openAction);
    m_recentMenu = fileMenu->addMenu(tr("Open &Recent"));
    fileMenu->addAction(m_saveAction);
    fileMenu->addSeparator();
    fileMenu->addAction(m_quitAction);

    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(m_runAction);
    runMenu->addAction(m_stopAction);
    runMenu->addSeparator();
    runMenu->addAction(m_answerAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(m_aboutAction);

    QToolBar *toolBar = addToolBar(tr("Run"));
    toolBar->setObjectName(QStringLiteral("runToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(m_openAction);
    toolBar->addAction(m_saveAction);
    toolBar->addSeparator();
    auto *scriptLabel = new QLabel(tr("Script:"), toolBar);
    scriptLabel->setContentsMargins(6, 0, 4, 0);
    toolBar->addWidget(scriptLabel);
    m_scriptCombo = new QComboBox(toolBar);
    m_scriptCombo->setObjectName(QStringLiteral("scriptCombo"));
    m_scriptCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_scriptCombo->setToolTip(tr("The agent script to edit and run"));
    toolBar->addWidget(m_scriptCombo);
    connect(m_scriptCombo, &QComboBox::activated, this, &MainWindow::scriptChosen);
    toolBar->addSeparator();
    toolBar->addAction(m_runAction);
    toolBar->addAction(m_stopAction);
    toolBar->addAction(m_answerAction);
    updateRecentMenu();
}

void MainWindow::createDocks()
{
    m_traceView = new QTreeView(this);
    m_traceView->setObjectName(QStringLiteral("traceView"));
    m_traceView->setModel(m_traceModel);
    m_traceView->setUniformRowHeights(true);
    m_traceView->setAlternatingRowColors(true);
    m_traceView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_traceView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_traceView->setAllColumnsShowFocus(true);
    QHeaderView *header = m_traceView->header();
    header->setStretchLastSection(true);
    // Fixed starting widths: ResizeToContents would scan every row on each batch.
    const QFontMetrics metrics(m_traceView->font());
    const auto width = [&](int column, const QStringList &samples, int padding) {
        int widest = metrics.horizontalAdvance(m_traceModel->headerData(column, Qt::Horizontal).toString());
        for (const QString &sample : samples)
            widest = qMax(widest, metrics.horizontalAdvance(sample));
        header->resizeSection(column, widest + padding);
    };
    QStringList statuses;
    for (int status = int(StepStatus::Queued); status <= int(StepStatus::Cancelled); ++status)
        statuses.append(TraceModel::statusText(StepStatus(status)));
    // Attempt rows sit one level in: two indentations (root decoration + level).
    width(TraceModel::Sequence, {TraceModel::tr("attempt %1").arg(10)}, 2 * m_traceView->indentation() + 12);
    width(TraceModel::Tool, {QStringLiteral("get_exchange_rate")}, 16);
    width(TraceModel::Status, statuses, 36);
    width(TraceModel::Attempts, {QStringLiteral("10/10")}, 16);
    width(TraceModel::Duration, {QStringLiteral("10.0 s")}, 16);
    connect(m_traceView, &QTreeView::activated, this, &MainWindow::traceActivated);
    // Follow new steps while the view is scrolled to the end.
    connect(m_traceModel, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent) {
        QScrollBar *bar = m_traceView->verticalScrollBar();
        if (parent.isValid() || bar->value() < bar->maximum())
            return;
        QTimer::singleShot(0, m_traceView, &QTreeView::scrollToBottom);
    });

    m_traceDock = new QDockWidget(tr("Trace"), this);
    m_traceDock->setObjectName(QStringLiteral("traceDock"));
    m_traceDock->setWidget(m_traceView);
    addDockWidget(Qt::RightDockWidgetArea, m_traceDock);

    m_console = new ConsoleView(this);
    m_console->setObjectName(QStringLiteral("console"));
    m_consoleDock = new QDockWidget(tr("Console"), this);
    m_consoleDock->setObjectName(QStringLiteral("consoleDock"));
    m_consoleDock->setWidget(m_console);
    addDockWidget(Qt::BottomDockWidgetArea, m_consoleDock);

    resizeDocks({m_traceDock}, {660}, Qt::Horizontal);
    resizeDocks({m_consoleDock}, {220}, Qt::Vertical);

    m_viewMenu->addAction(m_traceDock->toggleViewAction());
    m_viewMenu->addAction(m_consoleDock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayoutAction);
}

void MainWindow::connectRun()
{
    connect(m_run, &RunController::started, this, &MainWindow::onStarted);
    connect(m_run, &RunController::statusChanged, this, &MainWindow::onStatusChanged);
    connect(m_run, &RunController::stepAdded, m_traceModel, &TraceModel::addStep);
    connect(m_run, &RunController::stepChanged, m_traceModel, &TraceModel::updateStep);
    connect(m_run, &RunController::pendingCallOpened, this, &MainWindow::onPendingCallOpened);
    connect(m_run, &RunController::pendingCallClosed, this, &MainWindow::onPendingCallClosed);
    connect(m_run, &RunController::outputReceived, m_console, &ConsoleView::appendOutput);
    connect(m_run, &RunController::finished, this, &MainWindow::onFinished);
}

bool MainWindow::openProject(const QString &dir)
{
    if (m_run->isActive()) {
        reportError(tr("Open Project"), tr("Stop the run before opening another project."));
        return false;
    }
    ProjectError error;
    std::optional<Project> project = Project::load(dir, &error);
    if (!project) {
        reportError(tr("Cannot Open Project"), error.toString());
        return false;
    }
    if (!maybeSave())
        return false;

    m_project = std::move(project);
    m_traceModel->clear();
    m_console->clearOutput();
    m_pendingCalls.clear();
    m_dismissedCalls.clear();
    if (m_answerDialog)
        m_answerDialog->hide();

    m_scriptCombo->clear();
    const QString defaultPath = m_project->defaultScriptPath();
    for (const ScriptEntry &script : m_project->scripts) {
        const QString path = QDir(m_project->dir).absoluteFilePath(script.path);
        m_scriptCombo->addItem(script.path, path);
        m_scriptCombo->setItemData(m_scriptCombo->count() - 1, script.name, Qt::ToolTipRole);
    }
    if (!defaultPath.isEmpty()) {
        int index = m_scriptCombo->findData(QFileInfo(defaultPath).absoluteFilePath());
        if (index < 0) {
            m_scriptCombo->addItem(QDir(m_project->dir).relativeFilePath(defaultPath), defaultPath);
            index = m_scriptCombo->count() - 1;
        }
        m_scriptCombo->setCurrentIndex(index);
    }

    addRecentProject(m_project->dir);
    m_editor->closeFile();
    if (m_scriptCombo->currentIndex() >= 0)
        loadScript(m_scriptCombo->currentData().toString());
    else
        setStatus(tr("The project has no script."));
    if (!m_editor->filePath().isEmpty())
        setStatus(tr("Ready"));
    updateTitle();
    updateActions();
    return true;
}

bool MainWindow::loadScript(const QString &path)
{
    QString error;
    if (!m_editor->loadFile(path, &error)) {
        m_editor->closeFile();
        setStatus(error);
        reportError(tr("Cannot Open Script"), error);
        return false;
    }
    updateTitle();
    return true;
}

void MainWindow::scriptChosen(int index)
{
    const QString path = m_scriptCombo->itemData(index).toString();
    if (path == m_editor->filePath())
        return;
    if (!maybeSave()) {
        m_scriptCombo->setCurrentIndex(m_scriptCombo->findData(m_editor->filePath()));
        return;
    }
    loadScript(path);
    updateActions();
}

void MainWindow::chooseProject()
{
    QSettings settings;
    const QString start = m_project ? QFileInfo(m_project->dir).absolutePath()
                                     : settings.value(LastDirKey, QDir::homePath()).toString();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Project"), start);
    if (dir.isEmpty())
        return;
    settings.setValue(LastDirKey, QFileInfo(dir).absolutePath());
    openProject(dir);
}

bool MainWindow::save()
{
    if (m_editor->filePath().isEmpty())
        return false;
    QString error;
    if (!m_editor->save(&error)) {
        reportError(tr("Cannot Save Script"), error);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_editor->filePath())), 3000);
    return true;
}

bool MainWindow::run()
{
    if (!m_project || m_run->isActive())
        return false;
    if (m_editor->filePath().isEmpty()) {
        reportError(tr("Cannot Run"), tr("The project has no script to run."));
        return false;
    }
    // The run executes the file on disk, so what is shown is what runs.
    if (m_editor->isModified() && !save())
        return false;

    // Pick up edits to toolstudio.json made since the project was opened.
    ProjectError loadError;
    std::optional<Project> reloaded = Project::load(m_project->dir, &loadError);
    if (!reloaded) {
        setStatus(tr("Failed: %1").arg(loadError.toString()));
        reportError(tr("Cannot Run"), loadError.toString());
        return false;
    }
    m_project = std::move(reloaded);

    m_traceModel->clear();
    m_console->clearOutput();
    m_pendingCalls.clear();
    m_dismissedCalls.clear();
    if (m_answerDialog)
        m_answerDialog->hide();

    const QString script = m_editor->filePath();
    QString error;
    if (!m_run->start(*m_project, script, &error)) {
        setStatus(tr("Failed: %1").arg(error));
        m_console->appendNotice(tr("Could not start %1: %2").arg(QDir(m_project->dir).relativeFilePath(script), error));
        reportError(tr("Cannot Run"), error);
        updateActions();
        return false;
    }
    if (m_run->isActive())
        setStatus(tr("Running…"));
    updateActions();
    return true;
}

void MainWindow::stop()
{
    if (!m_run->isActive())
        return;
    setStatus(tr("Stopping…"));
    m_run->stop();
    updateActions();
}

void MainWindow::onStarted(const QString &runId)
{
    const QString script = m_project ? QDir(m_project->dir).relativeFilePath(m_run->record().scriptPath)
                                     : m_run->record().scriptPath;
    m_console->appendNotice(tr("▶ Run %1 started: %2").arg(runId, script));
    setStatus(tr("Running…"));
    updateActions();
}

void MainWindow::onStatusChanged(RunStatus status)
{
    if (isFinal(status))
        return; // finished() says how it ended
    if (status == RunStatus::Waiting || !m_pendingCalls.isEmpty())
        setStatus(waitingText());
    else
        setStatus(tr("Running…"));
    updateActions();
}

QString MainWindow::waitingText() const
{
    if (m_pendingCalls.isEmpty())
        return tr("Waiting for an answer");
    if (m_pendingCalls.size() == 1)
        return tr("Waiting for an answer to %1").arg(m_pendingCalls.first().tool);
    // English has no plural translation file, so the source strings are already right.
    const int more = int(m_pendingCalls.size() - 1);
    if (more == 1)
        return tr("Waiting for answers to %1 and one more call").arg(m_pendingCalls.first().tool);
    return tr("Waiting for answers to %1 and %n more calls", nullptr, more).arg(m_pendingCalls.first().tool);
}

void MainWindow::onPendingCallOpened(const Step &step)
{
    const auto existing = std::find_if(m_pendingCalls.begin(), m_pendingCalls.end(),
                                       [&](const Step &s) { return s.callId == step.callId; });
    if (existing != m_pendingCalls.end())
        *existing = step; // a new attempt of the same call
    else
        m_pendingCalls.append(step);
    m_dismissedCalls.remove(step.callId);
    setStatus(waitingText());
    updateActions();
    if (!m_answerDialog || !m_answerDialog->isVisible())
        showNextPendingCall();
    else if (m_answerDialog->callId() == step.callId)
        m_answerDialog->setCall(step);
}

void MainWindow::onPendingCallClosed(const QString &callId)
{
    m_pendingCalls.removeIf([&](const Step &s) { return s.callId == callId; });
    m_dismissedCalls.remove(callId);
    const bool wasShowing = m_answerDialog && m_answerDialog->isVisible() && m_answerDialog->callId() == callId;
    if (wasShowing)
        m_answerDialog->hide();
    if (m_run->isActive())
        setStatus(m_pendingCalls.isEmpty() ? tr("Running…") : waitingText());
    updateActions();
    if (!m_answerDialog || !m_answerDialog->isVisible())
        showNextPendingCall();
}

void MainWindow::showNextPendingCall()
{
    for (const Step &step : std::as_const(m_pendingCalls)) {
        if (!m_dismissedCalls.contains(step.callId)) {
            showAnswerDialog(step);
            return;
        }
    }
}

void MainWindow::answerPendingCall()
{
    if (m_pendingCalls.isEmpty())
        return;
    if (m_answerDialog && m_answerDialog->isVisible()) {
        m_answerDialog->raise();
        m_answerDialog->activateWindow();
        return;
    }
    showAnswerDialog(m_pendingCalls.first());
}

void MainWindow::showAnswerDialog(const Step &step)
{
    if (!m_answerDialog) {
        m_answerDialog = new AnswerDialog(m_run, this);
        m_answerDialog->setObjectName(QStringLiteral("answerDialog"));
        connect(m_answerDialog, &QDialog::rejected, this, [this] {
            m_dismissedCalls.insert(m_answerDialog->callId());
        });
    }
    m_dismissedCalls.remove(step.callId);
    m_answerDialog->setCall(step);
    m_answerDialog->show();
    m_answerDialog->raise();
    m_answerDialog->activateWindow();
}

void MainWindow::traceActivated(const QModelIndex &index)
{
    const QString callId = index.data(TraceModel::CallIdRole).toString();
    for (const Step &step : std::as_const(m_pendingCalls)) {
        if (step.callId == callId) {
            showAnswerDialog(step);
            return;
        }
    }
}

void MainWindow::onFinished(const RunRecord &run)
{
    m_traceModel->flush();
    m_pendingCalls.clear();
    m_dismissedCalls.clear();
    if (m_answerDialog)
        m_answerDialog->hide();

    const QString elapsed = seconds(run.endedAt - run.startedAt);
    QString text;
    switch (run.status) {
    case RunStatus::Completed:
        text = tr("Completed in %1 s").arg(elapsed);
        break;
    case RunStatus::Failed:
        text = run.error.isEmpty() ? tr("Failed: the script exited with code %1").arg(run.exitCode)
                                   : tr("Failed: %1").arg(run.error);
        break;
    case RunStatus::TimedOut:
        text = run.error.isEmpty() ? tr("Timed out") : tr("Timed out: %1").arg(run.error);
        break;
    case RunStatus::Cancelled:
        text = tr("Stopped after %1 s").arg(elapsed);
        break;
    case RunStatus::Suspended:
        text = tr("Suspended while waiting for an answer");
        break;
    case RunStatus::Running:
    case RunStatus::Waiting:
        text = tr("Running…");
        break;
    }
    setStatus(text);
    m_console->appendNotice(tr("■ %1 (exit code %2)").arg(text).arg(run.exitCode));
    updateActions();
}

void MainWindow::setStatus(const QString &text)
{
    m_statusLabel->setText(text);
}

QString MainWindow::statusText() const
{
    return m_statusLabel->text();
}

void MainWindow::reportError(const QString &title, const QString &message)
{
    m_lastError = message;
    Q_EMIT errorReported(message);
    if (!m_errorDialogsEnabled)
        return;
    // Window-modal and opened with open(): never blocks the event loop (runs keep
    // reporting, tests keep running).
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

bool MainWindow::maybeSave()
{
    if (!m_editor->isModified())
        return true;
    const auto choice = QMessageBox::warning(
        this, tr("Unsaved Script"),
        tr("%1 has unsaved changes. Save them?").arg(QFileInfo(m_editor->filePath()).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (choice == QMessageBox::Save)
        return save();
    return choice == QMessageBox::Discard;
}

void MainWindow::updateActions()
{
    const bool active = m_run->isActive();
    m_runAction->setEnabled(m_project && !active && !m_editor->filePath().isEmpty());
    m_stopAction->setEnabled(active);
    m_openAction->setEnabled(!active);
    m_recentMenu->setEnabled(!active && !m_recentMenu->isEmpty());
    m_scriptCombo->setEnabled(!active && m_scriptCombo->count() > 0);
    m_saveAction->setEnabled(!m_editor->filePath().isEmpty());
    m_answerAction->setEnabled(active && !m_pendingCalls.isEmpty());
}

void MainWindow::updateTitle()
{
    // Every title carries the [*] placeholder, so setWindowModified always has a place.
    QString title = QApplication::applicationName() + QStringLiteral("[*]");
    if (m_project) {
        const QString script = m_editor->filePath().isEmpty()
            ? QString()
            : QDir(m_project->dir).relativeFilePath(m_editor->filePath());
        const QString name = m_project->name.isEmpty() ? QFileInfo(m_project->dir).fileName() : m_project->name;
        title = script.isEmpty() ? QStringLiteral("%1[*] — %2").arg(name, QApplication::applicationName())
                                 : QStringLiteral("%1[*] — %2 — %3").arg(script, name, QApplication::applicationName());
    }
    setWindowTitle(title);
    setWindowModified(m_editor->isModified());
}

void MainWindow::readSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(GeometryKey).toByteArray());
    restoreState(settings.value(StateKey).toByteArray());
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(GeometryKey, saveGeometry());
    settings.setValue(StateKey, saveState());
}

void MainWindow::addRecentProject(const QString &dir)
{
    QSettings settings;
    QStringList recent = settings.value(RecentKey).toStringList();
    recent.removeAll(dir);
    recent.prepend(dir);
    while (recent.size() > MaxRecentProjects)
        recent.removeLast();
    settings.setValue(RecentKey, recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(RecentKey).toStringList();
    for (const QString &dir : recent) {
        QAction *action = m_recentMenu->addAction(QDir::toNativeSeparators(dir));
        connect(action, &QAction::triggered, this, [this, dir] { openProject(dir); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_run->isActive()) {
        const auto choice = QMessageBox::question(this, tr("Run in Progress"),
                                                  tr("A run is in progress. Stop it and quit?"),
                                                  QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (choice != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        m_run->stop();
    }
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}
