// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracepanel.h"

#include "shortcutpassthrough.h"
#include "timelinewidget.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <utility>

TracePanel::TracePanel(TraceModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_nextPending(new QAction(tr("Next &Pending Step"), this))
    , m_nextFailed(new QAction(tr("Next &Failed Step"), this))
{
    m_nextPending->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_J));
    m_nextPending->setStatusTip(tr("Select the next step that waits for a person (Ctrl+J)"));
    connect(m_nextPending, &QAction::triggered, this, [this] { jumpToStep(StepStatus::Waiting); });
    m_nextFailed->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_nextFailed->setStatusTip(tr("Select the next step that ended failed (Ctrl+E)"));
    connect(m_nextFailed, &QAction::triggered, this, [this] { jumpToStep(StepStatus::Failed); });
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    m_filter = new TraceFilterModel(this);
    m_filter->setObjectName(QStringLiteral("traceFilterModel"));
    m_filter->setTraceModel(m_model);
    buildFilterBar();
    buildViews();
}

void TracePanel::setHeader(QWidget *header)
{
    m_layout->insertWidget(2, header);
}

void TracePanel::buildFilterBar()
{
    // Two rows: the text filter keeps the dock's width to show what is typed.
    auto *filterBar = new QHBoxLayout;
    auto *toggleBar = new QHBoxLayout;
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("traceFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter steps (tool, call id, result)"));
    m_filterEdit->setClearButtonEnabled(true);
    // The line edit would take Ctrl+E (end of line) from "Next failed step".
    new ShortcutPassThrough(m_filterEdit, {m_nextFailed, m_nextPending});
    m_toolCombo = new QComboBox(this);
    m_toolCombo->setObjectName(QStringLiteral("traceToolFilter"));
    m_toolCombo->addItem(tr("All tools"), QString());
    m_toolCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    const auto toggle = [this](const QString &text, const char *name, const QString &tip) {
        auto *button = new QToolButton(this);
        button->setObjectName(QString::fromLatin1(name));
        button->setText(text);
        button->setToolTip(tip);
        button->setCheckable(true);
        button->setAutoRaise(true);
        return button;
    };
    m_failedOnly
        = toggle(tr("Failed"), "failedOnly", tr("Show the steps that ended failed only (Ctrl+E: the next one)"));
    m_hadFailures = toggle(tr("Had failures"), "hadFailuresOnly",
                           tr("Show the steps with any failed attempt, also those that succeeded after a retry"));
    m_pendingOnly = toggle(tr("Pending"), "pendingOnly", tr("Show steps waiting for a person only"));
    m_follow = toggle(tr("Follow"), "followTrace",
                      tr("Scroll to each new step while the trace is at its end; scrolling up turns it off"));
    m_follow->setChecked(true);
    auto *nextPending = new QToolButton(this);
    nextPending->setDefaultAction(m_nextPending);
    nextPending->setText(tr("Next pending"));
    nextPending->setAutoRaise(true);
    auto *nextFailed = new QToolButton(this);
    nextFailed->setDefaultAction(m_nextFailed);
    nextFailed->setText(tr("Next failed"));
    nextFailed->setAutoRaise(true);
    filterBar->addWidget(m_filterEdit, 1);
    filterBar->addWidget(m_toolCombo);
    toggleBar->addWidget(m_failedOnly);
    toggleBar->addWidget(m_hadFailures);
    toggleBar->addWidget(m_pendingOnly);
    toggleBar->addWidget(m_follow);
    toggleBar->addStretch(1);
    toggleBar->addWidget(nextPending);
    toggleBar->addWidget(nextFailed);
    m_layout->addLayout(filterBar);
    m_layout->addLayout(toggleBar);

    // Typing is debounced: each keystroke would re-filter up to a million rows.
    auto *filterTimer = new QTimer(this);
    filterTimer->setSingleShot(true);
    filterTimer->setInterval(FilterDebounceMs);
    connect(m_filterEdit, &QLineEdit::textChanged, filterTimer, qOverload<>(&QTimer::start));
    connect(filterTimer, &QTimer::timeout, this, [this] { m_filter->setText(m_filterEdit->text()); });
    connect(m_toolCombo, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setTool(m_toolCombo->currentData().toString()); });
    // One status filter at a time.
    const QList<QToolButton *> statusToggles{m_failedOnly, m_hadFailures, m_pendingOnly};
    for (QToolButton *button : statusToggles) {
        connect(button, &QToolButton::toggled, this, [this, button, statusToggles](bool on) {
            if (on)
                for (QToolButton *other : statusToggles)
                    if (other != button)
                        other->setChecked(false);
            updateStatusFilter();
        });
    }
    connect(m_follow, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            followNewRows();
    });
}

void TracePanel::buildViews()
{
    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_timeline = new TimelineWidget(splitter);
    m_timeline->setObjectName(QStringLiteral("timeline"));
    m_timeline->setTraceModel(m_model);
    connect(m_timeline, &TimelineWidget::stepSelected, this, &TracePanel::selectStep);
    m_view = new QTreeView(splitter);
    m_view->setObjectName(QStringLiteral("traceView"));
    m_view->setModel(m_filter);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    m_layout->addWidget(splitter, 1);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(true);
    sizeColumns();
    connect(m_view, &QTreeView::activated, this,
            [this](const QModelIndex &index) { Q_EMIT stepActivated(index.data(TraceModel::CallIdRole).toString()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &index) {
        const QString callId = index.data(TraceModel::CallIdRole).toString();
        Q_EMIT currentStepChanged(callId);
        m_timeline->setSelectedCallId(callId);
    });
    // A journal-backed row made current while its page was on its way (no call id
    // then): its step is shown when the page arrives.
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from, const QModelIndex &to) {
        const QModelIndex current = m_filter->mapToSource(m_view->currentIndex());
        if (!m_model->isJournalBacked() || !current.isValid() || current.parent().isValid() || from.parent().isValid()
            || current.row() < from.row() || current.row() > to.row())
            return;
        const QString callId = current.data(TraceModel::CallIdRole).toString();
        if (!callId.isEmpty()) {
            Q_EMIT currentStepChanged(callId);
            m_timeline->setSelectedCallId(callId);
        }
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_knownTools.clear();
        m_toolCombo->setCurrentIndex(0);
        while (m_toolCombo->count() > 1)
            m_toolCombo->removeItem(1);
        addToolFilters();
    });
    connect(m_model, &TraceModel::toolsChanged, this, &TracePanel::addToolFilters);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent) {
        if (!parent.isValid() && m_follow->isChecked())
            followNewRows();
    });
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, &TracePanel::scrolled);
    // While following, the end stays in view when the range changes for another reason
    // than new rows too: a horizontal scroll bar appearing, the dock resized, zoom.
    connect(m_view->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int maximum) {
        if (m_follow->isChecked() && !m_followScrollPending)
            m_view->verticalScrollBar()->setValue(maximum);
    });
}

void TracePanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange && m_view)
        sizeColumns(); // View ▸ Zoom
    QWidget::changeEvent(event);
}

void TracePanel::sizeColumns()
{
    // Fixed widths for the font: ResizeToContents would scan every row on each batch.
    QHeaderView *header = m_view->header();
    const QFontMetrics metrics(m_view->font());
    const auto width = [&](int column, const QStringList &samples, int padding) {
        int widest = metrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString());
        for (const QString &sample : samples)
            widest = qMax(widest, metrics.horizontalAdvance(sample));
        header->resizeSection(column, widest + padding);
    };
    QStringList statuses;
    for (int status = int(StepStatus::Queued); status <= int(StepStatus::Cancelled); ++status)
        statuses.append(TraceModel::statusText(StepStatus(status)));
    // Step numbers and event rows' "#N" / "run"; attempt rows sit one level in: two
    // indentations (root decoration + level).
    width(TraceModel::Sequence, {QStringLiteral("#99999")}, 2 * m_view->indentation() + 12);
    width(TraceModel::Tool, {QStringLiteral("get_exchange_rate")}, 16);
    width(TraceModel::Status, statuses, 36);
    width(TraceModel::Attempts, {QStringLiteral("10/10")}, 16);
    width(TraceModel::Duration, {QStringLiteral("10.0 s")}, 16);
}

bool TracePanel::selectStep(const QString &callId)
{
    m_model->flush();
    QModelIndex index = m_filter->mapFromSource(m_model->indexForCallId(callId));
    if (!index.isValid()) {
        // Hidden by the filter: show everything again rather than select nothing.
        m_filterEdit->clear();
        m_filter->setText({});
        m_toolCombo->setCurrentIndex(0);
        m_failedOnly->setChecked(false);
        m_hadFailures->setChecked(false);
        m_pendingOnly->setChecked(false);
        index = m_filter->mapFromSource(m_model->indexForCallId(callId));
    }
    if (!index.isValid())
        return false;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    return true;
}

bool TracePanel::jumpToStep(StepStatus status)
{
    m_model->flush();
    const QModelIndex next = m_filter->nextStep(m_view->currentIndex(), status);
    if (!next.isValid()) {
        Q_EMIT notice(status == StepStatus::Failed ? tr("No failed step") : tr("No pending step"), 3000);
        return false;
    }
    m_view->setCurrentIndex(next);
    m_view->scrollTo(next);
    return true;
}

void TracePanel::updateStatusFilter()
{
    m_filter->setStatusFilter(m_failedOnly->isChecked()        ? TraceFilterModel::StatusFilter::FailedOnly
                                  : m_hadFailures->isChecked() ? TraceFilterModel::StatusFilter::HadFailures
                                  : m_pendingOnly->isChecked() ? TraceFilterModel::StatusFilter::PendingOnly
                                                               : TraceFilterModel::StatusFilter::All);
}

void TracePanel::followNewRows()
{
    // Queued: the view lays the new rows out first, and a batch of inserts scrolls once.
    if (std::exchange(m_followScrollPending, true))
        return;
    QTimer::singleShot(0, this, [this] {
        m_followScrollPending = false;
        if (m_follow->isChecked())
            m_view->scrollToBottom();
    });
}

void TracePanel::scrolled(int value)
{
    // Rows added below keep the value (only the maximum grows), so a value change
    // above the end is the user (wheel, drag, keys) or a jump to a step up the trace.
    const QScrollBar *bar = m_view->verticalScrollBar();
    if (m_followScrollPending)
        return;
    m_follow->setChecked(value >= bar->maximum());
}

void TracePanel::addToolFilters()
{
    // The model lists its tools (a journal-backed run: one indexed look-up per tool),
    // so a million-step run is never scanned for them.
    for (const QString &tool : m_model->tools()) {
        if (m_knownTools.contains(tool))
            continue;
        m_knownTools.insert(tool);
        m_toolCombo->addItem(tool, tool);
    }
}
