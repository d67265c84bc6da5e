// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsoninput.h"

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

template<class Json>
Json read(std::string_view text, Problem *problem)
{
    Problem found;
    Json value(Json::value_t::discarded);
    if (const std::size_t deep = tooDeepAt(text); deep != std::string_view::npos) {
        found = {"nested deeper than " + std::to_string(MaxDepth) + " levels", deep};
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
    Problem found;
    nlohmann::json value = read<nlohmann::json>(text, &found);
    if (problem) {
        problem->clear();
        if (!found.reason.empty()) {
            const bool deep = found.reason.rfind("nested deeper", 0) == 0;
            *problem = std::string(what) + (deep ? " is " : " is not valid JSON: ") + found.reason;
            if (found.byte != std::string_view::npos)
                *problem += " (byte offset " + std::to_string(found.byte) + ")";
        }
    }
    return value;
}

} // namespace JsonInput
