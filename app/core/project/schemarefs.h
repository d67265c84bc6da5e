// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

/// The `$ref`s of a schema document, checked before anything recurses through them.
///
/// A schema comes from outside (a tool file, an imported tool list, an MCP server), and
/// both valijson's parser and the studio's own compiler recurse through `$ref`s: a ref
/// chain that comes back to itself, or refs that lead from definition to definition
/// hundreds of levels deep, overflow the stack. valijson also resolves a ref by rules of
/// its own (a relative URI such as "object" names the document root, empty pointer
/// tokens are skipped, a trailing "/" is dropped), so a check done with other rules
/// misses what valijson then follows. Here every `$ref` is resolved once, by one rule —
/// a local JSON Pointer ("#/definitions/a"), nothing else — and valijson is given a copy
/// of the document in which each ref is spelt so that it finds the same target, or
/// cannot be followed at all.
namespace SchemaRefs {

/// A JSON Pointer token escaped: '~' → "~0", '/' → "~1".
std::string escapeToken(const std::string &token);

/// "#/definitions/a%20b" → "/definitions/a b"; nullopt for what is not a local pointer.
std::optional<std::string> localPointer(const std::string &ref);

/// What a local `$ref` names in a document.
struct Target
{
    const nlohmann::json *value = nullptr;
    std::string pointer; ///< the JSON Pointer of `value`, escaped ("~0", "~1") and canonical
};

/// The value `ref` names in `document`, or nullopt when it is not a local pointer or
/// names nothing there.
std::optional<Target> resolve(const nlohmann::json &document, const std::string &ref);

/// Every `$ref` of a schema, checked: what valijson may parse, or why nothing may.
struct Checked
{
    /// Why the schema cannot be compiled (refs that nest too deep), or empty.
    QString error;
    /// The copy of the schema valijson parses: each ref spelt so that valijson finds
    /// the target resolve() finds, or (a ref that names nothing, a loop) so that
    /// valijson stops there with an error explain() turns into a sentence.
    nlohmann::json parserView;
    std::vector<QString> unfollowable;

    /// The sentence for valijson's error `what` when it stopped at an unfollowable ref;
    /// empty otherwise.
    QString explain(const std::string &what) const;
};

/// Checks every `$ref` in `schema`, wherever it is (a `$ref` in data that is never
/// applied costs nothing). Refs nesting deeper than `maxDepth` levels in all — the
/// nesting of each subschema a ref leads to, summed along the longest way through
/// them — make `error`.
Checked check(const nlohmann::json &schema, int maxDepth);

} // namespace SchemaRefs
