// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include "jsoninput.h"

#include <nlohmann/json.hpp>

/// 1-based line and column of a byte offset in a UTF-8 text (columns count
/// characters, not bytes, as editors do).
struct TextPosition
{
    int line = 1;
    int column = 1;
};

TextPosition textPositionAt(const QByteArray &text, std::size_t byteOffset);

/// nlohmann's message without its "[json.exception.parse_error.101] parse error at
/// line 1, column 2: " prefix: the reason in words, e.g. "syntax error while parsing
/// value - invalid literal; last read: 'r'".
QString jsonParseErrorReason(const nlohmann::json::exception &error);

/// "FILE:LINE:COLUMN: reason" for a JSON parse error, the reason stripped of
/// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2:" prefix.
QString describeJsonParseError(const QString &fileName, const QByteArray &text,
                               const nlohmann::json::parse_error &error);

/// "line L, column C: reason" for a text JsonInput::read() refused (the reason alone
/// when the parser knew no offset), e.g. "line 1, column 9: nested deeper than 128
/// levels".
QString describeJsonProblem(const QByteArray &text, const JsonInput::Problem &problem);
