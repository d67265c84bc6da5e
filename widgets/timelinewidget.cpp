// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinewidget.h"

#include "journal/journalreader.h"
#include "project/durationtext.h"
#include "stepstatuscolors.h"
#include "tracemodel.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QThread>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace {

QString msText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss.zzz"));
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
    , m_tickTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("timeline"));
    setMouseTracking(true);
    setMinimumHeight(AxisHeight + 2 * LaneHeight);
    setFocusPolicy(Qt::ClickFocus);
    // Open steps grow with the clock; a few repaints a second are enough.
    m_tickTimer->setInterval(100);
    connect(m_tickTimer, &QTimer::timeout, this, [this] {
        m_now = nowMs();
        m_maxTime = std::max(m_maxTime, m_now);
        if (m_followEnd)
            fit();
        update();
    });
}

TimelineWidget::~TimelineWidget()
{
    // A worker still reading the journal must finish before its thread object goes.
    for (QThread *thread : std::as_const(m_loaders))
        thread->wait();
}

void TimelineWidget::setTraceModel(TraceModel *model)
{
    m_model = model;
    connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent, int first, int last) {
        if (!parent.isValid())
            addRows(first, last);
    });
    connect(model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (topLeft.parent().isValid())
                    return;
                updateRows(topLeft.row(), bottomRight.row());
                refreshToolTip(); // a running step's progress, say, under a resting mouse
            });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_followEnd = true;
        relayout();
    });
    relayout();
}

void TimelineWidget::relayout()
{
    ++m_generation;
    m_loading = false;
    m_lanes.clear();
    m_laneAssigner.clear();
    m_where.clear();
    m_status.clear();
    m_segments.clear();
    m_openCount = 0;
    m_now = nowMs();
    m_minTime = 0;
    m_maxTime = 0;
    m_selectedOrdinal = -1;
    m_tickTimer->stop();
    if (m_model && m_model->isJournalBacked()) {
        loadFromJournal();
        update();
        return;
    }
    if (m_model && m_model->rowCount() > 0)
        addRows(0, m_model->rowCount() - 1);
    else
        update();
}

void TimelineWidget::loadFromJournal()
{
    struct Result
    {
        std::vector<StepSpan> spans;
        std::vector<std::pair<int, StepSpan::Segment>> segments;
    };
    auto result = std::make_shared<Result>();
    const QString path = m_model->journalPath();
    const QString runId = m_model->runId();
    // The worker reads plain values with a reader of its own; the GUI thread lays them
    // out when it is done (STYLE.md "Threads and processes").
    QThread *thread = QThread::create([result, path, runId] {
        JournalReader reader;
        if (reader.open(path))
            result->spans = reader.spans(runId, &result->segments);
    });
    m_loaders.append(thread);
    m_loading = true;
    const int generation = m_generation;
    connect(thread, &QThread::finished, this, [this, thread, result, generation] {
        m_loaders.removeOne(thread);
        thread->deleteLater();
        if (generation != m_generation || !m_model)
            return; // a newer run is shown
        m_loading = false;
        m_now = nowMs();
        const int lanesBefore = laneCount();
        const size_t count = result->spans.size();
        m_where.assign(count, {-1, -1});
        m_status.assign(count, quint8(StepStatus::Queued));
        // Spans come by sequence, which is the model's ordinal order.
        for (size_t k = 0; k < count; ++k) {
            const StepSpan &span = result->spans[k];
            addSpan(int(k), span.start, span.end, span.status);
        }
        result->spans = {};
        int ordinal = 0;
        int lastSequence = -1;
        for (const auto &[sequence, segment] : result->segments) {
            if (sequence != lastSequence) {
                lastSequence = sequence;
                ordinal = m_model->ordinalOfSequence(sequence);
            }
            if (ordinal >= 0)
                m_segments[ordinal].push_back(segment);
        }
        finishLayout(lanesBefore);
        Q_EMIT loaded();
    });
    thread->start(QThread::LowPriority);
}

void TimelineWidget::addSpan(int ordinal, qint64 start, qint64 end, StepStatus status)
{
    if (int(m_where.size()) <= ordinal) {
        m_where.resize(size_t(ordinal) + 1, {-1, -1});
        m_status.resize(size_t(ordinal) + 1, quint8(StepStatus::Queued));
    }
    m_status[size_t(ordinal)] = quint8(status);
    if (start == 0)
        return;
    const bool open = end == 0 && !isFinal(status);
    const qint64 itemEnd = open ? OpenEnd : std::max(end, start + 1);
    const auto lane = size_t(m_laneAssigner.place(start, itemEnd));
    if (lane == m_lanes.size())
        m_lanes.emplace_back();
    m_lanes[lane].push_back({ordinal, start, itemEnd});
    m_where[size_t(ordinal)] = {int(lane), int(m_lanes[lane].size()) - 1};
    if (open)
        ++m_openCount;
    if (m_minTime == 0 || start < m_minTime)
        m_minTime = start;
    m_maxTime = std::max(m_maxTime, open ? m_now : itemEnd);
}

void TimelineWidget::setSegments(int ordinal, const StepSummary &step)
{
    std::vector<StepSpan::Segment> segments = StepSpan::segmentsOf(step);
    if (segments.empty())
        m_segments.remove(ordinal);
    else
        m_segments[ordinal] = std::move(segments);
}

void TimelineWidget::addSummary(int ordinal, const StepSummary &s)
{
    addSpan(ordinal, StepSpan::startOf(s), s.endedAt, s.status);
    setSegments(ordinal, s);
}

void TimelineWidget::finishLayout(int lanesBefore)
{
    if (laneCount() != lanesBefore)
        setMinimumHeight(AxisHeight + std::max(2, laneCount()) * LaneHeight);
    if (m_openCount > 0 && !m_tickTimer->isActive())
        m_tickTimer->start();
    if (m_followEnd)
        fit();
    update();
}

void TimelineWidget::addRows(int first, int last)
{
    if (m_model->isJournalBacked())
        return;
    m_now = nowMs();
    const int lanesBefore = laneCount();
    for (int row = first; row <= last; ++row) {
        const int ordinal = m_model->ordinalOfRow(row);
        if (const StepSummary *s = m_model->summaryAt(ordinal))
            addSummary(ordinal, *s);
    }
    finishLayout(lanesBefore);
}

void TimelineWidget::updateRows(int first, int last)
{
    if (m_model->isJournalBacked())
        return;
    for (int row = first; row <= last; ++row) {
        const int ordinal = m_model->ordinalOfRow(row);
        const StepSummary *s = m_model->summaryAt(ordinal);
        if (!s || ordinal >= int(m_where.size()))
            continue;
        m_status[size_t(ordinal)] = quint8(s->status);
        setSegments(ordinal, *s);
        const auto [lane, i] = m_where[size_t(ordinal)];
        if (lane < 0)
            continue;
        Item &item = m_lanes[size_t(lane)][size_t(i)];
        if (item.end != OpenEnd || (s->endedAt == 0 && !isFinal(s->status)))
            continue;
        item.end = std::max(s->endedAt > 0 ? s->endedAt : nowMs(), item.start + 1);
        // The step ended: its lane is free from then on (it is the lane's last item,
        // since a lane takes no new step while one is open).
        if (size_t(i) + 1 == m_lanes[size_t(lane)].size())
            m_laneAssigner.release(lane, item.end);
        m_maxTime = std::max(m_maxTime, item.end);
        --m_openCount;
    }
    if (m_openCount == 0)
        m_tickTimer->stop();
    if (m_followEnd)
        fit();
    update();
}

const TimelineWidget::Item *TimelineWidget::itemAt(int ordinal) const
{
    if (ordinal < 0 || ordinal >= int(m_where.size()) || m_where[size_t(ordinal)].first < 0)
        return nullptr;
    const auto [lane, i] = m_where[size_t(ordinal)];
    return &m_lanes[size_t(lane)][size_t(i)];
}

const TimelineWidget::Item *TimelineWidget::itemOf(const QString &callId) const
{
    return m_model ? itemAt(m_model->ordinalOfCallId(callId)) : nullptr;
}

void TimelineWidget::fit()
{
    const qint64 span = std::max<qint64>(m_maxTime - m_minTime, 10);
    m_viewStart = m_minTime - span / 50;
    m_viewEnd = m_maxTime + span / 50;
    m_followEnd = true;
    update();
}

void TimelineWidget::setViewRange(qint64 start, qint64 end)
{
    if (end <= start)
        end = start + 1;
    m_viewStart = start;
    m_viewEnd = end;
    m_followEnd = false;
    update();
}

double TimelineWidget::xFor(qint64 t) const
{
    return double(t - m_viewStart) * width() / double(m_viewEnd - m_viewStart);
}

qint64 TimelineWidget::timeAt(double x) const
{
    return m_viewStart + qint64(x * double(m_viewEnd - m_viewStart) / std::max(1, width()));
}

int TimelineWidget::laneOf(const QString &callId) const
{
    const Item *item = itemOf(callId);
    return item ? m_where[size_t(item->ordinal)].first : -1;
}

QRectF TimelineWidget::barRect(const QString &callId) const
{
    const Item *item = itemOf(callId);
    if (!item)
        return {};
    const int lane = m_where[size_t(item->ordinal)].first;
    const double x0 = xFor(item->start);
    const double x1 = std::max(xFor(endOf(*item)), x0 + 1);
    const QRectF r(x0, AxisHeight + lane * LaneHeight + 2, x1 - x0, LaneHeight - 4);
    return r.intersected(QRectF(rect()));
}

QList<QRectF> TimelineWidget::waitRects(const QString &callId) const
{
    QList<QRectF> rects;
    const Item *item = itemOf(callId);
    const auto segments = item ? m_segments.constFind(item->ordinal) : m_segments.constEnd();
    if (segments == m_segments.constEnd())
        return rects;
    const double y = AxisHeight + m_where[size_t(item->ordinal)].first * LaneHeight + 2;
    for (const StepSpan::Segment &segment : *segments)
        if (segment.waiting)
            rects.append(segmentRect(segment, endOf(*item), y).intersected(QRectF(rect())));
    return rects;
}

std::pair<int, int> TimelineWidget::hit(const QPoint &pos) const
{
    const int lane = (pos.y() - AxisHeight) / LaneHeight;
    if (pos.y() < AxisHeight || lane < 0 || lane >= laneCount())
        return {-1, -1};
    const std::vector<Item> &items = m_lanes[size_t(lane)];
    // Within a pixel's reach (bars narrower than a pixel are still hit).
    const qint64 t0 = timeAt(pos.x() - 2);
    const qint64 t1 = timeAt(pos.x() + 2);
    auto it = std::lower_bound(items.begin(), items.end(), t0,
                               [this](const Item &item, qint64 t) { return endOf(item) < t; });
    if (it == items.end() || it->start > t1)
        return {-1, -1};
    return {lane, int(it - items.begin())};
}

std::optional<StepSummary> TimelineWidget::stepAt(const QPoint &pos) const
{
    const auto [lane, i] = hit(pos);
    if (lane < 0 || !m_model)
        return std::nullopt;
    const StepSummary *s = m_model->summaryAt(m_lanes[size_t(lane)][size_t(i)].ordinal);
    return s ? std::optional<StepSummary>(*s) : std::nullopt;
}

void TimelineWidget::setSelectedCallId(const QString &callId)
{
    if (callId == m_selected)
        return;
    m_selected = callId;
    m_selectedOrdinal = m_model && !callId.isEmpty() ? m_model->ordinalOfCallId(callId) : -1;
    if (const Item *item = itemAt(m_selectedOrdinal)) {
        if (endOf(*item) < m_viewStart || item->start > m_viewEnd) {
            const qint64 span = m_viewEnd - m_viewStart;
            setViewRange(item->start - span / 2, item->start + span / 2);
        }
    }
    update();
}

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    const double factor = event->angleDelta().y() > 0 ? 0.8 : 1.25;
    const qint64 anchor = timeAt(event->position().x());
    const qint64 start = anchor - qint64(double(anchor - m_viewStart) * factor);
    const qint64 end = anchor + qint64(double(m_viewEnd - anchor) * factor);
    setViewRange(start, std::max(end, start + 2));
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->position().toPoint();
    m_pressViewStart = m_viewStart;
    m_brushing = event->modifiers() & Qt::ShiftModifier;
    m_brushX = m_pressPos.x();
    m_dragged = false;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint pos = event->position().toPoint();
    if ((pos - m_pressPos).manhattanLength() > 3)
        m_dragged = true;
    if (m_brushing) {
        m_brushX = pos.x();
        update();
        return;
    }
    const qint64 span = m_viewEnd - m_viewStart;
    const qint64 shift = qint64(double(pos.x() - m_pressPos.x()) * span / std::max(1, width()));
    setViewRange(m_pressViewStart - shift, m_pressViewStart - shift + span);
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_brushing) {
        m_brushing = false;
        if (std::abs(pos.x() - m_pressPos.x()) > 3)
            setViewRange(timeAt(std::min(pos.x(), m_pressPos.x())), timeAt(std::max(pos.x(), m_pressPos.x())));
        update();
        return;
    }
    if (m_dragged)
        return;
    if (const std::optional<StepSummary> s = stepAt(pos)) {
        setSelectedCallId(s->callId);
        Q_EMIT stepSelected(s->callId);
    }
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent *)
{
    fit();
}

QString TimelineWidget::toolTipText(const StepSummary &s)
{
    QString tip = tr("#%1 %2 — %3").arg(s.sequence).arg(s.tool, TraceModel::statusText(s.status));
    tip += QLatin1Char('\n') + tr("queued %1").arg(msText(s.queuedAt));
    if (s.heldAt > 0)
        tip += QLatin1Char('\n')
            + tr("held for a person: %1 – %2 (%3)")
                  .arg(msText(s.heldAt), msText(s.queuedAt), durationText(s.queuedAt - s.heldAt));
    const qint64 now = nowMs();
    for (const AttemptSummary &a : s.attempts) {
        tip += QLatin1Char('\n')
            + tr("attempt %1: %2 – %3")
                  .arg(a.number)
                  .arg(msText(a.startedAt), a.endedAt > 0 ? msText(a.endedAt) : tr("now"));
        // The time a person took apart from the time the handler ran: a call answered
        // by hand after 36 s did not take 36 s to run.
        if (!a.personWaits.empty())
            tip += QLatin1Char(' ')
                + tr("(ran %1, waited for a person %2)").arg(durationText(a.ranMs(now)), durationText(a.waitedMs(now)));
        else if (a.endedAt > 0)
            tip += QStringLiteral(" (%1 ms)").arg(a.endedAt - a.startedAt);
    }
    if (s.endedAt == 0 && !s.progress.isEmpty())
        tip += QLatin1Char('\n') + tr("progress: %1").arg(s.progress);
    if (s.endedAt > 0)
        tip += QLatin1Char('\n') + tr("ended %1, %2 ms in all").arg(msText(s.endedAt)).arg(s.endedAt - s.queuedAt);
    return tip;
}

void TimelineWidget::refreshToolTip()
{
    if (m_toolTipCallId.isEmpty() || !m_model || !QToolTip::isVisible())
        return;
    const StepSummary *s = m_model->summaryAt(m_model->ordinalOfCallId(m_toolTipCallId));
    if (!s)
        return;
    // Shown again where it is: QToolTip changes the text in place when it differs.
    const QString tip = toolTipText(*s);
    if (tip != QToolTip::text())
        QToolTip::showText(mapToGlobal(m_toolTipPos), tip, this);
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const std::optional<StepSummary> s = stepAt(help->pos());
        if (!s) {
            m_toolTipCallId.clear();
            QToolTip::hideText();
            return true;
        }
        m_toolTipCallId = s->callId;
        m_toolTipPos = help->pos();
        QToolTip::showText(help->globalPos(), toolTipText(*s), this);
        return true;
    }
    if (event->type() == QEvent::Leave)
        m_toolTipCallId.clear(); // a tooltip shown now is another widget's: not ours to refresh
    return QWidget::event(event);
}
