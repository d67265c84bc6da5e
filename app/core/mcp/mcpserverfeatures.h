// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpclientsession.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

// A server's resources and prompts (issue 21 §5), as the 2025-era revisions define them
// (modelcontextprotocol.io/specification/2025-11-25/server/resources and …/prompts):
// resources/list, resources/templates/list and prompts/list (each paginated with
// `cursor`/`nextCursor`), resources/read, prompts/get, resources/subscribe.
//
// Every reply is untrusted input: lists stop at MaxListPages pages, MaxListEntries
// entries and MaxListBytes bytes (a list that goes on is cut there, `truncated` says
// so); a cursor that comes again or is longer than MaxCursorBytes ends the list with an
// error; an entry that is not what the spec says (no string uri / name, a uri of control
// characters or over MaxUriChars) is left out and counted (`dropped`); long strings are
// cut (MaxDescriptionChars); a read result keeps at most MaxContents contents and a
// prompt at most MaxMessages messages. A server whose initialize result does not declare
// the capability (`resources`, `prompts`) is not asked: the call fails with
// missingCapability()'s words, on the next turn of the event loop, never from inside.

/// One entry of resources/list.
struct McpResource
{
    QString uri;
    QString name;
    QString title;
    QString description;
    QString mimeType;
    qint64 size = -1; ///< bytes, when the server said; -1 otherwise
};

/// One entry of resources/templates/list: `uriTemplate` is an RFC 6570 URI template.
struct McpResourceTemplate
{
    QString uriTemplate;
    QString name;
    QString title;
    QString description;
    QString mimeType;
};

/// One of the `contents` of a resources/read result: text, or a blob (base64 in the
/// reply, decoded here). `problem` says why it cannot be shown or saved (a blob that is
/// not base64, neither text nor blob); `text` and `blob` are empty then.
struct McpResourceContents
{
    QString uri;
    QString mimeType;
    bool isBlob = false;
    QString text;
    QByteArray blob;
    QString problem;
};

struct McpPromptArgument
{
    QString name;
    QString description;
    bool required = false;
};

/// One entry of prompts/list.
struct McpPrompt
{
    QString name;
    QString title;
    QString description;
    std::vector<McpPromptArgument> arguments;
};

/// One message of a prompts/get result: its role ("user", "assistant", or what the
/// server sent, printable) and its content block as the server sent it (an object;
/// any `type`, known or not — a view names what it does not show).
struct McpPromptMessage
{
    QString role;
    nlohmann::json content;
};

struct McpPromptResult
{
    QString description;
    std::vector<McpPromptMessage> messages;
    qint64 dropped = 0; ///< messages that were not objects with a content object
};

/// What a paginated list gave: its entries in order, how many were left out as not
/// entries (`dropped`), and whether the studio stopped before the server's end
/// (`truncated`: more than MaxListEntries entries, MaxListBytes bytes or MaxListPages
/// pages; `truncatedWhy` says which).
template<typename Entry>
struct McpListing
{
    std::vector<Entry> entries;
    qint64 dropped = 0;
    bool truncated = false;
    QString truncatedWhy;
};

namespace McpServerFeatures {

constexpr int MaxListPages = 100;
constexpr std::size_t MaxListEntries = 10000;
constexpr std::size_t MaxListBytes = 16u << 20;
constexpr qsizetype MaxCursorBytes = 64 * 1024;
constexpr qsizetype MaxUriChars = 8192;
constexpr qsizetype MaxNameChars = 1000;
constexpr qsizetype MaxDescriptionChars = 10000;
constexpr std::size_t MaxContents = 1000;
constexpr std::size_t MaxMessages = 1000;
constexpr std::size_t MaxPromptArguments = 100;

/// Empty when the session's server declared `capability` ("resources", "prompts") in
/// its initialize result; else why it is not asked ("MCP server declares no resources
/// capability: it offers none, so the studio does not ask").
QString missingCapability(const McpClientSession &session, const char *capability);
/// True when the server declared `resources.subscribe`.
bool canSubscribe(const McpClientSession &session);

template<typename Entry>
using ListDone = std::function<void(const McpListing<Entry> &, const McpReply &)>;

/// resources/list, resources/templates/list, prompts/list: every page (see above).
/// `done` is called once, later, with the entries or the reply that failed.
void listResources(McpClientSession *session, ListDone<McpResource> done);
void listResourceTemplates(McpClientSession *session, ListDone<McpResourceTemplate> done);
void listPrompts(McpClientSession *session, ListDone<McpPrompt> done);

/// resources/read of `uri`: its contents (at least one), or the reply that failed. A
/// result without a `contents` array, or with none that is an object, fails ("the
/// server's resources/read result has no contents").
///
/// A 2026-era server may answer `input_required` (multi round-trip requests): its
/// elicitation and sampling requests go to `asker` (answered with the session's
/// respond() / respondError(), McpClientSession::requestWithInput) and the read is sent
/// again with the answers, as a tools/call is. Without an asker the read fails at once,
/// naming what the server asked ("the server's input_required for resources/read of
/// \"URI\": it asks for elicitation/create (\"…\"), and nobody can answer it here", or
/// asker.refusal's words).
void readResource(McpClientSession *session, const QString &uri,
                  std::function<void(const std::vector<McpResourceContents> &, const McpReply &)> done,
                  int timeoutMs = McpClientSession::DefaultTimeoutMs, McpInputRequiredRounds::Asker asker = {});
/// prompts/get of `name` with `arguments` (the spec's arguments are strings); an
/// `input_required` answer as for readResource().
void getPrompt(McpClientSession *session, const QString &name, const QMap<QString, QString> &arguments,
               std::function<void(const McpPromptResult &, const McpReply &)> done,
               McpInputRequiredRounds::Asker asker = {});
/// What a read or a prompt is called in failures: `resources/read of "URI"`,
/// `prompts/get of "NAME"` (printable, cut at 200 characters).
QString requestSubject(const QString &method, const QString &what);
/// resources/subscribe (`subscribe`) or resources/unsubscribe of `uri` — with a 2026-era
/// server, the session's listen for resource updates asked anew with `uri` added or
/// taken out (McpClientSession::setResourceSubscriptions); fails without asking when the
/// server did not declare `resources.subscribe`.
void subscribe(McpClientSession *session, const QString &uri, bool subscribe,
               std::function<void(const McpReply &)> done);

/// Entry parsers (std::nullopt: not an entry; `why` says what was wrong).
std::optional<McpResource> parseResource(const nlohmann::json &entry);
std::optional<McpResourceTemplate> parseResourceTemplate(const nlohmann::json &entry);
std::optional<McpPrompt> parsePrompt(const nlohmann::json &entry);
/// A resources/read result's contents; empty with `*error` set when it has none.
std::vector<McpResourceContents> parseContents(const nlohmann::json &result, QString *error);
/// A prompts/get result; `*error` set when it has no messages array.
McpPromptResult parsePromptResult(const nlohmann::json &result, QString *error);

/// The variables of an RFC 6570 level 1 URI template ("file:///{dir}/{name}" → dir,
/// name), in order, each once. Level 1 only: `*error` names the first expression that
/// uses an operator (`{+x}`, `{#x}`, `{/x}`, `{?x}`, …), a list (`{x,y}`) or a modifier
/// (`{x*}`, `{x:3}`), and the list is empty then.
QStringList uriTemplateVariables(const QString &uriTemplate, QString *error = nullptr);
/// The template with each `{var}` replaced by its value, percent-encoded as RFC 6570's
/// simple string expansion does (everything but the unreserved characters A–Z a–z 0–9
/// `-._~`); a variable without a value expands to "". Empty with `*error` set for a
/// template beyond level 1 or with an unclosed brace.
QString expandUriTemplate(const QString &uriTemplate, const QMap<QString, QString> &values, QString *error);

} // namespace McpServerFeatures
