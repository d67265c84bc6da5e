// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The busy-run scenario of issue 18 ("the GUI thread never waits"), shared by
// tests/gui/tst_busyrun.cpp and `toolstudio-uibench busy`: a run whose thread is kept
// busy by slow argument validation while the window answers, decides and scrolls.
#pragma once

#include "consoleview.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"
#include "ui/answerpane.h"
#include "ui/mainwindow.h"
#include "ui/pendingcallspanel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <algorithm>

namespace BusyRun {

/// Fast steps the script makes first (a trace of thousands of rows in the journal).
constexpr int FastSteps = 3000;

/// A project in `dir` with three tools and one script:
/// - `echo` (mock): FastSteps calls first;
/// - `busy` (mock): its input_schema's pattern backtracks (about 2^24 paths fail
///   before the second alternative matches each string), so validating one call's
///   8000 strings takes the engine's whole validation budget (2 s) on the run thread,
///   and the call is refused; the script calls it again and again, one at a time,
///   printing "busy N" 0.2 s before each call (the line reaches the window before the
///   run thread is busy with the call), until…
/// - `ask` (manual) is answered.
/// Between the two phases the script waits on `gate` (manual), so that a test can set
/// step mode (which holds every call, the FastSteps too) before `ask` is sent.
/// False when a file cannot be written.
inline bool writeProject(const QString &dir)
{
    const auto write = [&](const QString &path, const QByteArray &text) {
        QDir().mkpath(QFileInfo(dir + QLatin1Char('/') + path).absolutePath());
        QFile file(dir + QLatin1Char('/') + path);
        return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
    };
    const QByteArray manifest = R"({
  "name": "busy-run", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "limits": {"max_calls": 100000, "run_timeout_seconds": 600},
  "tools": [
    {"name": "echo", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}},
     "handler": {"kind": "mock", "sequence": [{"result": {"ok": true}}]}},
    {"name": "busy", "input_schema": {"type": "object", "properties": {"s": {"type": "array",
       "items": {"type": "string", "pattern": "^(?:(a|aa)+x|a+)$"}}}},
     "handler": {"kind": "mock", "sequence": [{"result": "checked"}]}},
    {"name": "gate", "input_schema": {"type": "object"}, "handler": {"kind": "manual"}},
    {"name": "ask", "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}},
     "handler": {"kind": "manual"}}
  ]
})";
    const QByteArray script = "import asyncio\n"
                              "from toolstudio import tools, ToolError\n"
                              "for i in range("
        + QByteArray::number(FastSteps)
        + "):\n"
          "    tools.echo(n=i)\n"
          "print('filled', flush=True)\n"
          "tools.gate()\n"
          "strings = ['a' * 24] * 8000\n"
          "done = False\n"
          "async def hammer():\n"
          "    n = 0\n"
          "    while not done:\n"
          "        n += 1\n"
          "        print(f'busy {n}', flush=True)\n"
          "        await asyncio.sleep(0.2)\n"
          "        try:\n"
          "            await tools.busy(s=strings)\n"
          "        except ToolError:\n"
          "            pass\n"
          "async def main():\n"
          "    global done\n"
          "    busy = asyncio.ensure_future(hammer())\n"
          "    answer = await tools.ask(q='go on?')\n"
          "    done = True\n"
          "    await busy\n"
          "    print('answered', answer, flush=True)\n"
          "asyncio.run(main())\n";
    return write(QStringLiteral("toolstudio.json"), manifest) && write(QStringLiteral("scripts/main.py"), script);
}

/// The GUI event loop's responsiveness: a 10 ms timer on the GUI thread and the
/// largest gap between two of its ticks (a stall of the loop shows as a gap; the
/// slowest event is about the gap less 10 ms).
class EventLoopWatch : public QObject
{
public:
    EventLoopWatch()
    {
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    }
    void start()
    {
        m_worstMs = 0;
        m_ticks = 0;
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    void stop()
    {
        tick();
        m_timer.stop();
    }
    /// Largest gap between ticks since start(), ms.
    double worstGapMs() const { return m_worstMs; }
    int ticks() const { return m_ticks; }

private:
    void tick()
    {
        const qint64 now = m_clock.nsecsElapsed();
        m_worstMs = std::max(m_worstMs, double(now - m_last) / 1e6);
        m_last = now;
        ++m_ticks;
    }
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    double m_worstMs = 0;
    int m_ticks = 0;
};

/// The number N of the script's last "busy N" line (0 before the first).
inline int busyCalls(MainWindow &window)
{
    const QString text = window.console()->toPlainText();
    int last = 0;
    for (const QRegularExpressionMatch &m : QRegularExpression(QStringLiteral("busy (\\d+)")).globalMatch(text))
        last = m.captured(1).toInt();
    return last;
}

/// Waits for the next "busy N" line, then for the call it announces (sent 0.2 s after
/// the line): the run thread then validates it for the next ~1.8 s.
inline bool waitForAFreshBusyCall(MainWindow &window, int timeoutMs)
{
    const int before = busyCalls(window);
    if (!QTest::qWaitFor([&] { return busyCalls(window) > before; }, timeoutMs))
        return false;
    QTest::qWait(400);
    return true;
}

/// True while a call of `tool` waits for a person in the Pending Calls dock.
inline bool hasPending(MainWindow &window, const QString &tool)
{
    const QList<Step> &calls = window.pendingPanel()->pendingCalls();
    return std::any_of(calls.begin(), calls.end(), [&](const Step &s) { return s.tool == tool; });
}

/// Answers the open call of `tool` with the raw JSON `json` through the answer pane.
inline bool answer(MainWindow &window, const QString &tool, const QString &json)
{
    PendingCallsPanel *panel = window.pendingPanel();
    for (const Step &step : panel->pendingCalls()) {
        if (step.tool != tool)
            continue;
        if (!panel->selectCall(step.callId))
            return false;
        AnswerPane *pane = panel->answerPane();
        pane->resultEdit()->setPlainText(json);
        pane->sendResultButton()->click();
        return pane->problem().isEmpty();
    }
    return false;
}

/// A trace view over a run in the journal, as the Trace dock shows one (model, filter,
/// tree view): the run the window is running, read while its thread is busy.
class JournalTrace
{
public:
    JournalTrace()
    {
        filter.setTraceModel(&model);
        view.setUniformRowHeights(true);
        view.setModel(&filter);
        view.resize(900, 600);
    }
    /// Opens `runId` of the project in `dir` and shows the view.
    bool open(const QString &dir, const QString &runId)
    {
        if (!model.openRun(dir + QStringLiteral("/.toolstudio/journal.sqlite"), runId))
            return false;
        view.show();
        return QTest::qWaitForWindowExposed(&view);
    }
    /// Scrolls from the top to the bottom in 40 steps, 40 ms apart, each step an event
    /// of its own (as a wheel turn is), the event loop running in between.
    void scrollThrough()
    {
        QScrollBar *bar = view.verticalScrollBar();
        for (int k = 0; k <= 40; ++k) {
            QTimer::singleShot(0, bar, [bar, k] { bar->setValue(bar->maximum() * k / 40); });
            QTest::qWait(40);
        }
    }
    TraceModel model;
    TraceFilterModel filter;
    QTreeView view;
};

} // namespace BusyRun
