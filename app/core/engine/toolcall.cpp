// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/toolcall.h"

#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "journal/journal.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTimer>

QString DirectToolCall::newRunId()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss")) + QLatin1Char('-')
        + QString::number(QRandomGenerator::global()->bounded(0x10000), 16).rightJustified(4, QLatin1Char('0'));
}

QString DirectToolCall::scriptPath()
{
    return QStringLiteral("(Try it)");
}

DirectToolCall::DirectToolCall(QObject *parent)
    : QObject(parent)
{}

DirectToolCall::~DirectToolCall()
{
    if (m_active && m_engine)
        m_engine->cancelAll(tr("the window was closed"));
}

void DirectToolCall::setScriptPath(const QString &label)
{
    m_scriptPath = label;
}

void DirectToolCall::setJournalPath(const QString &path)
{
    m_journalPath = path;
    m_journalPathSet = true;
}

bool DirectToolCall::start(const Project &project, const QString &tool, const nlohmann::json &args, QString *error)
{
    if (m_active) {
        if (error)
            *error = tr("a call is already in progress");
        return false;
    }
    auto journal = std::make_unique<Journal>();
    const QString journalPath = m_journalPathSet ? m_journalPath : project.journalPath();
    if (!journalPath.isEmpty()) {
        QString reason;
        if (!journal->open(journalPath, &reason)) {
            if (error)
                *error = reason;
            return false;
        }
    } else {
        journal.reset();
    }

    delete m_engine;
    m_engine = nullptr;
    m_project = std::make_unique<Project>(project);
    m_journal = std::move(journal);
    m_record = RunRecord{};
    m_record.id = newRunId();
    m_record.projectDir = project.dir;
    m_record.scriptPath = m_scriptPath;
    m_record.status = RunStatus::Running;
    m_record.startedAt = QDateTime::currentMSecsSinceEpoch();
    if (m_journal)
        m_journal->recordRun(m_record);

    m_engine = new StepEngine(*m_project, m_record.id, m_journal.get(), {tool}, this);
    connect(m_engine, &StepEngine::stepAdded, this, &DirectToolCall::stepChanged);
    connect(m_engine, &StepEngine::stepChanged, this, &DirectToolCall::stepChanged);
    connect(m_engine, &StepEngine::pendingCallOpened, this, &DirectToolCall::pendingCallOpened);
    // replyReady comes after the step's final state is committed.
    connect(m_engine, &StepEngine::replyReady, this, [this] { QTimer::singleShot(0, this, &DirectToolCall::finish); });

    m_callId = QStringLiteral("try-1");
    m_active = true;
    BridgeCall call;
    call.id = m_callId.toStdString();
    call.tool = tool.toStdString();
    call.args = args;
    call.argsBytes = args.dump().size();
    m_engine->submitCall(call);
    return true;
}

bool DirectToolCall::answer(int attempt, const ManualAnswer &answer, QString *reason)
{
    if (!m_active || !m_engine) {
        if (reason)
            *reason = tr("no call is in progress");
        return false;
    }
    return m_engine->answer(m_callId, attempt, answer, reason);
}

void DirectToolCall::cancel()
{
    if (!m_active || !m_engine)
        return;
    m_engine->cancelAll(tr("cancelled from the Tool dock"));
    QTimer::singleShot(0, this, &DirectToolCall::finish);
}

bool DirectToolCall::isActive() const
{
    return m_active;
}

const RunRecord &DirectToolCall::record() const
{
    return m_record;
}

std::optional<Step> DirectToolCall::step() const
{
    if (!m_engine)
        return std::nullopt;
    if (const Step *s = m_engine->step(m_callId))
        return *s;
    return std::nullopt;
}

void DirectToolCall::finish()
{
    if (!m_active)
        return;
    m_active = false;
    const std::optional<Step> s = step();
    Step final = s.value_or(Step{});
    m_record.endedAt = QDateTime::currentMSecsSinceEpoch();
    m_record.exitCode = 0;
    if (final.status == StepStatus::Succeeded) {
        m_record.status = RunStatus::Completed;
    } else if (final.status == StepStatus::Cancelled) {
        m_record.status = RunStatus::Cancelled;
    } else {
        m_record.status = RunStatus::Failed;
        m_record.exitCode = 1;
        m_record.error = final.error ? QString::fromStdString(final.error->message) : tr("the call failed");
    }
    if (m_journal)
        m_journal->recordRun(m_record);
    Q_EMIT finished(final, m_record);
}
