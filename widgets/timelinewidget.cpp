// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinewidget.h"

#include "tracemodel.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace {

QColor statusColor(StepStatus status)
{
    switch (status) {
    case StepStatus::Queued: return QColor(0x9e, 0x9e, 0x9e);
    case StepStatus::Running: return QColor(0x1e, 0x88, 0xe5);
    case StepStatus::Retrying: return QColor(0xfb, 0x8c, 0x00);
    case StepStatus::Waiting: return QColor(0x8e, 0x24, 0xaa);
    case StepStatus::Succeeded: return QColor(0x43, 0xa0, 0x47);
    case StepStatus::Failed: return QColor(0xe5, 0x39, 0x35);
    case StepStatus::Memoized: return QColor(0x00, 0x89, 0x7b);
    case StepStatus::Cancelled: return QColor(0x75, 0x75, 0x75);
    }
    return Qt::gray;
}

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

void TimelineWidget::setTraceModel(TraceModel *model)
{
    m_model = model;
    connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent, int first, int last) {
        if (!parent.isValid())
            addRows(first, last);
    });
    connect(model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (!topLeft.parent().isValid())
                    updateRows(topLeft.row(), bottomRight.row());
            });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_followEnd = true;
        relayout();
    });
    relayout();
}

void TimelineWidget::relayout()
{
    m_lanes.clear();
    m_laneFreeAt.clear();
    m_where.clear();
    m_openCount = 0;
    m_now = nowMs();
    m_minTime = 0;
    m_maxTime = 0;
    m_tickTimer->stop();
    if (m_model && m_model->rowCount() > 0)
        addRows(0, m_model->rowCount() - 1);
    else
        update();
}

void TimelineWidget::addRows(int first, int last)
{
    m_now = nowMs();
    const int lanesBefore = laneCount();
    if (int(m_where.size()) < last + 1)
        m_where.resize(size_t(last) + 1, {-1, -1});
    for (int row = first; row <= last; ++row) {
        const Step *s = m_model->step(row);
        if (!s)
            continue;
        const qint64 start = s->attempts.empty() ? (s->startedAt ? s->startedAt : s->queuedAt) : s->attempts.front().startedAt;
        if (start == 0)
            continue;
        const bool open = s->endedAt == 0 && !isFinal(s->status);
        const qint64 end = open ? OpenEnd : std::max(s->endedAt, start + 1);
        // Greedy slot assignment: the first lane free at the step's start (a script
        // that keeps N calls in flight comes out as N lanes).
        size_t lane = 0;
        while (lane < m_laneFreeAt.size() && m_laneFreeAt[lane] > start)
            ++lane;
        if (lane == m_laneFreeAt.size()) {
            m_laneFreeAt.push_back(0);
            m_lanes.emplace_back();
        }
        m_laneFreeAt[lane] = end;
        m_lanes[lane].push_back({row, start, end});
        m_where[size_t(row)] = {int(lane), int(m_lanes[lane].size()) - 1};
        if (open)
            ++m_openCount;
        if (m_minTime == 0 || start < m_minTime)
            m_minTime = start;
        m_maxTime = std::max(m_maxTime, open ? m_now : end);
    }
    if (laneCount() != lanesBefore)
        setMinimumHeight(AxisHeight + std::max(2, laneCount()) * LaneHeight);
    if (m_openCount > 0 && !m_tickTimer->isActive())
        m_tickTimer->start();
    if (m_followEnd)
        fit();
    update();
}

void TimelineWidget::updateRows(int first, int last)
{
    for (int row = first; row <= last && row < int(m_where.size()); ++row) {
        const auto [lane, i] = m_where[size_t(row)];
        if (lane < 0)
            continue;
        Item &item = m_lanes[size_t(lane)][size_t(i)];
        const Step *s = m_model->step(row);
        if (item.end != OpenEnd || !s || (s->endedAt == 0 && !isFinal(s->status)))
            continue;
        item.end = std::max(s->endedAt > 0 ? s->endedAt : nowMs(), item.start + 1);
        // The step ended: its lane is free from then on (it is the lane's last item,
        // since a lane takes no new step while one is open).
        if (size_t(i) + 1 == m_lanes[size_t(lane)].size())
            m_laneFreeAt[size_t(lane)] = item.end;
        m_maxTime = std::max(m_maxTime, item.end);
        --m_openCount;
    }
    if (m_openCount == 0)
        m_tickTimer->stop();
    if (m_followEnd)
        fit();
    update();
}

const TimelineWidget::Item *TimelineWidget::itemOf(const QString &callId) const
{
    if (!m_model)
        return nullptr;
    const int row = m_model->indexForCallId(callId).row();
    if (row < 0 || row >= int(m_where.size()) || m_where[size_t(row)].first < 0)
        return nullptr;
    const auto [lane, i] = m_where[size_t(row)];
    return &m_lanes[size_t(lane)][size_t(i)];
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
    return item ? m_where[size_t(item->row)].first : -1;
}

QRectF TimelineWidget::barRect(const QString &callId) const
{
    const Item *item = itemOf(callId);
    if (!item)
        return {};
    const int lane = m_where[size_t(item->row)].first;
    const double x0 = xFor(item->start);
    const double x1 = std::max(xFor(endOf(*item)), x0 + 1);
    const QRectF r(x0, AxisHeight + lane * LaneHeight + 2, x1 - x0, LaneHeight - 4);
    return r.intersected(QRectF(rect()));
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

const Step *TimelineWidget::stepAt(const QPoint &pos) const
{
    const auto [lane, i] = hit(pos);
    if (lane < 0 || !m_model)
        return nullptr;
    return m_model->step(m_lanes[size_t(lane)][size_t(i)].row);
}

void TimelineWidget::setSelectedCallId(const QString &callId)
{
    if (callId == m_selected)
        return;
    m_selected = callId;
    if (const Item *item = itemOf(callId)) {
        if (endOf(*item) < m_viewStart || item->start > m_viewEnd) {
            const qint64 span = m_viewEnd - m_viewStart;
            setViewRange(item->start - span / 2, item->start + span / 2);
        }
    }
    update();
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    // Axis: about one tick per 100 px, at a round number of ms.
    const qint64 span = m_viewEnd - m_viewStart;
    constexpr qint64 mantissas[] = {1, 2, 5};
    qint64 tick = 1;
    qint64 magnitude = 1;
    for (int k = 0; tick * width() / std::max<qint64>(span, 1) < 100 && magnitude < (qint64(1) << 50);) {
        if (++k == 3) {
            k = 0;
            magnitude *= 10;
        }
        tick = mantissas[k] * magnitude;
    }
    p.setPen(palette().color(QPalette::Mid));
    const QFontMetrics fm(font());
    for (qint64 t = (m_viewStart - m_minTime) / tick * tick + m_minTime; t <= m_viewEnd; t += tick) {
        const double x = xFor(t);
        p.drawLine(QPointF(x, AxisHeight - 4), QPointF(x, height()));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QPointF(x + 2, fm.ascent()), TraceModel::durationText(t - m_minTime));
        p.setPen(palette().color(QPalette::Mid));
    }

    int painted = 0;
    QRectF selectedRect;
    for (int lane = 0; lane < laneCount(); ++lane) {
        const std::vector<Item> &items = m_lanes[size_t(lane)];
        const double y = AxisHeight + lane * LaneHeight + 2;
        const double h = LaneHeight - 4;
        const auto endBefore = [this](const Item &item, qint64 t) { return endOf(item) < t; };
        auto it = std::lower_bound(items.begin(), items.end(), m_viewStart, endBefore);
        while (it != items.end() && it->start < m_viewEnd) {
            const Step *s = m_model->step(it->row);
            const double x0 = std::max(xFor(it->start), -1.0);
            const qint64 end = endOf(*it);
            const double x1 = std::min(std::max(xFor(end), x0 + 1), double(width() + 1));
            ++painted;
            if (x1 - x0 >= 4 && s->attempts.size() > 1) {
                // Attempts as segments; the back-off between them as a thin line.
                p.fillRect(QRectF(x0, y + h / 2 - 1, x1 - x0, 2), statusColor(s->status).lighter(140));
                for (const Attempt &a : s->attempts) {
                    const double a0 = xFor(a.startedAt);
                    const double a1 = std::max(xFor(a.endedAt > 0 ? a.endedAt : end), a0 + 1);
                    const StepStatus st = a.endedAt == 0 ? s->status : a.succeeded ? StepStatus::Succeeded : StepStatus::Failed;
                    p.fillRect(QRectF(a0, y, a1 - a0, h), statusColor(st));
                }
            } else {
                p.fillRect(QRectF(x0, y, x1 - x0, h), statusColor(s->status));
            }
            if (s->callId == m_selected)
                selectedRect = QRectF(x0, y, x1 - x0, h);
            // Skip every bar that would land on a pixel already painted in this lane.
            const qint64 nextPixel = timeAt(std::floor(x1) + 1);
            it = std::lower_bound(it + 1, items.end(), nextPixel, endBefore);
        }
    }
    m_lastPainted = painted;
    if (!selectedRect.isNull()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(selectedRect.adjusted(-1, -1, 1, 1));
    }
    if (m_brushing) {
        QColor c = palette().color(QPalette::Highlight);
        c.setAlpha(60);
        p.fillRect(QRect(QPoint(std::min(m_brushX, m_pressPos.x()), AxisHeight),
                         QPoint(std::max(m_brushX, m_pressPos.x()), height())),
                   c);
    }
    if (laneCount() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Steps appear here as the script calls tools."));
    }
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
    if (const Step *s = stepAt(pos)) {
        setSelectedCallId(s->callId);
        Q_EMIT stepSelected(s->callId);
    }
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent *)
{
    fit();
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const Step *s = stepAt(help->pos());
        if (!s) {
            QToolTip::hideText();
            return true;
        }
        QString tip = tr("#%1 %2 — %3").arg(s->sequence).arg(s->tool, TraceModel::statusText(s->status));
        tip += QLatin1Char('\n') + tr("queued %1").arg(msText(s->queuedAt));
        for (const Attempt &a : s->attempts) {
            tip += QLatin1Char('\n') + tr("attempt %1: %2 – %3").arg(a.number).arg(msText(a.startedAt),
                                                                      a.endedAt > 0 ? msText(a.endedAt) : tr("now"));
            if (a.endedAt > 0)
                tip += QStringLiteral(" (%1 ms)").arg(a.endedAt - a.startedAt);
        }
        if (s->endedAt > 0)
            tip += QLatin1Char('\n') + tr("ended %1, %2 ms in all").arg(msText(s->endedAt)).arg(s->endedAt - s->queuedAt);
        QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}
