// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpcallnotices.h"

#include "project/printabletext.h"

#include <QCoreApplication>

using nlohmann::json;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("McpCallNotices", text);
}

QString number(double value)
{
    return QString::number(value, 'g', 15);
}

} // namespace

bool McpCallProgress::add(const json &params)
{
    if (!params.is_object())
        return false;
    const auto value = params.find("progress");
    if (value == params.end() || !value->is_number())
        return false;
    ++count;
    progress = value->get<double>();
    const auto of = params.find("total");
    total = of != params.end() && of->is_number() ? of->get<double>() : -1;
    const auto text = params.find("message");
    message = text != params.end() && text->is_string()
        ? printableText(clippedText(QString::fromStdString(text->get<std::string>()), MessageChars))
        : QString();
    return true;
}

QString McpCallProgress::line() const
{
    QString line = total >= 0 ? QStringLiteral("%1/%2").arg(number(progress), number(total)) : number(progress);
    if (!message.isEmpty()) {
        line += u' ';
        line += message;
    }
    return line;
}

QString McpCallProgress::summary() const
{
    if (count == 0)
        return {};
    return tr("MCP progress: %1 notification(s), the last: %2").arg(count).arg(line());
}

QString McpCallNotices::logLine(const json &params)
{
    const json none;
    const json &level = params.is_object() ? params.value("level", none) : none;
    const json &logger = params.is_object() ? params.value("logger", none) : none;
    const json &data = params.is_object() ? params.value("data", none) : none;
    QString text = data.is_string() ? QString::fromStdString(data.get<std::string>())
                                    : QString::fromStdString(data.dump(-1, ' ', false, json::error_handler_t::replace));
    QString line = QStringLiteral("MCP log %1")
                       .arg(level.is_string() ? elidedText(QString::fromStdString(level.get<std::string>()), 20)
                                              : QStringLiteral("info"));
    if (logger.is_string())
        line += QStringLiteral(" [%1]").arg(elidedText(QString::fromStdString(logger.get<std::string>()), 80));
    return line + QStringLiteral(": ") + printableText(clippedText(text, LogDataChars)) + u'\n';
}
