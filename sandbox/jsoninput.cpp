// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsoninput.h"

#include <type_traits>

namespace JsonInput {

namespace {

/// nlohmann quotes the token it stopped at, which a sender can make as long as its input.
constexpr std::size_t MaxReason = 200;

std::string reasonOf(const nlohmann::json::exception &e)
{
    std::string text = e.what();
    // Drop "[json.exception.parse_error.101] parse error at line 1, column 2: ": the
    // caller words the position.
    if (const std::size_t id = text.find("] "); text.rfind("[json.exception.", 0) == 0 && id != std::string::npos)
        text.erase(0, id + 2);
    if (text.rfind("parse error", 0) == 0)
        if (const std::size_t colon = text.find(": "); colon != std::string::npos)
            text.erase(0, colon + 2);
    if (text.size() > MaxReason) {
        std::size_t cut = MaxReason;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
            --cut; // not inside a UTF-8 sequence
        text = text.substr(0, cut) + "… (" + std::to_string(text.size()) + " bytes)";
    }
    return text;
}

/// A SAX handler that builds nothing and keeps where the parser gave up: nlohmann's
/// out_of_range (a number beyond a double) carries no offset, its SAX callback does
/// (and the token: the offset is the number's first byte).
/// Run only on the error path.
struct ErrorOffset : nlohmann::json_sax<nlohmann::json>
{
    std::size_t byte = std::string_view::npos;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t &) override { return true; }
    bool string(string_t &) override { return true; }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t &) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string &token, const nlohmann::detail::exception &) override
    {
        // `position` counts the bytes read, the whole token included: its first byte.
        byte = position >= token.size() ? position - token.size() : 0;
        return false;
    }
};

} // namespace

Problem overLimit(std::string_view text)
{
    int depth = 0;
    // The root, one per comma, and the first element of each non-empty container: in
    // valid JSON exactly the values the parser builds (member names not counted).
    std::size_t values = 1;
    bool opened = false; // the last token was `[` or `{`
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character may be '"' or '\\'
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
            continue;
        if (opened && c != ']' && c != '}' && ++values > MaxValues)
            return {"more than " + std::to_string(MaxValues) + " values", i, true};
        opened = false;
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > MaxDepth)
                return {"nested deeper than " + std::to_string(MaxDepth) + " levels", i, true};
            opened = true;
        } else if (c == ']' || c == '}') {
            --depth; // unbalanced brackets are the parser's to report
        } else if (c == ',' && ++values > MaxValues) {
            return {"more than " + std::to_string(MaxValues) + " values", i, true};
        }
    }
    return {};
}

Problem orderedOverLimit(std::string_view text)
{
    if (Problem bound = overLimit(text); bound.limit)
        return bound;
    // Depth is at most MaxDepth here: a member count per open object.
    std::size_t members[MaxDepth + 2] = {};
    bool isObject[MaxDepth + 2] = {};
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if ((c == '[' || c == '{') && depth <= MaxDepth) {
            ++depth;
            isObject[depth] = c == '{';
            members[depth] = 1;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        } else if (c == ',' && depth > 0 && isObject[depth] && ++members[depth] > MaxOrderedMembers) {
            return {"an object with more than " + std::to_string(MaxOrderedMembers) + " members", i, true};
        }
    }
    return {};
}

template<class Json>
Json read(std::string_view text, Problem *problem)
{
    Problem found;
    Json value(Json::value_t::discarded);
    Problem bound = std::is_same_v<Json, nlohmann::ordered_json> ? orderedOverLimit(text) : overLimit(text);
    if (bound.limit) {
        found = std::move(bound);
    } else {
        try {
            value = Json::parse(text.begin(), text.end());
        } catch (const nlohmann::json::parse_error &e) {
            found = {reasonOf(e), e.byte > 0 ? e.byte - 1 : 0};
        } catch (const nlohmann::json::exception &e) { // out_of_range 406: a number beyond a double (1e999)
            ErrorOffset offset;
            nlohmann::json::sax_parse(text.begin(), text.end(), &offset);
            found = {reasonOf(e), offset.byte};
        }
        if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
            found = {"no JSON value (the text is empty)", 0};
    }
    if (problem)
        *problem = found;
    return value;
}

template nlohmann::json read<nlohmann::json>(std::string_view, Problem *);
template nlohmann::ordered_json read<nlohmann::ordered_json>(std::string_view, Problem *);

std::string describe(std::string_view what, const Problem &problem)
{
    if (problem.reason.empty())
        return {};
    const std::string at = problem.byte == std::string_view::npos
        ? std::string()
        : " (byte offset " + std::to_string(problem.byte) + ")";
    if (!problem.limit)
        return std::string(what) + " is not valid JSON: " + problem.reason + at;
    if (problem.reason.rfind("nested deeper", 0) == 0)
        return std::string(what) + " is " + problem.reason + at;
    if (problem.reason.rfind("an object with", 0) == 0)
        return std::string(what) + " has " + problem.reason + at + "; the studio keeps the order of at most "
            + std::to_string(MaxOrderedMembers) + " members of one object here";
    return std::string(what) + " has " + problem.reason + at + "; the studio reads at most " + std::to_string(MaxValues)
        + " values of one JSON document: send less, or in parts";
}

std::string limitProblem(std::string_view text, std::string_view what)
{
    return describe(what, overLimit(text));
}

nlohmann::json parse(std::string_view text, std::string_view what, std::string *problem)
{
    Problem found;
    nlohmann::json value = read<nlohmann::json>(text, &found);
    if (problem)
        *problem = describe(what, found);
    return value;
}

} // namespace JsonInput
