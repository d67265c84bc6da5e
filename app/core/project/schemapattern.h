// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/schemavalidator.h"

#include <QString>

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include <memory>
#include <string>

/// One `pattern` or `patternProperties` key of a schema, compiled once by PCRE2 (JIT
/// when the platform has it) and searched with SchemaValidator::Limits' bounds.
///
/// ECMA-262 as PCRE2 approximates it: UTF-8 code points; `$` only at the very end (no
/// "before a final newline"); \uHHHH and \u{H…} escapes; no \C (it splits code points).
/// \d, \w, \s and \b keep PCRE2's ASCII meaning (ECMA's \s also covers Unicode spaces).
/// No anchoring: `pattern` is a search.
class SchemaPattern
{
public:
    /// Backtracking memory of one JIT match (reserved per thread, touched as used): a
    /// group repeated once per character, as in ^([0-9]|[a-z])+$, takes ~20 bytes per
    /// repetition, so 32 MiB covers strings far above the default request cap (256 KiB).
    static constexpr std::size_t JitStackBytes = 32 * 1024 * 1024;

    enum class Outcome { Match, NoMatch, BadUtf8, Abandoned };

    struct Result
    {
        Outcome outcome = Outcome::NoMatch;
        /// For Abandoned: the bound that stopped the match, in words ("the match limit
        /// (1000000 steps)"), or PCRE2's message for another error.
        QString bound;
    };

    /// nullptr, with PCRE2's reason and the offset in `error` ("missing closing
    /// parenthesis at offset 2"), when PCRE2 does not compile `source`.
    static std::unique_ptr<SchemaPattern> compile(const std::string &source, QString *error);

    ~SchemaPattern();
    SchemaPattern(const SchemaPattern &) = delete;
    SchemaPattern &operator=(const SchemaPattern &) = delete;

    const std::string &source() const { return m_source; }

    /// Searches `subject` (UTF-8) within `limits`' regex bounds. Thread-safe: the match
    /// state is per thread.
    Result search(const std::string &subject, const SchemaValidator::Limits &limits) const;

private:
    SchemaPattern() = default;

    std::string m_source;
    pcre2_code *m_code = nullptr;
};
