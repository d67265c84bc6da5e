// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The window's benchmarks (issue 8): streaming calls with the trace showing vs
// headless, the worst event-loop stall, and a 1 000 000-step run opened, shown and
// filtered. Needs a display (offscreen works). Never part of `test`.
#include "journal.h"
#include "project.h"
#include "runcontroller.h"
#include "stepengine.h"
#include "timelinewidget.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <cstdio>
#include <sys/resource.h>
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
              "for i in range(" + QByteArray::number(calls) + "):\n"
              "    tools.echo(n=i)\n"
              "print('done', flush=True)\n");
    writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
              "{\"name\": \"bench\", \"default_script\": \"main\",\n"
              " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
              " \"limits\": {\"max_calls\": " + QByteArray::number(calls) + ", \"run_timeout_seconds\": 3600},\n"
              " \"tools\": [{\"name\": \"echo\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"n\": "
              "{\"type\": \"integer\"}}, \"required\": [\"n\"]},\n"
              "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": {\"ok\": true}}]}}]}\n");
    return dir.path();
}

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
};

StreamResult streamHeadless(const QString &dir)
{
    ProjectError error;
    const std::optional<Project> project = Project::load(dir, &error);
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
    window.openProject(dir);
    QEventLoop loop;
    QObject::connect(window.runController(), &RunController::finished, &loop, [&] { loop.quit(); });
    StallMeter stall;
    window.run();
    loop.exec();
    const auto &steps = window.runController()->engine()->steps();
    StreamResult r;
    r.steps = int(steps.size());
    const qint64 span = steps.empty() ? 1 : std::max<qint64>(1, steps.back().endedAt - steps.front().queuedAt);
    r.callsPerSecond = double(r.steps) * 1000.0 / double(span);
    r.worstStallMs = stall.worstMs();
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
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    qputenv("TOOLSTUDIO_SANDBOX", TOOLSTUDIO_SANDBOX_PATH);
    const int calls = qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_CALLS") > 0
                          ? qEnvironmentVariableIntValue("TOOLSTUDIO_BENCH_CALLS")
                          : 100000;
    std::vector<Row> rows;

    {
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
                        QStringLiteral("%1 ms (headless %2 ms)").arg(windowed.worstStallMs, 0, 'f', 1).arg(headless.worstStallMs, 0, 'f', 1),
                        QStringLiteral("largest gap between ticks of a 5 ms QTimer")});
    }

    {
        // One run of 1 000 000 steps (10 tools), filled with recursive-CTE inserts.
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/journal.sqlite");
        {
            Journal journal;
            journal.open(path);
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bulk"));
            db.setDatabaseName(path);
            db.open();
            QSqlQuery query(db);
            query.exec(QStringLiteral("PRAGMA synchronous=OFF"));
            db.transaction();
            query.exec(QStringLiteral(
                "INSERT INTO runs (id, project_dir, script_path, status, started_at, ended_at, exit_code)"
                " VALUES ('run-big', '/p', '/p/scripts/main.py', 'completed', 1700000000000, 1700001000000, 0)"));
            query.exec(QStringLiteral(
                "WITH RECURSIVE s(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM s LIMIT 1000000)"
                " INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts, result,"
                " queued_at, started_at, ended_at, args_hash)"
                " SELECT 'run-big', x + 1, 'c' || (x + 1), 'tool_' || (x % 10), '{\"n\":1}',"
                " 'run-big:' || (x + 1), 'succeeded', 3, '\"ok\"', 1700000000000 + x, 1700000000000 + x,"
                " 1700000000001 + x, 'h' FROM s"));
            query.exec(QStringLiteral(
                "INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded)"
                " SELECT run_id, sequence, 1, started_at, ended_at, 1 FROM steps"));
            db.commit();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("bulk"));
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

        QElapsedTimer clock;
        clock.start();
        Journal journal;
        journal.open(path);
        std::vector<Step> steps = journal.steps(QStringLiteral("run-big"));
        const qint64 loadedNs = clock.nsecsElapsed();
        for (Step &step : steps)
            model.addStep(step);
        steps.clear();
        steps.shrink_to_fit();
        model.flush();
        timeline.relayout();
        view.repaint();
        timeline.repaint();
        const qint64 shownNs = clock.nsecsElapsed();
        const long rssAfter = currentRssKiB();
        rows.push_back({QStringLiteral("open a 1 000 000-step run and show its trace"),
                        QStringLiteral("%1 s (journal read %2 s)").arg(double(shownNs) / 1e9, 0, 'f', 2).arg(double(loadedNs) / 1e9, 0, 'f', 2),
                        QStringLiteral("Journal::open + steps() + TraceModel + filter proxy + tree view + timeline laid out and painted")});
        rows.push_back({QStringLiteral("memory with the 1 000 000-step trace"),
                        QStringLiteral("%1 MiB resident (+%2 MiB for the trace; peak %3 MiB)")
                            .arg(rssAfter / 1024).arg((rssAfter - rssBefore) / 1024).arg(peakRssKiB() / 1024),
                        QStringLiteral("VmRSS after the trace is shown; peak includes the journal read")});
        clock.restart();
        filter.setTool(QStringLiteral("tool_3"));
        view.repaint();
        const qint64 filterNs = clock.nsecsElapsed();
        rows.push_back({QStringLiteral("filter the 1 000 000-step trace to one tool"),
                        QStringLiteral("%1 ms (%2 rows left)").arg(double(filterNs) / 1e6, 0, 'f', 0).arg(filter.rowCount()),
                        QStringLiteral("TraceFilterModel::setTool + repaint")});
        clock.restart();
        timeline.fit();
        timeline.repaint();
        rows.push_back({QStringLiteral("paint the timeline of 1 000 000 steps"),
                        QStringLiteral("%1 ms (%2 bars painted at 1000 px)").arg(double(clock.nsecsElapsed()) / 1e6, 0, 'f', 1).arg(timeline.lastPaintedBars()),
                        QStringLiteral("TimelineWidget::paintEvent, bars on the same pixel skipped")});
    }

    std::printf("%-52s | %-44s | %s\n", "benchmark", "figure", "method");
    std::printf("%s\n", QByteArray(52 + 3 + 44 + 3 + 40, '-').constData());
    for (const Row &row : rows)
        std::printf("%-52s | %-44s | %s\n", qPrintable(row.name), qPrintable(row.value), qPrintable(row.method));
    return 0;
}
