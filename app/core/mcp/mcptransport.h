// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"
#include "mcp/mcpparamheaders.h"

#include <QObject>

/// How McpClientSession reaches its server (spec "Transports"): a child process on
/// stdio (McpStdioTransport), an HTTP endpoint (McpHttpTransport, Streamable HTTP), the
/// older HTTP+SSE transport of 2024-11-05 (McpSseTransport), or a URL that may be either
/// (McpHttpFallbackTransport).
/// The session sees only this: messages out, messages in, refusals, the end.
///
/// A slot of messageReceived may delete the transport (or its session): a transport
/// touches nothing of itself after emitting when that happened.
class McpTransport : public QObject
{
    Q_OBJECT
public:
    /// Bytes one message may have; a larger one is skipped without being kept whole.
    static constexpr std::size_t MaxMessageBytes = 64u << 20;
    /// Bytes Qt may read of an HTTP reply ahead of the studio (QNetworkReply::setReadBufferSize).
    static constexpr qint64 ReadBufferBytes = 1 << 20;

    using QObject::QObject;

    /// Begins (starts the process; an HTTP transport has nothing to connect yet):
    /// started() or finished() follows.
    virtual void start() = 0;
    /// Sends one message; false (nothing sent) when the transport has ended or is stopping.
    virtual bool send(const JsonRpcMessage &message) = 0;
    /// Ends it (see each transport); finished() follows unless it was not running.
    virtual void stop() = 0;
    virtual bool isRunning() const = 0;
    /// The transport in use, for a person: "stdio", "Streamable HTTP", "HTTP+SSE".
    virtual QString transportName() const = 0;
    /// The end of what the server logged (a process's stderr), for failures; "" if none.
    virtual QString stderrTail() const { return {}; }
    /// The session waits no longer for the response to `requestId` (it timed out or was
    /// cancelled): what the transport holds open for it is let go (an HTTP transport
    /// closes the request's event stream). True when that let the server know (a closed
    /// stream is a cancellation, streamable-http "Cancellation"); nothing by default.
    virtual bool forget(const nlohmann::json &requestId)
    {
        Q_UNUSED(requestId)
        return false;
    }
    /// Whether each answer to a server's request is a request of its own (an HTTP POST):
    /// then the session answers refusals at the pace of McpAnswerBudget too (attack42
    /// F3). Over stdio an answer is a line on a pipe, and every request is answered.
    virtual bool answersArePosts() const { return false; }
    /// Whether a `tools/call` sent through it carries the tool's `x-mcp-header`
    /// parameters as `Mcp-Param-*` headers (Streamable HTTP in the 2026 era; the spec lets
    /// other transports ignore them).
    virtual bool mirrorsToolParameters() const { return false; }
    /// The `x-mcp-header` parameters of the server's tools, as its tools/list gave them.
    virtual void setToolParameters(McpParamHeaders::ToolParameters parameters) { Q_UNUSED(parameters) }
    /// Why the last send() returned false, for a person ("the server has ended", …).
    QString sendRefusal() const { return m_sendRefusal; }

Q_SIGNALS:
    void started();
    void messageReceived(const JsonRpcMessage &message);
    /// Something the server sent that is not a JSON-RPC message (or over
    /// MaxMessageBytes, or a reply that never came whole): `reason` says what; `id` is
    /// the id of the request it answers when one is known (McpReplyId::scan, or the
    /// request whose HTTP reply it was), else null: that request fails with `reason`.
    void messageRefused(const QString &reason, const nlohmann::json &id);
    /// The transport is gone: `why` says how, for a person ("exited with code N", …).
    void finished(const QString &why);
    /// Bytes the server logged (a process's stderr), as they come.
    void stderrReceived(const QByteArray &bytes);

protected:
    QString m_sendRefusal;
};
