// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsoninput.h"

namespace JsonInput {

std::size_t tooDeepAt(std::string_view text)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character may be '"' or '\\'
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > MaxDepth)
                return i;
        } else if (c == ']' || c == '}') {
            --depth; // unbalanced brackets are the parser's to report
        }
    }
    return std::string_view::npos;
}

std::string depthProblem(std::string_view text, std::string_view what)
{
    const std::size_t at = tooDeepAt(text);
    if (at == std::string_view::npos)
        return {};
    return std::string(what) + " is nested deeper than " + std::to_string(MaxDepth) + " levels (byte offset "
        + std::to_string(at) + ")";
}

nlohmann::json parse(std::string_view text, std::string_view what, std::string *problem)
{
    std::string reason = depthProblem(text, what);
    nlohmann::json value(nlohmann::json::value_t::discarded);
    if (reason.empty()) {
        try {
            value = nlohmann::json::parse(text.begin(), text.end());
        } catch (const nlohmann::json::exception &e) { // a syntax error, or a number it cannot hold (1e999)
            // nlohmann quotes the token, which a sender can make as long as its input.
            constexpr std::size_t MaxDetail = 160;
            std::string detail = e.what();
            if (detail.size() > MaxDetail)
                detail = detail.substr(0, MaxDetail) + "… (" + std::to_string(detail.size()) + " bytes)";
            reason = std::string(what) + " is not valid JSON: " + detail;
        }
    }
    if (problem)
        *problem = reason;
    return value;
}

} // namespace JsonInput
