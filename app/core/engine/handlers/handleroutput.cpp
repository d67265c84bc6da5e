// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/handleroutput.h"

#include "project/jsonerror.h"

#include "jsoninput.h"

Result<nlohmann::json> parseHandlerOutput(const QByteArray &text, const QString &tool)
{
    if (text.trimmed().isEmpty())
        return ResultError{QStringLiteral("command printed nothing on stdout (expected the result as JSON)")};
    if (const std::string deep = JsonInput::limitProblem(std::string_view(text.constData(), std::size_t(text.size())),
                                                         "command tool " + tool.toStdString() + ": stdout");
        !deep.empty())
        return ResultError{QString::fromStdString(deep)};
    try {
        return nlohmann::json::parse(text.constBegin(), text.constEnd());
    } catch (const nlohmann::json::exception &e) { // a syntax error, or a number it cannot hold (1e999)
        return ResultError{QStringLiteral("command printed invalid JSON: %1").arg(jsonParseErrorReason(e))};
    }
}
