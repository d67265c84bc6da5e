// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcphandshake.h"

#include "mcp/mcpclientsession.h"
#include "mcp/mcprevision.h"
#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QTimer>

using nlohmann::json;

namespace {

/// A member that must be an object: anything else reads as an empty object, so that
/// reading its members never throws.
json objectMember(const json &object, const char *name)
{
    const auto found = object.find(name);
    return found != object.end() && found->is_object() ? *found : json::object();
}

/// Versions a server listed, for a message: at most 8, each printable and short.
QString listedVersions(const json &list)
{
    QStringList shown;
    if (list.is_array())
        for (const json &version : list) {
            if (shown.size() == 8) {
                shown << QStringLiteral("…");
                break;
            }
            shown << (version.is_string()
                          ? elidedText(printableText(QString::fromStdString(version.get<std::string>())), 40)
                          : QStringLiteral("(not a string)"));
        }
    return shown.isEmpty() ? QStringLiteral("none") : shown.join(QStringLiteral(", "));
}

bool listsVersion(const json &list, const std::function<bool(const QString &)> &wanted)
{
    if (list.is_array())
        for (const json &version : list)
            if (version.is_string() && wanted(QString::fromStdString(version.get<std::string>())))
                return true;
    return false;
}

/// The 2026 revision's name.
QString modernVersion()
{
    return QString::fromLatin1(McpRevision::Modern.data(), qsizetype(McpRevision::Modern.size()));
}

/// The instructions of an initialize or server/discover result, when it has some.
std::optional<QString> instructionsOf(const json &result)
{
    if (const auto text = result.find("instructions"); text != result.end() && text->is_string())
        return QString::fromStdString(text->get<std::string>());
    return std::nullopt;
}

} // namespace

McpHandshake::McpHandshake(Channel channel, QObject *parent)
    : QObject(parent)
    , m_channel(std::move(channel))
{}

void McpHandshake::start()
{
    m_probeLate = false;
    m_initializeId = 0;
    const qint64 id = m_channel.nextId();
    const int timeoutMs = std::min(ProbeTimeoutMs, m_initializeTimeoutMs);
    QTimer *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id, timer, timeoutMs] {
        if (m_probeLate) {
            m_channel.finish(id,
                             McpReply{{},
                                      {},
                                      QStringLiteral("no answer to server/discover within %1 s")
                                          .arg(decimalSeconds(timeoutMs + m_initializeTimeoutMs))});
            return;
        }
        // No answer yet: a 2025 server that ignores the probe, or a 2026 one slow to
        // start. Fall back to initialize, but keep listening for the probe's answer: a
        // DiscoverResult that comes before initialize is answered (a server answers in
        // order) makes the session 2026 after all.
        m_probeLate = true;
        timer->start(m_initializeTimeoutMs);
        sendInitialize();
    });
    m_channel.expect(
        id,
        [this, id](const McpReply &reply) {
            if (m_probeLate) {
                onLateDiscover(reply);
                return;
            }
            // Answered (not timed out): its id may be used again, so a 2025 server sees
            // the ids it always saw, initialize's 1 on.
            if (!reply.ok() && !reply.failure.startsWith(QLatin1String("no answer to server/discover")))
                m_channel.giveBackId(id);
            onDiscovered(reply);
        },
        timer);
    timer->start(timeoutMs);
    m_channel.send(JsonRpcMessage::request(
        json(id), "server/discover",
        McpRevision::withRequestMeta(nullptr, McpClientSession::clientInfo(), McpClientSession::clientCapabilities())));
}

void McpHandshake::onDiscovered(const McpReply &reply)
{
    if (!m_channel.opening())
        return; // the server ended, or the session was closed
    const QString modern = modernVersion();
    const QStringList &supported = McpClientSession::supportedVersions();
    const auto speaksLegacy = [&](const QString &version) { return supported.contains(version); };
    if (reply.ok()) {
        const json &result = reply.result;
        const json versions = result.is_object() ? result.value("supportedVersions", json()) : json();
        if (listsVersion(versions, [&](const QString &version) { return version == modern; })) {
            const std::string type = McpRevision::resultType(result);
            if (type != McpRevision::Complete) {
                m_channel.fail(
                    QStringLiteral("the server's server/discover result has resultType \"%1\" (not \"complete\")")
                        .arg(elidedText(printableText(QString::fromStdString(type)), 40)));
                return;
            }
            Hello hello;
            hello.stateless = true;
            hello.protocolVersion = modern;
            const json meta = objectMember(result, "_meta");
            hello.serverInfo = objectMember(meta, McpRevision::ServerInfoKey);
            if (hello.serverInfo.empty())
                hello.serverInfo = objectMember(result, "serverInfo");
            hello.capabilities = objectMember(result, "capabilities");
            hello.instructions = instructionsOf(result);
            m_channel.learned(hello);
            m_channel.ready();
            return;
        }
        if (!versions.is_array() || listsVersion(versions, speaksLegacy)) {
            sendInitialize(); // no DiscoverResult (a 2025 server answering anything), or 2025 listed
            return;
        }
        m_channel.fail(
            QStringLiteral("the server's server/discover lists MCP revisions %1, none of which the studio speaks "
                           "(it speaks %2, %3)")
                .arg(listedVersions(versions), modern, supported.join(QStringLiteral(", "))));
        return;
    }
    if (reply.error.code == McpRevision::UnsupportedProtocolVersion) {
        // A 2026-era server without 2026-07-28: only a 2025 revision it lists helps.
        const json listed = reply.error.data.is_object() ? reply.error.data.value("supported", json()) : json();
        if (listsVersion(listed, speaksLegacy)) {
            sendInitialize();
            return;
        }
        m_channel.fail(QStringLiteral("the server does not speak MCP %1 and lists %2, none of which the studio speaks "
                                      "(it speaks %1, %3)")
                           .arg(modern, listedVersions(listed), supported.join(QStringLiteral(", "))));
        return;
    }
    sendInitialize(); // any other answer: a 2025 server
}

void McpHandshake::onLateDiscover(const McpReply &reply)
{
    if (!m_channel.opening() || !reply.ok() || !reply.result.is_object())
        return; // this is no DiscoverResult: the 2025 era stands
    const QString modern = modernVersion();
    if (!listsVersion(reply.result.value("supportedVersions", json()),
                      [&](const QString &version) { return version == modern; }))
        return;
    // initialize's answer, when it comes, is a response to nothing (counted as unmatched).
    if (!m_channel.forget(m_initializeId))
        return; // initialize was answered first: the 2025 era stands
    m_probeLate = false;
    onDiscovered(reply);
}

void McpHandshake::sendInitialize()
{
    const json params = {
        {"protocolVersion", McpClientSession::supportedVersions().first().toStdString()},
        {"capabilities", McpClientSession::clientCapabilities()},
        {"clientInfo", McpClientSession::clientInfo()},
    };
    const qint64 id = m_channel.nextId();
    m_initializeId = id;
    QTimer *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id] {
        m_channel.finish(id,
                         McpReply{{},
                                  {},
                                  QStringLiteral("the server did not answer initialize within %1 s")
                                      .arg(decimalSeconds(m_initializeTimeoutMs))});
    });
    m_channel.expect(
        id, [this](const McpReply &reply) { onInitialized(reply); }, timer);
    timer->start(m_initializeTimeoutMs);
    m_channel.send(JsonRpcMessage::request(json(id), "initialize", params));
}

void McpHandshake::onInitialized(const McpReply &reply)
{
    if (!reply.ok()) {
        m_channel.fail(reply.failure.isEmpty() ? QStringLiteral("initialize failed: %1").arg(reply.errorText())
                                               : reply.failure);
        return;
    }
    const json &result = reply.result;
    const auto version = result.is_object() ? result.find("protocolVersion") : result.end();
    if (version == result.end() || !version->is_string()) {
        m_channel.fail(QStringLiteral("the server's initialize result has no protocolVersion"));
        return;
    }
    const QString chosen = QString::fromStdString(version->get<std::string>());
    const QStringList &supported = McpClientSession::supportedVersions();
    if (!supported.contains(chosen)) {
        m_channel.fail(QStringLiteral("the server speaks MCP revision \"%1\", which the studio does not (it speaks %2)")
                           .arg(elidedText(chosen, 40), supported.join(QStringLiteral(", "))));
        return;
    }
    Hello hello;
    hello.protocolVersion = chosen;
    hello.serverInfo = objectMember(result, "serverInfo");
    hello.capabilities = objectMember(result, "capabilities");
    hello.instructions = instructionsOf(result);
    m_channel.learned(hello);
    m_channel.send(JsonRpcMessage::notification("notifications/initialized"));
    m_channel.ready();
}
