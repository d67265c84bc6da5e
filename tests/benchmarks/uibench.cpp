// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The window's benchmarks (issue 8): streaming calls with the trace showing vs
// headless, the worst event-loop stall, and a 1 000 000-step run opened, shown and
// filtered. Needs a display (offscreen works). Never part of `test`.
#include "bulkjournal.h"
#include "busyrunbench.h"
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "timelinewidget.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"
#include "trustedproject.h"
#include "ui/durablerunactions.h"
#include "ui/mainwindow.h"
#include "ui/rerundialog.h"
#include "ui/runcommands.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QSpinBox>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QTreeView>

#include <cstdio>
#include <sys/resource.h>
#include <time.h>
#include <vector>

namespace {

struct Row
{
    QString name;
    QString value;
    QString method;
};

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size()) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        std::exit(1);
    }
}

QString makeStreamingProject(const QTemporaryDir &dir, int calls)
{
    writeFile(dir.path() + QStringLiteral("/scripts/main.py"),
              "from toolstudio import tools\n"
              "for i in range("
                  + QByteArray::number(calls)
                  + "):\n"
                    "    tools.echo(n=i)\n"
                    "print('done', flush=True)\n");
    writeFile(
        dir.path() + QStringLiteral("/toolstudio.json"),
        "{\"name\": \"bench\", \"default_script\": \"main\",\n"
        " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
        " \"limits\": {\"max_calls\": "
            + QByteArray::number(calls)
            + ", \"run_timeout_seconds\": 3600},\n"
              " \"tools\": [{\"name\": \"echo\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"n\": "
              "{\"type\": \"integer\"}}, \"required\": [\"n\"]},\n"
              "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": {\"ok\": true}}]}}]}\n");
    return dir.path();
}

/// CPU time of the calling thread (ms): a stall with little CPU time waited for a core.
double threadCpuMs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

/// Times every top-level event delivery on the GUI thread: the slowest one names the
/// cause of a stall. (notify() is called on every thread; the run thread's and the
/// journal's deliveries are passed on untimed.)
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer clock;
        clock.start();
        const double cpuBefore = threadCpuMs();
        const int type = int(event->type());
        const char *className = receiver->metaObject()->className(); // the receiver may be gone after
        const QString name = receiver->objectName();
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        const qint64 ns = clock.nsecsElapsed();
        if (m_depth <= 1 && ns > SlowNs)
            ++m_slow;
        if (m_depth <= 1 && ns > m_worstNs) {
            m_worstNs = ns;
            m_worst = QStringLiteral("%1 (%2) event %3").arg(QString::fromLatin1(className), name).arg(type);
        }
        if (m_depth <= 1 && m_logAboveNs > 0 && ns > m_logAboveNs)
            std::fprintf(stderr, "stall %.1f ms (%.1f ms on the CPU): %s (%s) event %d\n", double(ns) / 1e6,
                         threadCpuMs() - cpuBefore, className, qPrintable(name), type);
        return result;
    }
    void resetWorst()
    {
        m_worstNs = 0;
        m_worst.clear();
        m_slow = 0;
    }
    /// Top-level deliveries over SlowNs since resetWorst().
    int slowCount() const { return m_slow; }
    static constexpr qint64 SlowNs = 20 * 1000000;
    QString worst() const { return QStringLiteral("%1 ms in %2").arg(double(m_worstNs) / 1e6, 0, 'f', 1).arg(m_worst); }
    double worstMs() const { return double(m_worstNs) / 1e6; }

private:
    int m_depth = 0;
    /// TOOLSTUDIO_BENCH_LOG_STALLS=<ms>: every top-level delivery longer than that goes to stderr.
    qint64 m_logAboveNs = qint64(qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_LOG_STALLS")) * 1000000;
    qint64 m_worstNs = 0;
    QString m_worst;
    int m_slow = 0;
};

/// Largest gap between two ticks of a 5 ms timer while `loop` runs: the worst stall.
class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last > 0)
                m_worstNs = std::max(m_worstNs, now - m_last);
            m_last = now;
        });
        m_clock.start();
        m_timer.start();
    }
    double worstMs() const { return double(m_worstNs) / 1e6; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_worstNs = 0;
};

struct StreamResult
{
    double callsPerSecond = 0;
    double worstStallMs = 0;
    int steps = 0;
    QString worstEvent;      ///< the slowest event delivered during the run, and its receiver
    int slowEvents = 0;      ///< deliveries over 20 ms during the run
    double afterStallMs = 0; ///< worst stall in the 0.5 s after finished()
    QString afterEvent;      ///< the slowest event delivered then
};

StreamResult streamHeadless(const QString &dir)
{
    ProjectError error;
    const std::optional<Project> project = loadTrusted(dir, &error);
    RunController controller;
    QEventLoop loop;
    QObject::connect(&controller, &RunController::finished, &loop, [&] { loop.quit(); });
    StallMeter stall;
    controller.start(*project, QString());
    loop.exec();
    const auto &steps = controller.engine()->steps();
    StreamResult r;
    r.steps = int(steps.size());
    const qint64 span = steps.empty() ? 1 : std::max<qint64>(1, steps.back().endedAt - steps.front().queuedAt);
    r.callsPerSecond = double(r.steps) * 1000.0 / double(span);
    r.worstStallMs = stall.worstMs();
    return r;
}

StreamResult streamInWindow(const QString &dir)
{
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.resize(1400, 900);
    window.show();
    openTrusted(window, dir);
    // The window's first expose and paint (20-50 ms) before the run, not during it.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 300)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    QEventLoop loop;
    QObject::connect(window.runController(), &RunController::finished, &loop, [&] { loop.quit(); });
    StallMeter stall;
    static_cast<TimingApplication *>(qApp)->resetWorst();
    window.runCommands()->run();
    loop.exec();
    const auto &steps = window.runController()->engine()->steps();
    StreamResult r;
    r.steps = int(steps.size());
    const qint64 span = steps.empty() ? 1 : std::max<qint64>(1, steps.back().endedAt - steps.front().queuedAt);
    r.callsPerSecond = double(r.steps) * 1000.0 / double(span);
    r.worstStallMs = stall.worstMs();
    r.worstEvent = static_cast<TimingApplication *>(qApp)->worst();
    r.slowEvents = static_cast<TimingApplication *>(qApp)->slowCount();
    // What follows a run on the GUI thread (the next run's pre-warmed launcher, the
    // runs list): the 0.5 s after finished().
    static_cast<TimingApplication *>(qApp)->resetWorst();
    StallMeter after;
    QTimer::singleShot(500, &loop, &QEventLoop::quit);
    loop.exec();
    r.afterStallMs = after.worstMs();
    r.afterEvent = static_cast<TimingApplication *>(qApp)->worst();
    return r;
}

long peakRssKiB()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

long currentRssKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    TimingApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    qputenv("TOOLSTUDIO_SANDBOX", TOOLSTUDIO_SANDBOX_PATH);
    // toolstudio-uibench busy: only the slowest GUI event with a busy run thread (issue 18).
    if (argc > 1 && qstrcmp(argv[1], "busy") == 0)
        return busyRunBenchmark(
            {[&app] { app.resetWorst(); }, [&app] { return app.worstMs(); }, [&app] { return app.worst(); }});
    // TOOLSTUDIO_BENCH_CALLS=0 skips the streaming runs;
    const int calls = qEnvironmentVariableIsSet("TOOLSTUDIO_BENCH_CALLS")
        ? qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_CALLS")
        : 100000;
    // TOOLSTUDIO_BENCH_BIG=0 skips the 1 000 000-step journal.
    const bool big = !qEnvironmentVariableIsSet("TOOLSTUDIO_BENCH_BIG")
        || qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_BIG") != 0;
    std::vector<Row> rows;

    if (big) {
        // One run of 1 000 000 steps (10 tools, every 1000th failed), filled with
        // recursive-CTE inserts. Measured first, so the peak RSS is the trace's.
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/journal.sqlite");
        fillJournal(
            path,
            {QStringLiteral(
                 "INSERT INTO runs (id, project_dir, script_path, status, started_at, ended_at, exit_code)"
                 " VALUES ('run-big', '/p', '/p/scripts/main.py', 'completed', 1700000000000, 1700001000000, 0)"),
             QStringLiteral(
                 "WITH RECURSIVE s(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM s LIMIT 1000000)"
                 " INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts, result,"
                 " error, queued_at, started_at, ended_at, args_hash)"
                 " SELECT 'run-big', x + 1, 'c' || (x + 1), 'tool_' || (x % 10), '{\"n\":' || x || '}',"
                 " 'run-big:' || (x + 1), CASE WHEN x % 1000 = 999 THEN 'failed' ELSE 'succeeded' END, 3,"
                 " CASE WHEN x % 1000 = 999 THEN NULL ELSE '{\"ok\":true,\"n\":' || x || '}' END,"
                 " CASE WHEN x % 1000 = 999 THEN '{\"code\":\"tool_failed\",\"message\":\"upstream busy\"}' END,"
                 " 1700000000000 + x, 1700000000000 + x, 1700000000001 + x, 'h' FROM s"),
             QStringLiteral(
                 "INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded, error)"
                 " SELECT run_id, sequence, 1, started_at, ended_at, status = 'succeeded', error FROM steps")});
        const long rssBefore = currentRssKiB();

        TraceModel model;
        TraceFilterModel filter;
        filter.setTraceModel(&model);
        QTreeView view;
        view.setUniformRowHeights(true);
        view.setModel(&filter);
        TimelineWidget timeline;
        timeline.setTraceModel(&model);
        view.resize(1000, 700);
        timeline.resize(1000, 120);
        view.show();
        timeline.show();
        QCoreApplication::processEvents();

        // First open, on a fresh connection and a cold SQLite cache (the journal's schema
        // carries the trace's indexes, so nothing is built here); reported beside.
        QElapsedTimer clock;
        clock.start();
        model.openRun(path, QStringLiteral("run-big"));
        const qint64 firstOpenNs = clock.nsecsElapsed();
        QEventLoop wait;
        QObject::connect(&timeline, &TimelineWidget::loaded, &wait, &QEventLoop::quit);
        if (timeline.isLoading())
            wait.exec();
        model.clear();
        QCoreApplication::processEvents();

        clock.restart();
        model.openRun(path, QStringLiteral("run-big"));
        view.repaint();
        const qint64 shownNs = clock.nsecsElapsed();
        if (timeline.isLoading())
            wait.exec();
        timeline.repaint();
        const qint64 timelineNs = clock.nsecsElapsed();
        const long rssAfter = currentRssKiB();
        rows.push_back(
            {QStringLiteral("open a 1 000 000-step run and show its trace"),
             QStringLiteral("%1 ms (first open: %2 s)")
                 .arg(double(shownNs) / 1e6, 0, 'f', 0)
                 .arg(double(firstOpenNs) / 1e9, 0, 'f', 2),
             QStringLiteral("TraceModel::openRun (journal-backed, %1-step pages) + filter proxy + tree view painted")
                 .arg(TraceModel::PageSize)});
        rows.push_back({QStringLiteral("  … and its timeline laid out and painted"),
                        QStringLiteral("%1 ms after opening").arg(double(timelineNs) / 1e6, 0, 'f', 0),
                        QStringLiteral("worker thread reads the extents; the trace is usable meanwhile")});
        view.scrollToBottom();
        view.repaint();
        clock.restart();
        filter.setTool(QStringLiteral("tool_3"));
        view.repaint();
        const qint64 filterNs = clock.nsecsElapsed();
        rows.push_back(
            {QStringLiteral("filter the 1 000 000-step trace to one tool"),
             QStringLiteral("%1 ms (%2 rows left)").arg(double(filterNs) / 1e6, 0, 'f', 0).arg(filter.rowCount()),
             QStringLiteral("TraceFilterModel::setTool (indexed query, one layout change) + repaint")});
        clock.restart();
        filter.setStatusFilter(TraceFilterModel::StatusFilter::FailedOnly);
        view.repaint();
        const qint64 failedNs = clock.nsecsElapsed();
        rows.push_back(
            {QStringLiteral("  … then failed only"),
             QStringLiteral("%1 ms (%2 rows left)").arg(double(failedNs) / 1e6, 0, 'f', 0).arg(filter.rowCount()),
             QStringLiteral("setStatusFilter(FailedOnly) + repaint")});
        filter.setStatusFilter(TraceFilterModel::StatusFilter::All);
        filter.setTool(QString());
        clock.restart();
        filter.setText(QStringLiteral("c77777"));
        view.repaint();
        const qint64 textNs = clock.nsecsElapsed();
        rows.push_back(
            {QStringLiteral("text filter on the 1 000 000-step trace"),
             QStringLiteral("%1 ms (%2 rows left)").arg(double(textNs) / 1e6, 0, 'f', 0).arg(filter.rowCount()),
             QStringLiteral("setText (SQL LIKE over tool, call id, result, error: a scan) + repaint")});
        filter.setText(QString());
        view.repaint();
        QModelIndex at = filter.index(500000, 0);
        clock.restart();
        int jumps = 0;
        for (; jumps < 100; ++jumps)
            at = filter.nextStep(at, StepStatus::Failed);
        const qint64 jumpNs = clock.nsecsElapsed();
        rows.push_back(
            {QStringLiteral("jump to the next failed step (1 000 000 steps)"),
             QStringLiteral("%1 µs per jump (at #%2 after %3 jumps)")
                 .arg(double(jumpNs) / 1e3 / jumps, 0, 'f', 1)
                 .arg(at.data(TraceModel::SequenceRole).toInt())
                 .arg(jumps),
             QStringLiteral(
                 "TraceFilterModel::nextStep: binary search in the failed list (one indexed query, cached)")});
        rows.push_back(
            {QStringLiteral("memory with the 1 000 000-step trace"),
             QStringLiteral("%1 MiB resident (+%2 MiB for the trace; peak VmHWM %3 MiB)")
                 .arg(rssAfter / 1024)
                 .arg((rssAfter - rssBefore) / 1024)
                 .arg(peakRssKiB() / 1024),
             QStringLiteral("VmRSS after trace and timeline are shown; VmHWM includes writing the journal")});
        clock.restart();
        timeline.fit();
        timeline.repaint();
        rows.push_back({QStringLiteral("paint the timeline of 1 000 000 steps"),
                        QStringLiteral("%1 ms (%2 bars painted at 1000 px)")
                            .arg(double(clock.nsecsElapsed()) / 1e6, 0, 'f', 1)
                            .arg(timeline.lastPaintedBars()),
                        QStringLiteral("TimelineWidget::paintEvent, bars on the same pixel skipped")});

        // Rerun from Step on the same run, in a window with a project whose journal it
        // is: the dialog reads the run's extent and the step it shows, not the run.
        const QString project = dir.path() + QStringLiteral("/project");
        QByteArray tools;
        for (int i = 0; i < 10; ++i)
            tools += QByteArray(i ? ",\n" : "") + "  {\"name\": \"tool_" + QByteArray::number(i)
                + "\", \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1}]}}";
        writeFile(project + QStringLiteral("/toolstudio.json"),
                  "{\"name\": \"big\", \"default_script\": \"main\",\n"
                  " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
                  " \"tools\": [\n"
                      + tools + "]}\n");
        writeFile(project + QStringLiteral("/scripts/main.py"), "pass\n");
        QDir().mkpath(project + QStringLiteral("/.toolstudio"));
        for (const QString &suffix : {QString(), QStringLiteral("-wal")})
            if (QFile::exists(path + suffix))
                QFile::copy(path + suffix, project + QStringLiteral("/.toolstudio/journal.sqlite") + suffix);
        MainWindow window;
        window.show();
        if (!openTrusted(window, project)) {
            std::fprintf(stderr, "cannot open the 1 000 000-step project\n");
            return 1;
        }
        QCoreApplication::processEvents();
        clock.restart();
        RerunDialog *rerun = window.durableActions()->openRerunDialog(QStringLiteral("run-big"), 1, true);
        if (!rerun) {
            std::fprintf(stderr, "Rerun from Step did not open\n");
            return 1;
        }
        rerun->repaint();
        const qint64 rerunNs = clock.nsecsElapsed();
        clock.restart();
        rerun->stepPicker()->setValue(rerun->stepPicker()->maximum());
        rerun->repaint();
        const qint64 lastStepNs = clock.nsecsElapsed();
        rows.push_back(
            {QStringLiteral("open Rerun from Step on a 1 000 000-step run"),
             QStringLiteral("%1 ms (picker to step %2: %3 ms)")
                 .arg(double(rerunNs) / 1e6, 0, 'f', 1)
                 .arg(rerun->sequence())
                 .arg(double(lastStepNs) / 1e6, 0, 'f', 1),
             QStringLiteral("DurableRunActions::openRerunDialog, shown and painted: JournalReader::sequenceRange "
                            "+ the one step shown; a spin box picker")});
        rerun->reject();

        // The end of a 1 000 000-step run, as the run thread does it: Journal::recordRun
        // (then RunController queues finished()), then Journal::checkpoint, which writes
        // the run's step_tools rows (schema 6) before folding the WAL in.
        Journal journal;
        if (!journal.open(path)) {
            std::fprintf(stderr, "cannot open the 1 000 000-step journal: %s\n", qPrintable(journal.lastError()));
            return 1;
        }
        RunRecord record;
        record.id = QStringLiteral("run-big");
        record.projectDir = QStringLiteral("/p");
        record.scriptPath = QStringLiteral("/p/scripts/main.py");
        record.startedAt = 1700000000000;
        record.status = RunStatus::Running;
        clock.restart();
        journal.recordRun(record); // live again (a resume): its rows go
        const qint64 liveNs = clock.nsecsElapsed();
        record.status = RunStatus::Completed;
        record.endedAt = 1700001000000;
        clock.restart();
        journal.recordRun(record);
        const qint64 endNs = clock.nsecsElapsed();
        clock.restart();
        journal.checkpoint();
        rows.push_back({QStringLiteral("record the end of a 1 000 000-step run"),
                        QStringLiteral("%1 ms before finished(); %2 ms after (going live again: %3 ms)")
                            .arg(double(endNs) / 1e6, 0, 'f', 1)
                            .arg(double(clock.nsecsElapsed()) / 1e6, 0, 'f', 0)
                            .arg(double(liveNs) / 1e6, 0, 'f', 0),
                        QStringLiteral("Journal::recordRun(completed); then checkpoint(): the step_tools rows; "
                                       "recordRun(running): deleting them")});
    }

    // TOOLSTUDIO_BENCH_LAYOUT=1: what one paced insert costs at 100 000 live rows (the
    // model and proxy, then QTreeView's full layout of every top-level row, then paint).
    if (qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_LAYOUT") != 0) {
        // A live trace of 100 000 steps in the window's views; then 20 batches of 400.
        TraceModel model;
        TraceFilterModel filter;
        filter.setTraceModel(&model);
        QTreeView view;
        view.setUniformRowHeights(true);
        // TOOLSTUDIO_BENCH_LAYOUT=2: the view on the TraceModel itself, without the proxy.
        if (qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_LAYOUT") == 2)
            view.setModel(&model);
        else
            view.setModel(&filter);
        TimelineWidget timeline;
        timeline.setTraceModel(&model);
        view.resize(1000, 700);
        timeline.resize(1000, 120);
        view.show();
        timeline.show();
        const auto batch = [](int first, int count) {
            QList<Step> steps;
            for (int k = first; k < first + count; ++k) {
                Step step;
                step.runId = QStringLiteral("r");
                step.callId = QStringLiteral("c%1").arg(k);
                step.sequence = k;
                step.tool = QStringLiteral("echo");
                step.status = StepStatus::Succeeded;
                step.result = nlohmann::json{{"ok", true}};
                step.queuedAt = 1700000000000 + k;
                step.startedAt = step.queuedAt;
                step.endedAt = step.queuedAt + 1;
                Attempt attempt;
                attempt.number = 1;
                attempt.startedAt = step.startedAt;
                attempt.endedAt = step.endedAt;
                attempt.succeeded = true;
                step.attempts.push_back(attempt);
                steps.append(step);
            }
            return steps;
        };
        if (qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_GROW") != 0) {
            qint64 worst = 0;
            int worstAt = 0;
            for (int k = 1; k < 100000; k += 400) {
                model.applySteps(batch(k, 400));
                QElapsedTimer c;
                c.start();
                model.flush();
                if (c.nsecsElapsed() > worst) {
                    worst = c.nsecsElapsed();
                    worstAt = k;
                }
                QCoreApplication::processEvents();
            }
            rows.push_back(
                {QStringLiteral("grow a live trace to 100 000 steps, 400 per insert"),
                 QStringLiteral("worst TraceModel::flush %1 ms (before the insert at step %2)")
                     .arg(double(worst) / 1e6, 0, 'f', 1)
                     .arg(worstAt),
                 QStringLiteral(
                     "TOOLSTUDIO_BENCH_GROW=1: the model's indexes and row store growing (no rehash, no move)")});
        } else {
            model.applySteps(batch(1, 100000));
            model.flush();
        }
        view.scrollToBottom();
        QCoreApplication::processEvents();
        qint64 flushNs = 0, layoutNs = 0, paintNs = 0, timelineNs = 0;
        int next = 100001;
        for (int round = 0; round < 20; ++round, next += 400) {
            model.applySteps(batch(next, 400));
            QElapsedTimer clock;
            clock.start();
            model.flush();
            flushNs += clock.nsecsElapsed();
            clock.restart();
            view.scrollToBottom();
            layoutNs += clock.nsecsElapsed();
            clock.restart();
            view.repaint();
            paintNs += clock.nsecsElapsed();
            clock.restart();
            timeline.repaint();
            timelineNs += clock.nsecsElapsed();
        }
        rows.push_back(
            {QStringLiteral("insert 400 steps into a 100 000-step live trace"),
             QStringLiteral("%1 ms insert, %2 ms layout, %3 ms trace paint, %4 ms timeline paint")
                 .arg(double(flushNs) / 20e6, 0, 'f', 1)
                 .arg(double(layoutNs) / 20e6, 0, 'f', 1)
                 .arg(double(paintNs) / 20e6, 0, 'f', 1)
                 .arg(double(timelineNs) / 20e6, 0, 'f', 1),
             QStringLiteral("mean of 20: TraceModel::flush, QTreeView::scrollToBottom (posted layout), repaint")});
    }

    if (calls > 0) {
        QTemporaryDir headlessDir;
        QTemporaryDir windowDir;
        const StreamResult headless = streamHeadless(makeStreamingProject(headlessDir, calls));
        const StreamResult windowed = streamInWindow(makeStreamingProject(windowDir, calls));
        rows.push_back({QStringLiteral("%1 streaming mock calls: window vs headless").arg(calls),
                        QStringLiteral("%1 vs %2 calls/s, ratio %3")
                            .arg(windowed.callsPerSecond, 0, 'f', 0)
                            .arg(headless.callsPerSecond, 0, 'f', 0)
                            .arg(windowed.callsPerSecond / std::max(1.0, headless.callsPerSecond), 0, 'f', 2),
                        QStringLiteral("first step queued → last step ended; python3 script, journal on in both; "
                                       "window: MainWindow shown (offscreen) with trace, timeline, inspector")});
        rows.push_back({QStringLiteral("worst event-loop stall during the windowed run"),
                        QStringLiteral("%1 ms (headless %2 ms)")
                            .arg(windowed.worstStallMs, 0, 'f', 1)
                            .arg(headless.worstStallMs, 0, 'f', 1),
                        QStringLiteral("largest gap between ticks of a 5 ms QTimer")});
        rows.push_back({QStringLiteral("  … slowest event delivered in the window"), windowed.worstEvent,
                        QStringLiteral("QApplication::notify timed (top-level deliveries)")});
        rows.push_back({QStringLiteral("  … event deliveries over 20 ms in the window"),
                        QString::number(windowed.slowEvents),
                        QStringLiteral("TOOLSTUDIO_BENCH_LOG_STALLS=20 names them")});
        rows.push_back(
            {QStringLiteral("worst stall in the 0.5 s after the windowed run"),
             QStringLiteral("%1 ms; slowest event %2").arg(windowed.afterStallMs, 0, 'f', 1).arg(windowed.afterEvent),
             QStringLiteral("the next run's pre-warmed launcher, the runs list")});
    }

    std::printf("%-52s | %-44s | %s\n", "benchmark", "figure", "method");
    std::printf("%s\n", QByteArray(52 + 3 + 44 + 3 + 40, '-').constData());
    for (const Row &row : rows)
        std::printf("%-52s | %-44s | %s\n", qPrintable(row.name), qPrintable(row.value), qPrintable(row.method));
    return 0;
}
