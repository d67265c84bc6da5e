// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemapattern.h"

namespace {

/// Per-thread match state: validate() is const and may run on several threads.
struct MatchScratch
{
    pcre2_match_context *context = pcre2_match_context_create(nullptr);
    pcre2_jit_stack *jitStack = pcre2_jit_stack_create(32 * 1024, SchemaPattern::JitStackBytes, nullptr);
    pcre2_match_data *data = pcre2_match_data_create(1, nullptr);

    MatchScratch()
    {
        if (jitStack)
            pcre2_jit_stack_assign(context, nullptr, jitStack);
    }
    MatchScratch(const MatchScratch &) = delete;
    MatchScratch &operator=(const MatchScratch &) = delete;
    ~MatchScratch()
    {
        pcre2_match_data_free(data);
        pcre2_jit_stack_free(jitStack);
        pcre2_match_context_free(context);
    }
};

QString pcre2Message(int code)
{
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(code, buffer, sizeof buffer);
    return QString::fromUtf8(reinterpret_cast<const char *>(buffer));
}

} // namespace

std::unique_ptr<SchemaPattern> SchemaPattern::compile(const std::string &source, QString *error)
{
    std::unique_ptr<SchemaPattern> pattern(new SchemaPattern);
    pattern->m_source = source;
    pcre2_compile_context *context = pcre2_compile_context_create(nullptr);
    pcre2_set_compile_extra_options(context, PCRE2_EXTRA_ALT_BSUX);
    int code = 0;
    PCRE2_SIZE offset = 0;
    pattern->m_code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(),
                                    PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX | PCRE2_NEVER_BACKSLASH_C, &code,
                                    &offset, context);
    pcre2_compile_context_free(context);
    if (!pattern->m_code) {
        if (error)
            *error = QStringLiteral("%1 at offset %2").arg(pcre2Message(code)).arg(qulonglong(offset));
        return nullptr;
    }
    pcre2_jit_compile(pattern->m_code, PCRE2_JIT_COMPLETE); // falls back to the interpreter
    return pattern;
}

SchemaPattern::~SchemaPattern()
{
    pcre2_code_free(m_code);
}

SchemaPattern::Result SchemaPattern::search(const std::string &subject, const SchemaValidator::Limits &limits) const
{
    static thread_local MatchScratch scratch;
    pcre2_set_match_limit(scratch.context, limits.regexMatchLimit);
    pcre2_set_depth_limit(scratch.context, limits.regexDepthLimit);
    pcre2_set_heap_limit(scratch.context, limits.regexHeapLimitKiB);
    const int rc = pcre2_match(m_code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, 0, scratch.data,
                               scratch.context);
    if (rc >= 0)
        return {Outcome::Match, {}};
    if (rc == PCRE2_ERROR_NOMATCH)
        return {Outcome::NoMatch, {}};
    if (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21)
        return {Outcome::BadUtf8, {}};
    switch (rc) {
    case PCRE2_ERROR_MATCHLIMIT:
        return {Outcome::Abandoned, QStringLiteral("the match limit (%1 steps)").arg(limits.regexMatchLimit)};
    case PCRE2_ERROR_DEPTHLIMIT:
        return {Outcome::Abandoned, QStringLiteral("the backtracking depth limit (%1)").arg(limits.regexDepthLimit)};
    case PCRE2_ERROR_HEAPLIMIT:
    case PCRE2_ERROR_NOMEMORY:
        return {Outcome::Abandoned, QStringLiteral("the heap limit (%1 KiB)").arg(limits.regexHeapLimitKiB)};
    case PCRE2_ERROR_JIT_STACKLIMIT:
        return {Outcome::Abandoned, QStringLiteral("the JIT stack limit (%1 MiB)").arg(JitStackBytes >> 20)};
    default:
        return {Outcome::Abandoned, pcre2Message(rc)};
    }
}
