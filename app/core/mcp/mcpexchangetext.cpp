// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpexchangetext.h"

#include "project/printabletext.h"

#include <QCoreApplication>

using nlohmann::json;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("McpExchangeText", text);
}

/// Server text for a summary: printable and short.
QString shown(const json &value, qsizetype chars = 64)
{
    const QString text = value.is_string()
        ? QString::fromStdString(value.get<std::string>())
        : QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
    return elidedText(printableText(text), chars);
}

QString number(const json &value)
{
    return value.is_number() ? QString::number(value.get<double>(), 'g', 15) : QString();
}

const json &member(const json &object, const char *name)
{
    static const json none;
    if (!object.is_object())
        return none;
    const auto found = object.find(name);
    return found != object.end() ? *found : none;
}

/// What follows a notification's method: "3/10" for progress, "#7" for cancelled, the level of a log,
/// the elicitationId of a completion.
QString notificationDetail(const std::string &method, const json &params)
{
    if (method == "notifications/progress") {
        const QString progress = number(member(params, "progress"));
        const QString total = number(member(params, "total"));
        return total.isEmpty() ? progress : progress + u'/' + total;
    }
    if (method == "notifications/cancelled")
        return member(params, "requestId").is_null() ? QString() : u'#' + shown(member(params, "requestId"));
    if (method == "notifications/message")
        return member(params, "level").is_string() ? shown(member(params, "level"), 20) : QString();
    if (method == "notifications/elicitation/complete")
        return member(params, "elicitationId").is_string() ? shown(member(params, "elicitationId")) : QString();
    return {};
}

} // namespace

QString McpExchangeText::summary(const json &entry)
{
    const bool sent = member(entry, "direction") == "sent";
    const json &message = member(entry, "message");
    const bool clipped = message.is_null();
    const json &clippedKind = member(entry, "kind");
    const std::string kind = clipped ? (clippedKind.is_string() ? clippedKind.get<std::string>() : std::string())
        : message.contains("method") ? (message.contains("id") ? "request" : "notification")
        : message.contains("error")  ? "error"
                                     : "result";
    const json &method = clipped ? member(entry, "method") : member(message, "method");
    const json &id = clipped ? member(entry, "id") : member(message, "id");
    QStringList words{sent ? QStringLiteral("→") : QStringLiteral("←")};
    if (kind == "request") {
        words << QStringLiteral("request") << shown(method) << u'#' + shown(id);
    } else if (kind == "notification") {
        words << QStringLiteral("notification") << shown(method);
        if (!clipped)
            if (const QString detail = notificationDetail(
                    method.is_string() ? method.get<std::string>() : std::string(), member(message, "params"));
                !detail.isEmpty())
                words << detail;
    } else {
        words << QStringLiteral("response") << u'#' + shown(id);
        if (kind == "error") {
            words << QStringLiteral("error");
            if (const QString code = number(member(member(message, "error"), "code")); !code.isEmpty())
                words << code;
        } else if (!sent) {
            // A multi round-trip round says so; any other result is the result.
            const json &type = member(member(message, "result"), "resultType");
            words << (type == "input_required" ? QStringLiteral("input_required") : QStringLiteral("result"));
        }
    }
    QString text = words.join(u' ');
    if (clipped)
        text += tr(" (%1 bytes, clipped)")
                    .arg(member(entry, "bytes").is_number() ? member(entry, "bytes").get<qint64>() : 0);
    return text;
}

QString McpExchangeText::offset(const json &entry)
{
    const json &at = member(entry, "offsetMs");
    return tr("+%1 ms").arg(at.is_number_integer() ? at.get<qint64>() : 0);
}

QString McpExchangeText::pretty(const json &entry)
{
    const json &message = member(entry, "message");
    if (!message.is_null())
        return QString::fromStdString(message.dump(2, ' ', false, json::error_handler_t::replace));
    const json &head = member(entry, "head");
    return tr("(a message of %1 bytes; its first %2 bytes of compact JSON:)\n%3")
        .arg(member(entry, "bytes").is_number() ? member(entry, "bytes").get<qint64>() : 0)
        .arg(head.is_string() ? head.get_ref<const std::string &>().size() : 0)
        .arg(head.is_string() ? QString::fromStdString(head.get<std::string>()) : QString());
}

QString McpExchangeText::omitted(const json &exchange)
{
    const json &messages = member(exchange, "omittedMessages");
    if (!messages.is_number_integer() || messages.get<qint64>() <= 0)
        return {};
    const json &bytes = member(exchange, "omittedBytes");
    return tr("%1 more messages, %2 bytes, not kept")
        .arg(messages.get<qint64>())
        .arg(bytes.is_number_integer() ? bytes.get<qint64>() : 0);
}
