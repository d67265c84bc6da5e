// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpcompletion.h"

#include "mcp/mcpserverfeatures.h"
#include "project/printabletext.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>
#include <QVariant>

#include <set>

using nlohmann::json;

namespace McpCompletion {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("McpCompletion", text);
}

constexpr char Method[] = "completion/complete";

/// Remembers that `session`'s server answered -32601, for the rest of its server session.
QString noteMethodMissing(McpClientSession *session, const McpReply &reply)
{
    const QString why
        = tr("the server declares \"completions\" but answers completion/complete with %1").arg(reply.errorText());
    if (session)
        session->noteMethodNotFound(QLatin1String(Method), why);
    return why;
}

/// `value` when the studio offers it as it is, else nullopt (see the header).
std::optional<QString> offeredValue(const json &value)
{
    if (!value.is_string())
        return std::nullopt;
    const std::string &bytes = value.get_ref<const std::string &>();
    // Bytes first: a 50 MiB value is not turned into a QString to be found too long.
    if (bytes.empty() || bytes.size() > std::size_t(MaxValueChars) * 4)
        return std::nullopt;
    const QString text = QString::fromStdString(bytes);
    if (text.size() > MaxValueChars || printableText(text) != text)
        return std::nullopt;
    return text;
}

} // namespace

bool offered(const McpClientSession *session)
{
    return session && session->state() == McpClientSession::State::Ready
        && McpServerFeatures::missingCapability(*session, "completions").isEmpty() && methodMissing(session).isEmpty();
}

QString methodMissing(const McpClientSession *session)
{
    return session ? session->methodNotFound(QLatin1String(Method)) : QString();
}

McpCompletionResult parseResult(const json &result, QString *error)
{
    McpCompletionResult parsed;
    const auto completion = result.is_object() ? result.find("completion") : result.end();
    const bool isObject = completion != result.end() && completion->is_object();
    const auto values = isObject ? completion->find("values") : result.end();
    if (!isObject || values == completion->end() || !values->is_array()) {
        *error = tr("the server's completion/complete result has no \"completion\" object with a \"values\" array");
        return parsed;
    }
    std::set<QString> seen;
    std::size_t examined = 0;
    for (const json &value : *values) {
        if (parsed.values.size() >= MaxValues || examined >= MaxExaminedValues) {
            parsed.hasMore = true; // the server has more than the studio keeps
            break;
        }
        ++examined;
        std::optional<QString> text = offeredValue(value);
        if (!text || !seen.insert(*text).second) {
            ++parsed.dropped;
            continue;
        }
        parsed.values << *text;
    }
    if (const auto total = completion->find("total");
        total != completion->end() && total->is_number_integer() && total->get<std::int64_t>() >= 0)
        parsed.total = total->get<std::int64_t>();
    if (const auto more = completion->find("hasMore"); more != completion->end() && more->is_boolean())
        parsed.hasMore = parsed.hasMore || more->get<bool>();
    return parsed;
}

qint64 complete(McpClientSession *session, const McpCompletionRef &ref, const QString &argument, const QString &value,
                const QMap<QString, QString> &context, Done done, int timeoutMs)
{
    QString why;
    if (!session || session->state() != McpClientSession::State::Ready)
        why = tr("the server is not connected");
    else if (why = McpServerFeatures::missingCapability(*session, "completions"); why.isEmpty())
        why = methodMissing(session);
    if (!why.isEmpty()) {
        QObject *later = session ? static_cast<QObject *>(session) : QCoreApplication::instance();
        QTimer::singleShot(0, later, [done = std::move(done), why] { done({}, McpReply{{}, {}, why}); });
        return 0;
    }
    json params = json::object();
    if (ref.kind == McpCompletionRef::Kind::Prompt)
        params["ref"] = {{"type", "ref/prompt"}, {"name", ref.nameOrUri.toStdString()}};
    else
        params["ref"] = {{"type", "ref/resource"}, {"uri", ref.nameOrUri.toStdString()}};
    params["argument"] = {{"name", argument.toStdString()}, {"value", value.toStdString()}};
    json filled = json::object();
    for (auto it = context.begin(); it != context.end(); ++it)
        if (it.key() != argument && !it.value().isEmpty())
            filled[it.key().toStdString()] = it.value().toStdString();
    if (!filled.empty())
        params["context"] = {{"arguments", std::move(filled)}};
    return session->request(
        QLatin1String(Method), std::move(params),
        [done = std::move(done), asked = QPointer<McpClientSession>(session)](const McpReply &reply) {
            if (reply.error.code == JsonRpcError::MethodNotFound) {
                done({}, McpReply{{}, {}, noteMethodMissing(asked, reply)});
                return;
            }
            if (!reply.ok()) {
                done({}, reply);
                return;
            }
            QString error;
            const McpCompletionResult result = parseResult(reply.result, &error);
            done(result, error.isEmpty() ? reply : McpReply{{}, {}, error});
        },
        timeoutMs);
}

} // namespace McpCompletion
