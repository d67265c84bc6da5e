// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/schemanode.h"
#include "project/schemapattern.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <deque>
#include <map>
#include <memory>
#include <string>

/// Turns a schema document into SchemaNodes, one per subschema, and owns them: every
/// keyword read once, every `pattern` compiled once (SchemaPattern), every local `$ref`
/// resolved to the node it names (SchemaRefs). The document must outlive the compiler
/// and not change: the nodes point into it.
class SchemaCompiler
{
public:
    explicit SchemaCompiler(const nlohmann::json &document);

    /// The node of the subschema `schema` at `location` (a JSON pointer into the
    /// document, "" for the root); compiled on first use, so a $ref loop ends at the
    /// node being compiled. nullptr, with `error` set, for a `$ref` that resolves to
    /// nothing or a pattern PCRE2 refuses (named with where it is).
    const SchemaNode *compile(const nlohmann::json &schema, const std::string &location, QString *error);

private:
    const SchemaNode *sub(const nlohmann::json &object, const char *key, const std::string &location, QString *error,
                          bool *ok);
    const SchemaPattern *pattern(const std::string &source, const std::string &at, QString *error);
    bool fill(SchemaNode &node, const nlohmann::json &schema, const std::string &location, QString *error);

    const nlohmann::json &m_document;
    std::deque<SchemaNode> m_nodes;
    std::map<std::string, SchemaNode *> m_byLocation;
    std::map<std::string, std::unique_ptr<SchemaPattern>> m_patterns;
};
