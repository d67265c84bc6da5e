// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/result.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

/// A command tool's stdout read as its result: one JSON value, bounded in depth like
/// every JSON that enters the studio (sandbox/jsoninput.h). `tool` names the source in
/// the error. The error says what was wrong: nothing printed, nested too deep, or not
/// JSON (with the parser's reason).
Result<nlohmann::json> parseHandlerOutput(const QByteArray &text, const QString &tool);
