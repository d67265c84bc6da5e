// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Waiting on an McpClientSession with tests/data/mcp/fakeserver.py (the session and
// subscription suites of tests/system/): starting the fake in a mode, opening, ready, a
// tool call, a listing, its stats.
#pragma once

#include "mcp/mcpclientsession.h"
#include "mcp/mcphttptransport.h"
#include "testfiles.h"

#include <QStandardPaths>
#include <QStringList>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <vector>

inline McpStdioTransport::Launch fakeServer(const QString &mode)
{
    McpStdioTransport::Launch launch;
    launch.program = QStandardPaths::findExecutable(QStringLiteral("python3"));
    launch.arguments = {mcpFixture("fakeserver.py"), mode};
    launch.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    return launch;
}

/// A session over Streamable HTTP with tests/data/mcp/fakehttpserver.py at `url` (its
/// base and a path), opened and waited on until it is ready or failed; `*transport` is
/// its transport.
inline std::unique_ptr<McpClientSession> openHttpFake(const QString &url, McpHttpTransport **transport)
{
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(url);
    *transport = new McpHttpTransport(endpoint);
    auto session = std::make_unique<McpClientSession>(*transport);
    session->open();
    if (!QTest::qWaitFor([&] { return session->state() != McpClientSession::State::Initializing; }, 30000))
        qWarning("the fake server did not answer initialize");
    return session;
}

/// Opens `session` on `launch` and waits for it to leave Initializing.
inline void openAndWait(McpClientSession &session, const McpStdioTransport::Launch &launch)
{
    session.open(launch);
    QTRY_VERIFY_WITH_TIMEOUT(session.state() != McpClientSession::State::Initializing, 60000);
}

inline bool waitReady(McpClientSession &session)
{
    (void)QTest::qWaitFor([&] { return session.state() != McpClientSession::State::Initializing; }, 60000);
    if (session.state() != McpClientSession::State::Ready)
        qWarning("the session is not ready: %s", qPrintable(session.failure()));
    return session.state() == McpClientSession::State::Ready;
}

inline McpReply callAndWait(McpClientSession &session, const QString &tool,
                            const nlohmann::json &arguments = nlohmann::json::object())
{
    std::optional<McpReply> reply;
    session.callTool(tool, arguments, nlohmann::json::object(), [&reply](const McpReply &r) { reply = r; });
    (void)QTest::qWaitFor([&reply] { return reply.has_value(); }, 60000);
    return reply.value_or(McpReply{{}, {}, QStringLiteral("no reply within 60 s")});
}

/// All pages of `session`'s tools/list; `*replyOut` is how the listing ended.
inline std::vector<nlohmann::json> listAndWait(McpClientSession &session, McpReply *replyOut)
{
    std::optional<std::vector<nlohmann::json>> tools;
    session.listTools([&](const std::vector<nlohmann::json> &list, const McpReply &reply) {
        tools = list;
        *replyOut = reply;
    });
    (void)QTest::qWaitFor([&tools] { return tools.has_value(); }, 60000);
    return tools.value_or(std::vector<nlohmann::json>{});
}

/// The fake's `stats` tool: what it was sent, as JSON (null when the call failed).
inline nlohmann::json stats(McpClientSession &session)
{
    const McpReply reply = callAndWait(session, QStringLiteral("stats"));
    if (!reply.ok()) {
        qWarning("stats: %s", qPrintable(reply.errorText()));
        return nullptr;
    }
    return nlohmann::json::parse(reply.result["content"][0].value("text", ""), nullptr, false);
}

inline QStringList toolNames(McpClientSession &session)
{
    std::optional<QStringList> names;
    session.listTools([&names](const std::vector<nlohmann::json> &tools, const McpReply &reply) {
        names = QStringList();
        if (!reply.ok())
            *names << QStringLiteral("failed: ") + reply.errorText();
        for (const nlohmann::json &tool : tools)
            *names << QString::fromStdString(tool.value("name", ""));
    });
    (void)QTest::qWaitFor([&names] { return names.has_value(); }, 60000);
    return names.value_or(QStringList{QStringLiteral("no answer")});
}
