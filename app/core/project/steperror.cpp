// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/steperror.h"

#include "bridgemessage.h"

#include <stdexcept>

QString errorCodeText(ErrorCode code)
{
    const std::string_view name = errorCodeName(code);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

QString StepError::codeName() const
{
    return errorCodeText(code);
}

QString StepError::text() const
{
    return codeName() + QStringLiteral(": ") + QString::fromStdString(message);
}

nlohmann::json StepError::toJson() const
{
    return toBridge().toJson();
}

Result<StepError> StepError::fromJson(const nlohmann::json &json)
{
    BridgeError wire;
    try {
        wire = BridgeError::fromJson(json);
    } catch (const std::runtime_error &e) {
        return ResultError{QString::fromUtf8(e.what())};
    }
    const std::optional<ErrorCode> code = errorCodeFromName(wire.code);
    if (!code)
        return ResultError{QStringLiteral("unknown error code \"%1\"").arg(QString::fromStdString(wire.code))};
    return StepError{*code, std::move(wire.message), wire.retryable, wire.attempts, std::move(wire.details)};
}

BridgeError StepError::toBridge() const
{
    return BridgeError{std::string(errorCodeName(code)), message, retryable, attempts, details};
}
