// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runsession.h"

#include "bridgechannel.h"
#include "engine/stepbatcher.h"
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "outputpipes.h"
#include "project/printabletext.h"
#include "project/project.h"

#include <QCoreApplication>
#include <QTimer>

RunSession::RunSession(Setup setup, QObject *parent)
    : QObject(parent)
    , m_runId(setup.runId)
    , m_journal(setup.journal)
    , m_maxLineBytes(setup.maxLineBytes)
    , m_outputCap(setup.outputCapBytes)
    , m_forwardWait(setup.forwardWait)
{
    m_engine = new StepEngine(*setup.project, setup.runId, setup.journal, setup.boundTools, this);
    if (setup.plan)
        m_engine->setReplayPlan(std::move(*setup.plan));
    m_engine->setStepMode(setup.stepMode);
    m_engine->setApprovesToolCalls(setup.approvesToolCalls);
    m_engine->setWorkDir(setup.workDir);
    m_engine->setRecordsRunStatus(setup.journal != nullptr); // running/waiting, with its commits
    m_batcher = new StepBatcher(m_engine, 16, m_engine);
    // One ordered feed: steps and output reach the GUI thread in the order the
    // batcher emits them (queued, same sender thread and receiver).
    connect(m_batcher, &StepBatcher::stepsUpdated, this, &RunSession::stepsUpdated);
    connect(m_batcher, &StepBatcher::outputReady, this, &RunSession::outputReceived);
    m_output = new OutputPipes(setup.outputFds.first, setup.outputFds.second, this);
    connect(m_output, &OutputPipes::output, m_batcher,
            [this](int stream, const QByteArray &chunk) { onOutput(stream, chunk); });
    if (setup.forwardSteps)
        connect(m_engine, &StepEngine::stepAdded, this, &RunSession::stepAdded);
    if (setup.forwardChanges)
        connect(m_engine, &StepEngine::stepChanged, this, &RunSession::stepChanged);
    connectEngine();
    m_bridge = new BridgeChannel(setup.bridgeFd, m_maxLineBytes, this);
    connectBridge();
}

RunSession::~RunSession()
{
    delete m_bridge;
    delete m_output;
    delete m_engine; // its batcher with it; pending journal writes go out first
}

void RunSession::connectEngine()
{
    // The views learn of a step (batch) before they are told it waits or diverged.
    connect(m_engine, &StepEngine::pendingCallOpened, m_batcher, [this](const Step &step) {
        m_batcher->flush();
        Q_EMIT pendingCallOpened(step);
    });
    connect(m_engine, &StepEngine::pendingCallClosed, m_batcher, [this](const QString &callId) {
        checkNobodyWaits();
        Q_EMIT pendingCallClosed(callId);
    });
    // Step mode: a held call waits for a person like a pending call does.
    connect(m_engine, &StepEngine::stepPaused, m_batcher, [this](const Step &step) {
        m_batcher->flush();
        Q_EMIT stepPaused(step);
    });
    connect(m_engine, &StepEngine::stepReleased, m_batcher, [this](const QString &) { checkNobodyWaits(); });
    // Retries, timeouts, step-mode decisions: rows of the live trace, after their step.
    connect(m_engine, &StepEngine::policyEvent, m_batcher, [this](const PolicyEvent &event) {
        m_batcher->flush();
        Q_EMIT stepEvent(event);
    });
    connect(m_engine, &StepEngine::divergenceFound, m_batcher, [this](const Step &step) {
        m_batcher->flush();
        Q_EMIT divergenceFound(step);
    });
}

void RunSession::connectBridge()
{
    // Output the script wrote before a call is in its pipes when the call arrives:
    // read it first, so it is queued before the call's step.
    connect(m_bridge, &BridgeChannel::callReceived, m_engine, [this](const BridgeCall &call) {
        if (m_output) // deleted at the run's end, before the bridge closes
            m_output->drain();
        m_waitQueued = false;
        ++m_callsReceived;
        m_engine->submitCall(call);
    });
    // The script's wait hint (docs/bridge.md "The wait hint"), after the calls it
    // follows (queued in order with pendingCallOpened). Repeated hints with no call
    // between them are one: a script sending them in a loop costs the GUI thread
    // one event per call it makes or reply it gets.
    connect(m_bridge, &BridgeChannel::waitReceived, m_engine, [this] {
        if (m_waitQueued || !m_forwardWait)
            return;
        m_waitQueued = true;
        Q_EMIT scriptWaiting(m_callsReceived);
    });
    connect(m_engine, &StepEngine::replyReady, m_bridge, [this](const std::string &, const std::string &line) {
        m_waitQueued = false;
        if (m_bridge->isOpen())
            m_bridge->send(line);
    });
    // A malformed call that still names its id (bad UTF-8 or a lone surrogate in a
    // string, a bad "args"): only that call fails; the run and its other calls go on.
    connect(m_bridge, &BridgeChannel::callRefused, m_bridge, [this](const std::string &id, const QString &reason) {
        StepError refusal;
        refusal.code = ErrorCode::ProtocolError;
        refusal.message = reason.toStdString();
        if (m_bridge->isOpen())
            m_bridge->send(BridgeProtocol::encodeError(id, refusal.toBridge()));
    });
    // The run ends at the first protocol error: its calls are cancelled here at once
    // (later lines are refused, as before the run thread), then the GUI thread
    // kills the script.
    connect(m_bridge, &BridgeChannel::protocolError, m_engine, [this](const QString &reason) {
        const QString message
            = QCoreApplication::translate("RunController", "protocol error on the tools bridge: %1").arg(reason);
        m_engine->cancelAll(message);
        Q_EMIT protocolError(message);
    });
}

void RunSession::checkNobodyWaits()
{
    QTimer::singleShot(0, m_engine, [this] {
        if (m_engine->pendingCount() == 0 && m_engine->pausedCount() == 0)
            Q_EMIT nobodyWaits();
    });
}

void RunSession::onOutput(int stream, const QByteArray &chunk)
{
    if (m_outputTruncated[stream])
        return;
    QByteArray data = chunk;
    const std::size_t left = m_outputCap - m_outputBytes[stream];
    if (std::size_t(data.size()) >= left) {
        // Never half a character, also when this chunk ends inside one at the cap.
        const ClippedText clipped = clipUtf8Stream(data, qsizetype(left));
        if (std::size_t(data.size()) > left || clipped.dropped > 0) {
            m_outputDropped[stream] = clipped.dropped;
            data = clipped.kept;
            m_outputTruncated[stream] = true;
        }
    }
    m_outputBytes[stream] += std::size_t(data.size());
    if (!data.isEmpty()) {
        if (m_journal)
            m_journal->appendOutput(m_runId, stream, data);
        m_batcher->addOutput(stream, data);
    }
    if (m_outputTruncated[stream]) {
        if (m_output) // the rest is dropped without being read into the studio (issue 16)
            m_output->discard(stream);
        const QByteArray notice = QObject::tr("\n[%1 truncated at %2 bytes; the rest was discarded]\n")
                                      .arg(stream == 1 ? QStringLiteral("stdout") : QStringLiteral("stderr"))
                                      .arg(m_outputBytes[stream])
                                      .toUtf8();
        m_batcher->addOutput(stream, notice);
    }
}

void RunSession::end(const QString &ended, const QByteArray &filesNotice)
{
    // Closing the read ends: a writer that outlived its group writes into EPIPE.
    if (m_output) {
        m_output->drain();
        for (const int stream : {OutputPipes::Stdout, OutputPipes::Stderr}) {
            if (const qint64 dropped = m_outputDropped[stream] + m_output->discardedBytes(stream); dropped > 0)
                m_batcher->addOutput(stream,
                                     QObject::tr("[%1: %2 more bytes past the cap were discarded]\n")
                                         .arg(stream == 1 ? QStringLiteral("stdout") : QStringLiteral("stderr"))
                                         .arg(dropped)
                                         .toUtf8());
        }
    }
    delete m_output;
    m_output = nullptr;
    m_bridge->close();
    m_engine->cancelAll(ended);
    if (!filesNotice.isEmpty())
        onOutput(2, filesNotice);
    m_batcher->flush();
}
