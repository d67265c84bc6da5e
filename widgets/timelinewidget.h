// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/laneassigner.h"
#include "project/steprows.h"

#include <QHash>
#include <QWidget>

#include <limits>
#include <optional>
#include <vector>

class QPainter;
class QThread;
class QTimer;
class TraceModel;

/// The Trace dock's timeline (DESIGN.md "The window"): one lane per concurrent call
/// slot, a bar per step with its attempts as segments and the back-off gaps between
/// them as a thin line, coloured by status. The time a step waited for a person (a
/// pending call answered by hand, an MCP server's question, a step-mode hold) is a
/// hatched segment of the waiting colour within its bar, also once answered and for a
/// run read from the journal (a finished step's foot keeps its outcome's colour); the
/// tooltip says "ran 0.4 s, waited for a person 36.2 s". Wheel zooms around the cursor, dragging
/// pans, Shift+drag brushes a range to zoom into, double-click fits everything. The
/// tooltip gives the step's times to the millisecond. A running step's last progress
/// line (an MCP server's notifications/progress) shows inside its bar, the share done
/// as a dark strip along the bar's foot, and in the tooltip. Painting walks each lane by
/// pixel, not by step: after a bar is drawn the next one is found by binary search
/// past the next pixel (hotspot's timeline delegate), so the cost grows with the width,
/// not the number of steps.
///
/// It keeps ~40 bytes per step (extent, lane, status; attempt segments of retried
/// steps only), never Steps. A live run is followed through the model's batched
/// signals; a journal-backed run (TraceModel::openRun) is read in a worker thread
/// with its own JournalReader, so opening a million-step run does not wait for it.
class TimelineWidget : public QWidget
{
    Q_OBJECT
public:
    static constexpr int LaneHeight = 18;
    static constexpr int AxisHeight = 18;
    /// Pixels at the foot of a finished step's bar that keep its outcome's colour under
    /// its waits for a person.
    static constexpr int OutcomeFoot = 3;

    explicit TimelineWidget(QWidget *parent = nullptr);
    ~TimelineWidget() override;

    /// Reads steps from `model` (its top-level step rows); follows its changes. New
    /// steps are laid out as they arrive (a lane per call slot, O(lanes) per step); a
    /// step holds its lane until it ends.
    void setTraceModel(TraceModel *model);
    /// Lays every step out again (after a reset); a journal-backed model is read in
    /// the background (isLoading() until then).
    void relayout();
    /// True while a journal-backed run's extents are being read.
    bool isLoading() const { return m_loading; }

    int laneCount() const { return int(m_lanes.size()); }
    /// Lane of the step with `callId`, -1 when unknown.
    int laneOf(const QString &callId) const;
    /// Where the bar of `callId` is painted (widget coordinates); empty when off-screen.
    QRectF barRect(const QString &callId) const;
    /// Where the segments of `callId`'s bar that waited for a person are painted (widget
    /// coordinates, clipped to the widget), in the order of StepSpan::segmentsOf().
    QList<QRectF> waitRects(const QString &callId) const;
    /// The step whose bar is under `pos`, or nullopt.
    std::optional<StepSummary> stepAt(const QPoint &pos) const;
    /// Visible time range, ms since the epoch.
    qint64 viewStart() const { return m_viewStart; }
    qint64 viewEnd() const { return m_viewEnd; }
    void setViewRange(qint64 start, qint64 end);
    /// Shows every step.
    void fit();
    /// Bars painted by the last paintEvent (bars that fell on an already painted pixel
    /// are skipped); for the benchmark and tests.
    int lastPaintedBars() const { return m_lastPainted; }

    QString selectedCallId() const { return m_selected; }

public Q_SLOTS:
    /// Highlights the step with `callId` and brings its bar into view.
    void setSelectedCallId(const QString &callId);

Q_SIGNALS:
    /// A bar was clicked.
    void stepSelected(const QString &callId);
    /// A journal-backed run's timeline is laid out.
    void loaded();

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Item
    {
        int ordinal = 0; ///< TraceModel::ordinalOfRow
        qint64 start = 0;
        qint64 end = 0; ///< OpenEnd while the step runs
    };
    static constexpr qint64 OpenEnd = std::numeric_limits<qint64>::max();
    void addRows(int first, int last);
    void updateRows(int first, int last);
    /// Lays out the step at `ordinal`; `end` 0 = still open.
    void addSpan(int ordinal, qint64 start, qint64 end, StepStatus status);
    void addSummary(int ordinal, const StepSummary &step);
    void setSegments(int ordinal, const StepSummary &step);
    void loadFromJournal();
    void finishLayout(int lanesBefore);
    /// A segment's rectangle in lane row `y`, `end` standing for an open segment's end.
    QRectF segmentRect(const StepSpan::Segment &segment, qint64 end, double y) const;
    /// The bar of a step with segments: the attempts (the back-off between them a thin
    /// line) or the whole bar, then its waits for a person hatched over them.
    void paintSegments(QPainter &p, const std::vector<StepSpan::Segment> &segments, StepStatus status,
                       const QRectF &bar, qint64 end) const;
    /// An open step's last progress line (an MCP server's notifications/progress): the
    /// share done along the bar's foot, the line inside the bar when it fits.
    void paintProgress(QPainter &p, int ordinal, const QRectF &bar) const;
    /// The tooltip of a step's bar: its times to the millisecond, a running one's progress.
    static QString toolTipText(const StepSummary &s);
    /// The tooltip shown for a step follows its changes (progress) while it is shown.
    void refreshToolTip();
    qint64 endOf(const Item &item) const { return item.end == OpenEnd ? m_now : item.end; }
    const Item *itemOf(const QString &callId) const;
    const Item *itemAt(int ordinal) const;
    double xFor(qint64 t) const;
    qint64 timeAt(double x) const;
    std::pair<int, int> hit(const QPoint &pos) const; ///< (lane, index in lane) or (-1, -1)

    TraceModel *m_model = nullptr;
    std::vector<std::vector<Item>> m_lanes;   ///< by start; ends ascend too within a lane
    LaneAssigner m_laneAssigner;              ///< the lane rule (an open step keeps its lane: OpenEnd)
    std::vector<std::pair<int, int>> m_where; ///< by ordinal: (lane, index in lane); (-1, -1) = not laid out
    std::vector<quint8> m_status;             ///< by ordinal: StepStatus
    /// By ordinal: attempts of retried steps, waits for a person (StepSpan::segmentsOf).
    QHash<int, std::vector<StepSpan::Segment>> m_segments;
    QList<QThread *> m_loaders; ///< journal reads still running (the last one counts)
    int m_generation = 0;
    bool m_loading = false;
    int m_selectedOrdinal = -1;
    int m_openCount = 0;
    qint64 m_now = 0; ///< "now" for open steps, updated while any is open
    qint64 m_minTime = 0;
    qint64 m_maxTime = 0;
    qint64 m_viewStart = 0;
    qint64 m_viewEnd = 1000;
    bool m_followEnd = true;
    QString m_selected;
    QString m_toolTipCallId; ///< the step whose tooltip was shown last
    QPoint m_toolTipPos;     ///< where (widget coordinates)
    QTimer *m_tickTimer = nullptr;
    QPoint m_pressPos;
    qint64 m_pressViewStart = 0;
    bool m_brushing = false;
    bool m_dragged = false;
    int m_brushX = 0;
    mutable int m_lastPainted = 0;
};
