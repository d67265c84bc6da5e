// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Requests to the studio's MCP server (the suites of tests/system/): JSON-RPC messages of
// both eras, and one HTTP exchange with /mcp through Python's http.client.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

inline nlohmann::json call(int id, const char *tool, const nlohmann::json &arguments)
{
    return {{"jsonrpc", "2.0"},
            {"id", id},
            {"method", "tools/call"},
            {"params", {{"name", tool}, {"arguments", arguments}}}};
}

/// A request of the 2026 era: `params` with the per-request _meta of a client "c26".
inline nlohmann::json modern(const nlohmann::json &id, const char *method,
                             nlohmann::json params = nlohmann::json::object())
{
    params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientInfo", {{"name", "c26"}, {"version", "1"}}},
                       {"io.modelcontextprotocol/clientCapabilities", nlohmann::json::object()}};
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

/// The routing headers of a 2026-era POST (streamable-http "Request Metadata").
inline QStringList modernHeaders(const char *method, const QString &name = {})
{
    QStringList headers{QStringLiteral("MCP-Protocol-Version: 2026-07-28"),
                        QStringLiteral("Mcp-Method: ") + QLatin1String(method)};
    if (!name.isEmpty())
        headers << QStringLiteral("Mcp-Name: ") + name;
    return headers;
}

/// An HTTP exchange with /mcp through Python's http.client: the status, the
/// Mcp-Session-Id header and the body.
struct McpHttpReply
{
    int status = 0;
    QString session;
    nlohmann::json body;
};

inline McpHttpReply mcpHttp(int port, const char *method, const QByteArray &body, const QString &session = {},
                            const QStringList &headers = {})
{
    QProcess process;
    QStringList arguments{QStringLiteral("-c"), QStringLiteral(R"PY(
import http.client, sys
port, method, session = int(sys.argv[1]), sys.argv[2], sys.argv[3]
headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
if session:
    headers["Mcp-Session-Id"] = session
for h in sys.argv[4:]:
    k, v = h.split(": ", 1)
    headers[k] = v
c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
c.request(method, "/mcp", body=sys.stdin.buffer.read() if method == "POST" else None, headers=headers)
r = c.getresponse()
sys.stdout.write("%d\n%s\n%s" % (r.status, r.getheader("Mcp-Session-Id") or "", r.read().decode()))
)PY"),
                          QString::number(port), QLatin1String(method), session};
    process.start(QStringLiteral("python3"), arguments + headers);
    process.waitForStarted();
    process.write(body);
    process.closeWriteChannel();
    process.waitForFinished(90000);
    const QList<QByteArray> parts = process.readAllStandardOutput().split('\n');
    McpHttpReply reply;
    reply.status = parts.value(0).toInt();
    reply.session = QString::fromUtf8(parts.value(1));
    reply.body = nlohmann::json::parse(parts.mid(2).join('\n').toStdString(), nullptr, false);
    return reply;
}

inline const QByteArray InitializeBody
    = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{},"clientInfo":{"name":"python","version":"1"}}})";
