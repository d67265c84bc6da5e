// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "budgetmeters.h"

#include "engine/stepengine.h"
#include "project/durationtext.h"
#include "project/project.h"
#include "run/attemptclocks.h"
#include "run/runcontroller.h"
#include "tracemodel.h"
#include "tracerowformat.h"

#include <QDateTime>
#include <QDir>
#include <QLocale>
#include <QTimer>

BudgetMeters::BudgetMeters(RunController *run, std::function<const Project *()> project, QWidget *parent)
    : QLabel(parent)
    , m_run(run)
    , m_project(std::move(project))
    , m_clocks(std::make_unique<AttemptClocks>())
{
    setObjectName(QStringLiteral("budgetMeters"));
    setTextFormat(Qt::RichText);
    // The per-call clocks make the line long: wrap rather than widen the dock.
    setWordWrap(true);
    m_timer = new QTimer(this);
    m_timer->setInterval(250);
    connect(m_timer, &QTimer::timeout, this, &BudgetMeters::refresh);
}

BudgetMeters::~BudgetMeters() = default;

void BudgetMeters::runStarted()
{
    m_recorded = false;
    m_clocks->clear();
    m_timer->start();
    refresh();
}

void BudgetMeters::runEnded()
{
    m_timer->stop();
    m_clocks->clear();
    refresh();
}

void BudgetMeters::stepChanged(const Step &step)
{
    m_clocks->update(step);
}

void BudgetMeters::showRecorded(const RunRecord &run, int steps, bool imported)
{
    m_timer->stop();
    m_recorded = true;
    const QString id = run.id.toHtmlEscaped();
    QString text = imported
        ? tr("Imported run %1: %n step(s), %2", nullptr, steps).arg(id, TraceRowFormat::runStatusText(run.status))
        : tr("Run %1 from the journal: %n step(s), %2", nullptr, steps)
              .arg(id, TraceRowFormat::runStatusText(run.status));
    if (run.startedAt > 0 && run.endedAt > run.startedAt)
        text
            += QStringLiteral(", ") + tr("%1 from start to end").arg(unbrokenDurationText(run.endedAt - run.startedAt));
    setText(text + QStringLiteral(" · ") + tr("the meters count the live run"));
}

void BudgetMeters::showLive()
{
    m_recorded = false;
    refresh();
}

void BudgetMeters::refresh()
{
    if (m_recorded)
        return;
    const Project *project = m_project();
    if (!project) {
        clear();
        return;
    }
    const ProjectLimits &limits = project->limits;
    // "31 bytes", "2.0 KiB", "1.0 MiB" (IEC units, the user's locale); number and unit
    // joined by a no-break space, so the wrapped line never breaks "1.0 / MiB" apart.
    const auto keep = [](QString text) { return text.replace(QLatin1Char(' '), QChar(0x00A0)); };
    const auto size = [keep](qint64 bytes) { return keep(QLocale().formattedDataSize(bytes, 1)); };
    const auto meter = [](const QString &text, double fraction) {
        const char *colour = fraction >= 1.0 ? "#c62828" : fraction >= 0.8 ? "#b26a00" : nullptr;
        return colour ? QStringLiteral("<span style=\"color:%1\">%2</span>").arg(QLatin1String(colour), text) : text;
    };
    // The controller's last run counts only in the project it ran in: after switching
    // projects the meters start from zero (issue 20), not from the other project's run.
    const RunRecord &record = m_run->record();
    const bool ours = !record.id.isEmpty() && QDir(record.projectDir) == QDir(project->dir);
    const StepEngine *engine = ours ? m_run->engine() : nullptr;
    const int calls = engine ? engine->callCount() : 0;
    const qint64 largestRequest = engine ? engine->largestRequestBytes() : 0;
    const qint64 largestReply = engine ? engine->largestReplyBytes() : 0;
    const qint64 waited = ours ? m_run->waitClockMs() : 0;
    qint64 elapsed = ours ? m_run->runClockMs() : 0;
    if (ours && !m_run->isActive() && record.endedAt > record.startedAt && record.startedAt > 0)
        elapsed = std::max(elapsed, record.endedAt - record.startedAt - waited);
    QStringList parts;
    parts << meter(tr("calls %1/%2").arg(calls).arg(limits.maxCalls), double(calls) / std::max(1, limits.maxCalls));
    // Model steps (docs/models.md): their own call budget, and the tokens of their
    // replies against limits.max_tokens (no bound when 0).
    const int modelCalls = engine ? engine->modelCallCount() : 0;
    if (!project->models.empty() || modelCalls > 0) {
        parts << meter(tr("model calls %1/%2").arg(modelCalls).arg(limits.maxModelCalls),
                       double(modelCalls) / std::max(1, limits.maxModelCalls));
        const qint64 tokens = engine ? engine->tokensUsed() : 0;
        parts << (limits.maxTokens > 0
                      ? meter(tr("tokens %1/%2").arg(QLocale().toString(tokens), QLocale().toString(limits.maxTokens)),
                              double(tokens) / double(limits.maxTokens))
                      : tr("tokens %1").arg(QLocale().toString(tokens)));
    }
    parts << meter(tr("largest request %1 of %2").arg(size(largestRequest), size(qint64(limits.requestBytes))),
                   double(largestRequest) / double(std::max<std::size_t>(1, limits.requestBytes)));
    parts << meter(tr("largest reply %1 of %2").arg(size(largestReply), size(qint64(limits.replyBytes))),
                   double(largestReply) / double(std::max<std::size_t>(1, limits.replyBytes)));
    QString clock
        = tr("elapsed %1 of %2").arg(unbrokenDurationText(elapsed), unbrokenDurationText(limits.runTimeoutMs));
    if (waited > 0)
        clock += QLatin1Char(' ') + tr("(+%1 waiting, not counted)").arg(unbrokenDurationText(waited));
    parts << meter(clock, double(elapsed) / std::max(1, limits.runTimeoutMs));
    const auto toolOf = [project](const QString &name) { return project->tool(name); };
    for (const AttemptClocks::Clock &c : m_clocks->clocks(QDateTime::currentMSecsSinceEpoch(), toolOf))
        parts << meter(c.text, c.fraction);
    setText(parts.join(QStringLiteral(" · ")));
}
