// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "project/steperror.h"
#include "project/tool.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>

struct ProjectLimits;

/// What a handler gets for one attempt of a step.
struct HandlerRequest
{
    QString runId;
    QString tool;
    QString callId;
    int sequence = 0;
    int attempt = 1;        ///< 1-based attempt number
    QString idempotencyKey; ///< "<runId>:<tool>:<argsHash>:<n>" (CallIdentity), the same for every attempt
    nlohmann::json args = nlohmann::json::object(); ///< validated keyword arguments
    QString projectDir;                             ///< absolute; command handlers run here
    QString workDir;                                ///< absolute; the run's sandbox work dir (empty outside a run)
    std::size_t maxResultBytes = 1024 * 1024;       ///< a command's stdout is refused beyond a multiple of this
};

/// How one attempt ended.
struct HandlerOutcome
{
    bool ok = false;
    nlohmann::json result; ///< when ok
    /// When !ok: code (tool_failed, timeout, reply_too_large), message, retryable.
    /// `attempts` is filled in by the engine.
    StepError error;
    QByteArray output; ///< captured handler output (a command's stderr)
    /// The attempt's protocol messages (an MCP tool's JSON-RPC exchange,
    /// McpExchangeRecorder::toJson); null for handlers that have none.
    nlohmann::json protocol;

    static HandlerOutcome success(nlohmann::json result);
    static HandlerOutcome failure(const QString &message, bool retryable, ErrorCode code = ErrorCode::ToolFailed);
};

/// One attempt of a tool's handler (DESIGN.md "handler kinds"). The engine creates a
/// handler per attempt, calls start() once and waits for finished(). Handlers are
/// asynchronous: finished() is never emitted from inside start(). After cancel()
/// (attempt timeout, total timeout, Stop) a handler emits nothing more; whatever it
/// started (a timer, a process) is stopped by then.
class ToolHandler : public QObject
{
    Q_OBJECT
public:
    explicit ToolHandler(QObject *parent = nullptr);
    ~ToolHandler() override;

    virtual void start(const HandlerRequest &request) = 0;
    virtual void cancel() = 0;
    /// True when the attempt waits for a person (the step's status becomes `waiting`).
    virtual bool waitsForPerson() const { return false; }
    /// After cancel(): what became of the work the attempt started, in words for the
    /// timeout/cancel message (a command: "its process group (pid N) was killed and is
    /// gone"); empty when there was nothing to stop (a mock's timer, a person's wait).
    virtual QString cancelReport() const { return {}; }
    /// After cancel(): the attempt's protocol record so far, as HandlerOutcome::protocol
    /// would have carried it (an MCP call's exchange with the `notifications/cancelled`
    /// sent), so an attempt ended by its timeout or Stop is journaled with it; null for
    /// handlers that keep none.
    virtual nlohmann::json cancelledProtocol() const { return nullptr; }
    /// The person's answer to `question` (the last personAsked()), checked already
    /// (PersonQuestion::check). The attempt goes on; a handler asks its next question
    /// later, never from inside this call. An answer to a question the handler no
    /// longer asks (withdrawn meanwhile, personWithdrawn()) is dropped.
    virtual void answerPerson(const nlohmann::json &question, const ManualAnswer &answer)
    {
        Q_UNUSED(question);
        Q_UNUSED(answer);
    }

    /// Handler kinds whose code lives in a library above the engine (`mcp`: the MCP
    /// client links the engine, not the other way round) register how to make a handler
    /// here; the engine asks factory() when it meets such a tool. `mainThread`: the
    /// handler talks to main-thread objects, so a run thread wraps it in a
    /// MainThreadHandler. Registering twice replaces the first.
    using Factory = std::function<ToolHandler *()>;
    static void registerFactory(HandlerKind kind, Factory make, bool mainThread);
    /// The registered factory of `kind` (empty when none) and whether it needs the main thread.
    static Factory factory(HandlerKind kind, bool *mainThread);

Q_SIGNALS:
    void finished(const HandlerOutcome &outcome);
    /// What the attempt says of its progress so far, one line for the step's live view
    /// (an MCP server's notifications/progress); not journaled. A handler coalesces:
    /// a few a second at most, however often its work reports.
    void progressed(const QString &line);
    /// A model step's reply so far while it streams (ModelClient's preview: text, then a
    /// line per tool call), for the chat's live view; not journaled. At most every
    /// ModelClient::PreviewIntervalMs.
    void streamed(const QString &text);
    /// The running attempt needs a person's answer to `question` (engine/personquestion.h)
    /// to go on: the step waits for a person until answerPerson(). One question at a
    /// time: the next comes after the answer.
    void personAsked(const nlohmann::json &question);
    /// `question` of the last personAsked() is no longer asked (the MCP server cancelled
    /// its request): the step runs on without an answer.
    void personWithdrawn(const nlohmann::json &question);
};
