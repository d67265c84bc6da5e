// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineWidget's painting: the lanes, each step's bar in its status colour, a
// running step's progress, the selection and the time axis.
#include "timelinewidget.h"

#include "project/durationtext.h"
#include "stepstatuscolors.h"
#include "tracemodel.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {

/// The share done of a progress line that starts "PROGRESS/TOTAL" (an MCP server's
/// notifications/progress, McpCallProgress::line()), in [0, 1]; nullopt without a total.
std::optional<double> progressShare(const QString &line)
{
    const qsizetype space = line.indexOf(u' ');
    const QStringView head = QStringView(line).left(space < 0 ? line.size() : space);
    const qsizetype slash = head.indexOf(u'/');
    if (slash <= 0)
        return std::nullopt;
    bool doneOk = false;
    bool totalOk = false;
    const double done = head.left(slash).toDouble(&doneOk);
    const double total = head.mid(slash + 1).toDouble(&totalOk);
    if (!doneOk || !totalOk || !(total > 0) || !std::isfinite(done) || !std::isfinite(total))
        return std::nullopt;
    return std::clamp(done / total, 0.0, 1.0);
}

} // namespace

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (laneCount() == 0) { // no steps: the placeholder alone, no axis grid through it
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   m_loading ? tr("Reading the run's steps…") : tr("Steps appear here as the script calls tools."));
        m_lastPainted = 0;
        return;
    }
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
    double labelsEnd = -1; // where the last label drawn ends
    for (qint64 t = (m_viewStart - m_minTime) / tick * tick + m_minTime; t <= m_viewEnd; t += tick) {
        const double x = xFor(t);
        p.drawLine(QPointF(x, AxisHeight - 4), QPointF(x, height()));
        // Right of its line; a label that would run past the right edge goes left of it
        // (whole, not cut), or is left out when that would cover the label before it.
        const QString label = durationText(t - m_minTime);
        const int labelWidth = fm.horizontalAdvance(label);
        double labelX = x + 2;
        if (labelX + labelWidth > width())
            labelX = x - 2 - labelWidth;
        if (labelX <= labelsEnd + 2 || labelX < 0)
            continue;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QPointF(labelX, fm.ascent()), label);
        p.setPen(palette().color(QPalette::Mid));
        labelsEnd = labelX + labelWidth;
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
            const auto status = StepStatus(m_status[size_t(it->ordinal)]);
            const double x0 = std::max(xFor(it->start), -1.0);
            const qint64 end = endOf(*it);
            const double x1 = std::min(std::max(xFor(end), x0 + 1), double(width() + 1));
            ++painted;
            const auto segments = x1 - x0 >= 4 ? m_segments.constFind(it->ordinal) : m_segments.constEnd();
            if (segments != m_segments.constEnd()) {
                paintSegments(p, *segments, status, QRectF(x0, y, x1 - x0, h), end);
            } else {
                p.fillRect(QRectF(x0, y, x1 - x0, h), stepStatusColor(status, StatusColorUse::Timeline));
            }
            if (it->end == OpenEnd)
                paintProgress(p, it->ordinal, QRectF(x0, y, x1 - x0, h));
            if (it->ordinal == m_selectedOrdinal)
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
}

QRectF TimelineWidget::segmentRect(const StepSpan::Segment &segment, qint64 end, double y) const
{
    const double x0 = xFor(segment.start);
    const double x1 = std::max(xFor(segment.end > 0 ? segment.end : end), x0 + 1);
    return QRectF(x0, y, x1 - x0, LaneHeight - 4);
}

void TimelineWidget::paintSegments(QPainter &p, const std::vector<StepSpan::Segment> &segments, StepStatus status,
                                   const QRectF &bar, qint64 end) const
{
    const bool attempts = std::any_of(segments.begin(), segments.end(), [](const auto &s) { return !s.waiting; });
    // While a person is asked the step is "waiting"; the rest of its bar ran.
    const StepStatus ran = status == StepStatus::Waiting ? StepStatus::Running : status;
    if (attempts) {
        // Attempts as segments; the back-off between them as a thin line.
        p.fillRect(QRectF(bar.left(), bar.center().y() - 1, bar.width(), 2),
                   stepStatusColor(ran, StatusColorUse::Timeline).lighter(140));
        for (const StepSpan::Segment &a : segments) {
            if (a.waiting)
                continue;
            const StepStatus st = a.end == 0 ? ran : a.succeeded ? StepStatus::Succeeded : StepStatus::Failed;
            p.fillRect(segmentRect(a, end, bar.top()), stepStatusColor(st, StatusColorUse::Timeline));
        }
    } else {
        p.fillRect(bar, stepStatusColor(ran, StatusColorUse::Timeline));
    }
    // The waits for a person: the waiting colour, hatched, so they read as time nobody
    // ran anything, also in print and for colour-blind eyes. Once the step ended they
    // leave the bar's foot to the outcome beneath: a call answered at once after a long
    // wait is all wait, and still reads as succeeded (or failed).
    const QColor waiting = stepStatusColor(StepStatus::Waiting, StatusColorUse::Timeline);
    const QBrush hatch(waiting.lighter(150), Qt::BDiagPattern);
    const double foot = isFinal(status) ? OutcomeFoot : 0;
    for (const StepSpan::Segment &w : segments) {
        if (!w.waiting)
            continue;
        const QRectF r = segmentRect(w, end, bar.top()).intersected(bar).adjusted(0, 0, 0, -foot);
        p.fillRect(r, waiting);
        p.fillRect(r, hatch);
    }
}

void TimelineWidget::paintProgress(QPainter &p, int ordinal, const QRectF &bar) const
{
    const StepSummary *s = m_model ? m_model->summaryAt(ordinal) : nullptr;
    if (!s || s->progress.isEmpty())
        return;
    // What is done as a darker strip along the bar's foot; the line itself inside the
    // bar when there is room for a few characters.
    if (const std::optional<double> share = progressShare(s->progress))
        p.fillRect(QRectF(bar.left(), bar.bottom() - 3, bar.width() * *share, 3), QColor(0, 0, 0, 110));
    const QFontMetrics fm(font());
    const int room = int(bar.width()) - 6;
    if (room < fm.averageCharWidth() * 4)
        return;
    p.save();
    p.setPen(Qt::white);
    p.setClipRect(bar);
    p.drawText(bar.adjusted(3, 0, -3, -2), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(s->progress, Qt::ElideRight, room));
    p.restore();
}
