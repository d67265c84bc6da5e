// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpparamheaders.h"

#include "mcp/mcprevision.h"
#include "project/printabletext.h"

#include <QStringList>

#include <cctype>
#include <cstdint>
#include <set>

using json = nlohmann::json;

namespace {

constexpr const char *Keyword = "x-mcp-header";

/// RFC 9110 §5.6.2 tchar.
bool isToken(const std::string &name)
{
    static constexpr std::string_view Specials = "!#$%&'*+-.^_`|~";
    if (name.empty())
        return false;
    for (const char c : name) {
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alnum && Specials.find(c) == std::string_view::npos)
            return false;
    }
    return true;
}

/// An integer within JavaScript's safe range (the spec bounds integer parameters to it).
bool isSafeInteger(const json &value)
{
    constexpr std::int64_t Safe = (std::int64_t(1) << 53) - 1;
    if (value.is_number_unsigned())
        return value.get<std::uint64_t>() <= std::uint64_t(Safe);
    return value.is_number_integer() && value.get<std::int64_t>() >= -Safe && value.get<std::int64_t>() <= Safe;
}

} // namespace

QString McpParamHeaders::pathText(const std::vector<std::string> &path)
{
    if (path.empty())
        return tr("the schema's root");
    QStringList parts;
    for (const std::string &key : path)
        parts << printableText(elidedText(QString::fromStdString(key), 60));
    return tr("property '%1'").arg(parts.join(u'.'));
}

/// Walks a schema: annotations found where they may be (`reachable`: the root's
/// `properties`, and theirs) go to `found`; one anywhere else is an error.
class McpParamHeaders::Walk
{
public:
    std::vector<Annotation> found;
    QString error;

    void schema(const json &node, std::vector<std::string> &path, bool reachable, int depth)
    {
        if (!error.isEmpty() || !node.is_object())
            return;
        if (depth > MaxDepth) {
            error = McpParamHeaders::tr("the inputSchema is nested deeper than %1 levels").arg(MaxDepth);
            return;
        }
        if (const auto it = node.find(Keyword); it != node.end())
            annotation(node, *it, path, reachable && !path.empty());
        for (const auto &[key, value] : node.items()) {
            if (!error.isEmpty())
                return;
            if (key == "properties" && value.is_object()) {
                for (const auto &[name, sub] : value.items()) {
                    path.push_back(name);
                    schema(sub, path, reachable, depth + 1);
                    path.pop_back();
                }
            } else if (key == "enum" || key == "const" || key == "default" || key == "examples") {
                continue; // values, not schemas: a key named x-mcp-header there annotates nothing
            } else if (key == "$defs" || key == "definitions" || key == "patternProperties"
                       || key == "dependentSchemas") {
                if (value.is_object())
                    for (const auto &[name, sub] : value.items())
                        schema(sub, path, false, depth + 1);
            } else if (value.is_object()) {
                schema(value, path, false, depth + 1);
            } else if (value.is_array()) {
                for (const json &sub : value)
                    schema(sub, path, false, depth + 1);
            }
        }
    }

private:
    std::set<std::string> m_lowerNames;

    void annotation(const json &node, const json &value, const std::vector<std::string> &path, bool reachable)
    {
        const QString where = pathText(path);
        if (!reachable) {
            error = McpParamHeaders::tr("%1 has x-mcp-header but is not reached from the schema's root through "
                                        "'properties' alone (not under items, anyOf/oneOf/allOf/not, if/then/else, "
                                        "$defs or $ref)")
                        .arg(where);
            return;
        }
        if (value.is_string() && value.get<std::string>().size() > MaxNameChars) {
            error = McpParamHeaders::tr("%1: its x-mcp-header is longer than %2 characters (a header name that long "
                                        "makes every call of the tool fail: 431 from the server)")
                        .arg(where)
                        .arg(MaxNameChars);
            return;
        }
        if (!value.is_string() || !isToken(value.get<std::string>())) {
            error = McpParamHeaders::tr("%1: its x-mcp-header is not an HTTP header name (letters, digits and "
                                        "!#$%&'*+-.^_`|~, not empty)")
                        .arg(where);
            return;
        }
        const json type = node.value("type", json());
        if (type != "string" && type != "integer" && type != "boolean") {
            error = McpParamHeaders::tr("%1: x-mcp-header is only for a property of type string, integer or boolean")
                        .arg(where);
            return;
        }
        std::string lower = value.get<std::string>();
        for (char &c : lower)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (!m_lowerNames.insert(lower).second) {
            error = McpParamHeaders::tr("%1: x-mcp-header '%2' is used by another property too (names are compared "
                                        "without case)")
                        .arg(where, QString::fromStdString(value.get<std::string>()));
            return;
        }
        if (found.size() == MaxAnnotations) {
            error = McpParamHeaders::tr("more than %1 properties have x-mcp-header").arg(MaxAnnotations);
            return;
        }
        found.push_back({path, value.get<std::string>(), type.get<std::string>()});
    }
};

std::optional<std::vector<McpParamHeaders::Annotation>> McpParamHeaders::annotationsOf(const json &inputSchema,
                                                                                       QString *why)
{
    Walk walk;
    std::vector<std::string> path;
    walk.schema(inputSchema, path, true, 0);
    if (!walk.error.isEmpty()) {
        if (why)
            *why = walk.error;
        return std::nullopt;
    }
    return std::move(walk.found);
}

std::vector<std::pair<std::string, std::string>> McpParamHeaders::headersFor(const std::vector<Annotation> &annotations,
                                                                             const json &arguments)
{
    std::vector<std::pair<std::string, std::string>> headers;
    for (const Annotation &annotation : annotations) {
        const json *value = &arguments;
        for (const std::string &key : annotation.path) {
            if (!value->is_object() || !value->contains(key)) {
                value = nullptr;
                break;
            }
            value = &(*value)[key];
        }
        std::string text;
        if (!value)
            continue;
        if (annotation.type == "string" && value->is_string())
            text = value->get<std::string>();
        else if (annotation.type == "boolean" && value->is_boolean())
            text = value->get<bool>() ? "true" : "false";
        else if (annotation.type == "integer" && isSafeInteger(*value))
            text = value->dump();
        else
            continue;
        headers.emplace_back("Mcp-Param-" + annotation.name, McpRevision::encodeHeaderValue(text));
    }
    return headers;
}

QString McpParamHeaders::oversized(const std::vector<std::pair<std::string, std::string>> &headers)
{
    std::size_t total = 0;
    const std::pair<std::string, std::string> *largest = nullptr;
    for (const auto &header : headers) {
        total += header.first.size() + 2 + header.second.size();
        if (!largest || header.second.size() > largest->second.size())
            largest = &header;
    }
    if (total <= MaxHeaderBytes)
        return {};
    return tr("not sent: the arguments the tool mirrors into HTTP headers (x-mcp-header) come to %1 bytes as "
              "headers, the largest %2 with a value of %3 bytes; at most %4 go into a request's headers, as servers "
              "refuse larger ones: pass shorter values")
        .arg(total)
        .arg(QString::fromStdString(largest->first))
        .arg(largest->second.size())
        .arg(MaxHeaderBytes);
}
