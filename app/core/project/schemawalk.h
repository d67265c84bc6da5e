// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/schemavalidator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class SchemaPattern;
struct SchemaNode;

/// One SchemaValidator::validate() call: applies compiled SchemaNodes to a value in the
/// evaluator's order (type, enum/const, the keywords of the value's kind, object
/// members, then allOf/anyOf/oneOf/not/if), keeping the path to the current field for
/// the failure's pointer and the call's bounds (time budget, nesting depth, the regex
/// limits). Used once, on one thread.
class SchemaWalk
{
public:
    explicit SchemaWalk(const SchemaValidator::Limits &limits);

    /// nullopt when `value` is valid against `root`, else its first bad field; a value
    /// that could not be checked within the limits fails with `abandoned` set.
    std::optional<SchemaValidator::Failure> run(const SchemaNode &root, const nlohmann::json &value);

private:
    /// A member name or an item index on the way from the root to the current value.
    struct Token
    {
        const std::string *name = nullptr;
        std::size_t index = 0;
    };
    struct Descend;

    bool eval(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out);
    QString pointer(const std::string *extra = nullptr) const;
    bool fail(SchemaValidator::Failure *out, const QString &message, const std::string *extra = nullptr);
    [[noreturn]] void abandon(const QString &message, const std::string *extra = nullptr);
    void checkTime();
    bool search(const SchemaPattern &pattern, const std::string &subject, bool isName, const std::string *name);
    bool equal(const nlohmann::json &a, const nlohmann::json &b);

    bool evalNode(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out);
    bool checkNumber(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out);
    bool checkString(const SchemaNode &node, const std::string &text, SchemaValidator::Failure *out);
    bool checkArray(const SchemaNode &node, const nlohmann::json &array, SchemaValidator::Failure *out);
    bool checkObject(const SchemaNode &node, const nlohmann::json &object, SchemaValidator::Failure *out);
    bool failBranches(SchemaValidator::Failure *out, const char *keyword, const SchemaValidator::Failure &first);
    bool checkCombinators(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out);

    const SchemaValidator::Limits &m_limits;
    std::chrono::steady_clock::time_point m_deadline;
    std::uint64_t m_steps = 0;
    int m_depth = 0;
    std::vector<Token> m_path;
};
