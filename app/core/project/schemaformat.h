// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>
#include <string_view>

/// The `format`s SchemaValidator checks: RFC 3339 full-date, full-time and date-time,
/// parsed by hand (linear, no regex), as JSON Schema draft 7 section 7.3.1 specifies.
/// Every other format is an annotation.
namespace SchemaFormat {

enum class Kind { None, Date, Time, DateTime };

/// The kind a schema's "format" names: "date", "time", "date-time", else None.
Kind fromName(const std::string &name);

/// Whether `text` is written in `kind` (always true for None).
bool matches(Kind kind, std::string_view text);

/// What a value of `kind` must look like, for a failure message: "expected a date
/// (RFC 3339 full-date, e.g. 2026-12-01)".
QString expectation(Kind kind);

} // namespace SchemaFormat
