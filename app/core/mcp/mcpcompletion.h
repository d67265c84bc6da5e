// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpclientsession.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

// Argument completion (issue 21 §5): `completion/complete` as the spec defines it
// (modelcontextprotocol.io/specification/2025-06-18/server/utilities/completion, the
// same in 2025-11-25 and 2026-07-28): the value a person is typing for an argument of
// a prompt (`ref/prompt`, its name) or a variable of a resource template
// (`ref/resource`, the template's URI), with the other arguments already filled in as
// `context.arguments`; the server answers `completion` {values, total, hasMore}. In the
// 2026 era the request goes through McpClientSession::request() like any other (the
// per-request `_meta`, its resultType read); the `completions` capability comes from
// initialize or server/discover alike.
//
// The reply is untrusted input: at most MaxValues values are kept (the spec's own
// limit), the first ones in the server's order; a value that is not a string, is empty,
// is longer than MaxValueChars, has control or bidirectional characters (printabletext.h:
// a value is put into the field as it is, so one that would have to be escaped is left
// out rather than changed) or came before is left out and counted (`dropped`). At most
// MaxExaminedValues entries are looked at: a million values cost no more than a few
// thousand. A result that is not the shape fails, saying what is missing.
//
// A server that declares `completions` but answers completion/complete with -32601
// (Method not found) is not asked again for the rest of that session: offered() is
// false and complete() fails at once with methodMissing()'s words, until the session is
// opened again (a restart, a new session: McpClientSession::noteMethodNotFound), which
// asks anew — the window's fields would otherwise send a request for every pause in
// the typing.

/// What completion/complete gave: the values to offer, in the server's order.
struct McpCompletionResult
{
    QStringList values;
    /// The server's `total` (all the values it has, ≥ 0), or -1 when it did not say.
    qint64 total = -1;
    /// The server said there are more (`hasMore`), or the studio kept only some of its values.
    bool hasMore = false;
    /// Values left out (see above).
    qint64 dropped = 0;
};

/// What is completed: a prompt's argument or a resource template's variable.
struct McpCompletionRef
{
    enum class Kind { Prompt, ResourceTemplate };
    Kind kind = Kind::Prompt;
    QString nameOrUri; ///< the prompt's name, or the template's URI (uriTemplate) as listed
};

namespace McpCompletion {

constexpr int MaxValues = 100;
constexpr qsizetype MaxValueChars = 500;
constexpr std::size_t MaxExaminedValues = 10000;
/// How long a completion waits: a person is typing, an answer later than this is of no use.
constexpr int TimeoutMs = 10000;

/// True when the session is ready, its server declared `completions` and has not
/// answered completion/complete with -32601 in this session (methodMissing()).
bool offered(const McpClientSession *session);

/// Why the session's server is no longer asked: it declares `completions` but answered
/// completion/complete with -32601 in this session ("the server declares \"completions\"
/// but answers completion/complete with -32601: Method not found"); "" otherwise.
QString methodMissing(const McpClientSession *session);

using Done = std::function<void(const McpCompletionResult &, const McpReply &)>;

/// Sends completion/complete for `argument` with the `value` typed so far; `context`:
/// the other arguments filled in (empty ones and `argument` itself are not sent).
/// `done` gets the values or the reply that failed, once, later (never from inside this
/// call). A server that did not declare `completions` is not asked: `done` gets
/// McpServerFeatures::missingCapability()'s words, nor one that answered -32601 before
/// (methodMissing()'s words; the -32601 answer itself gets them too). Returns the
/// request's id (for McpClientSession::cancel), 0 when nothing was sent.
qint64 complete(McpClientSession *session, const McpCompletionRef &ref, const QString &argument, const QString &value,
                const QMap<QString, QString> &context, Done done, int timeoutMs = TimeoutMs);

/// A completion/complete result; `*error` set (and nothing kept) when it has no
/// `completion` object with a `values` array.
McpCompletionResult parseResult(const nlohmann::json &result, QString *error);

} // namespace McpCompletion
