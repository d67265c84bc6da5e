// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemawalk.h"

#include "project/jsonqt.h"
#include "project/schemaequality.h"
#include "project/schemanode.h"
#include "project/schemanumbers.h"
#include "project/schemapattern.h"
#include "project/schematext.h"

#include <QStringList>

#include <algorithm>
#include <unordered_map>

namespace {

/// Thrown out of the walk when the value cannot be checked within the bounds.
struct Abandon
{
    SchemaValidator::Failure failure;
};

bool hasType(unsigned types, const nlohmann::json &value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return types & SchemaNode::NullType;
    case nlohmann::json::value_t::boolean:
        return types & SchemaNode::BooleanType;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return types & (SchemaNode::IntegerType | SchemaNode::NumberType);
    case nlohmann::json::value_t::number_float:
        // As valijson's strong types did: 1.0 is a number, not an integer.
        return types & SchemaNode::NumberType;
    case nlohmann::json::value_t::string:
        return types & SchemaNode::StringType;
    case nlohmann::json::value_t::array:
        return types & SchemaNode::ArrayType;
    case nlohmann::json::value_t::object:
        return types & SchemaNode::ObjectType;
    default:
        return false;
    }
}

} // namespace

struct SchemaWalk::Descend
{
    Descend(SchemaWalk &walk, Token token)
        : m_walk(walk)
    {
        m_walk.m_path.push_back(token);
    }
    ~Descend() { m_walk.m_path.pop_back(); }
    SchemaWalk &m_walk;
};

SchemaWalk::SchemaWalk(const SchemaValidator::Limits &limits)
    : m_limits(limits)
    , m_deadline(std::chrono::steady_clock::now() + limits.timeBudget)
{}

std::optional<SchemaValidator::Failure> SchemaWalk::run(const SchemaNode &root, const nlohmann::json &value)
{
    SchemaValidator::Failure failure;
    try {
        if (eval(root, value, &failure))
            return std::nullopt;
    } catch (const Abandon &abandoned) {
        return abandoned.failure;
    }
    return failure;
}

bool SchemaWalk::eval(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out)
{
    if ((++m_steps & 1023) == 0)
        checkTime();
    if (m_depth >= m_limits.maxDepth)
        abandon(QStringLiteral("the schema applies more than %1 nested subschemas here (a $ref loop that does not "
                               "descend into the value, or a value nested too deeply); validation was abandoned")
                    .arg(m_limits.maxDepth));
    ++m_depth;
    const bool ok = evalNode(node, value, out);
    --m_depth;
    return ok;
}

QString SchemaWalk::pointer(const std::string *extra) const
{
    QString text;
    for (const Token &token : m_path)
        text += QLatin1Char('/')
            + (token.name ? SchemaText::escapePointerToken(JsonQt::fromStd(*token.name))
                          : QString::number(qulonglong(token.index)));
    if (extra)
        text += QLatin1Char('/') + SchemaText::escapePointerToken(JsonQt::fromStd(*extra));
    return text;
}

bool SchemaWalk::fail(SchemaValidator::Failure *out, const QString &message, const std::string *extra)
{
    if (out) {
        out->pointer = pointer(extra);
        out->message = message;
    }
    return false;
}

void SchemaWalk::abandon(const QString &message, const std::string *extra)
{
    SchemaValidator::Failure failure;
    failure.pointer = pointer(extra);
    failure.message = message;
    failure.abandoned = true;
    throw Abandon{failure};
}

void SchemaWalk::checkTime()
{
    if (std::chrono::steady_clock::now() > m_deadline)
        abandon(QStringLiteral("validation took longer than its %1 ms bound and was abandoned here; send smaller "
                               "arguments or simplify the schema")
                    .arg(qlonglong(m_limits.timeBudget.count())));
}

/// Searches `subject` for `pattern`; an abandoned match abandons the whole call
/// (under `not` or `anyOf`, "no match" would decide the result wrongly).
bool SchemaWalk::search(const SchemaPattern &pattern, const std::string &subject, bool isName, const std::string *name)
{
    const SchemaPattern::Result result = pattern.search(subject, m_limits);
    checkTime();
    if (result.outcome == SchemaPattern::Outcome::Match)
        return true;
    if (result.outcome == SchemaPattern::Outcome::NoMatch)
        return false;
    const QString what = isName ? QStringLiteral("the property name") : QStringLiteral("this string");
    if (result.outcome == SchemaPattern::Outcome::BadUtf8)
        abandon(QStringLiteral("%1 is not valid UTF-8; it cannot be matched against the pattern %2")
                    .arg(what, SchemaText::shortPattern(pattern.source())),
                name);
    abandon(QStringLiteral("matching %1 (%2 bytes) against the pattern %3 was abandoned at %4: the pattern "
                           "backtracks too much on it; simplify the pattern (e.g. no nested quantifiers) or send "
                           "a shorter value")
                .arg(what)
                .arg(qulonglong(subject.size()))
                .arg(SchemaText::shortPattern(pattern.source()), result.bound),
            name);
}

bool SchemaWalk::equal(const nlohmann::json &a, const nlohmann::json &b)
{
    const auto result = SchemaEquality::equal(a, b, m_limits.maxDepth);
    if (!result)
        abandon(QStringLiteral("the value is nested deeper than %1 levels; validation was abandoned")
                    .arg(m_limits.maxDepth));
    return *result;
}

bool SchemaWalk::evalNode(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out)
{
    if (node.constant)
        return *node.constant || fail(out, QStringLiteral("no value is allowed here (the schema is false)"));
    if (node.ref)
        return eval(*node.ref, value, out);

    if (node.types && !hasType(node.types, value)) {
        QStringList expected;
        const nlohmann::json &type = node.source->at("type");
        for (const auto &t : type.is_array() ? type : nlohmann::json::array({type}))
            if (t.is_string())
                expected << JsonQt::fromStd(t.get<std::string>());
        return fail(out,
                    QStringLiteral("expected %1, got %2")
                        .arg(expected.join(QStringLiteral(" or ")), SchemaText::typeName(value)));
    }
    if (node.enumValues) {
        bool found = false;
        for (const auto &allowed : *node.enumValues)
            if ((found = equal(allowed, value)))
                break;
        if (!found) {
            QStringList allowed;
            for (const auto &v : *node.enumValues) {
                if (allowed.size() == 10) {
                    allowed << QStringLiteral("...");
                    break;
                }
                allowed << SchemaText::shortDump(v);
            }
            return fail(out,
                        QStringLiteral("must be one of %1 (got %2)")
                            .arg(allowed.join(QStringLiteral(", ")), SchemaText::shortDump(value)));
        }
    }
    if (node.constValue && !equal(*node.constValue, value))
        return fail(out, QStringLiteral("must be %1").arg(SchemaText::shortDump(*node.constValue)));

    if (value.is_number() && !checkNumber(node, value, out))
        return false;
    if (value.is_string() && !checkString(node, value.get_ref<const std::string &>(), out))
        return false;
    if (value.is_array() && !checkArray(node, value, out))
        return false;
    if (value.is_object() && !checkObject(node, value, out))
        return false;
    return checkCombinators(node, value, out);
}

bool SchemaWalk::checkNumber(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out)
{
    const auto bound = [&](const nlohmann::json *limit, bool (*holds)(int), const char *words) {
        if (!limit)
            return true;
        const auto r = SchemaNumbers::compare(value, *limit);
        return (r && holds(*r))
            || fail(out,
                    QStringLiteral("expected number %1 %2")
                        .arg(QLatin1StringView(words), SchemaText::shortDump(*limit)));
    };
    return bound(
               node.minimum, [](int r) { return r >= 0; }, "greater than or equal to")
        && bound(
               node.exclusiveMinimum, [](int r) { return r > 0; }, "greater than")
        && bound(
               node.maximum, [](int r) { return r <= 0; }, "less than or equal to")
        && bound(
               node.exclusiveMaximum, [](int r) { return r < 0; }, "less than")
        && (!node.multipleOf || SchemaNumbers::isMultipleOf(value, *node.multipleOf)
            || fail(out, QStringLiteral("expected a multiple of %1").arg(SchemaText::shortDump(*node.multipleOf))));
}

bool SchemaWalk::checkString(const SchemaNode &node, const std::string &text, SchemaValidator::Failure *out)
{
    if (node.minLength || node.maxLength) {
        // Code points, as JSON Schema counts: every byte that does not continue one.
        const auto length
            = std::uint64_t(std::count_if(text.begin(), text.end(), [](char c) { return (uchar(c) & 0xC0) != 0x80; }));
        if (node.minLength && length < *node.minLength)
            return fail(out,
                        QStringLiteral("expected a string of at least %1 characters, got %2")
                            .arg(qulonglong(*node.minLength))
                            .arg(qulonglong(length)));
        if (node.maxLength && length > *node.maxLength)
            return fail(out,
                        QStringLiteral("expected a string of at most %1 characters, got %2")
                            .arg(qulonglong(*node.maxLength))
                            .arg(qulonglong(length)));
    }
    if (node.pattern && !search(*node.pattern, text, false, nullptr))
        return fail(
            out, QStringLiteral("does not match the pattern %1").arg(SchemaText::shortPattern(node.pattern->source())));
    return SchemaFormat::matches(node.format, text) || fail(out, SchemaFormat::expectation(node.format));
}

bool SchemaWalk::checkArray(const SchemaNode &node, const nlohmann::json &array, SchemaValidator::Failure *out)
{
    for (std::size_t i = 0; i < array.size(); ++i) {
        const SchemaNode *schema
            = node.tuple ? (i < node.tupleItems.size() ? node.tupleItems[i] : node.additionalItems) : node.items;
        if (!schema)
            continue;
        Descend descend(*this, {nullptr, i});
        if (!eval(*schema, array[i], out))
            return false;
    }
    if (node.minItems && array.size() < *node.minItems)
        return fail(out,
                    QStringLiteral("expected at least %1 items, got %2")
                        .arg(qulonglong(*node.minItems))
                        .arg(qulonglong(array.size())));
    if (node.maxItems && array.size() > *node.maxItems)
        return fail(out,
                    QStringLiteral("expected at most %1 items, got %2")
                        .arg(qulonglong(*node.maxItems))
                        .arg(qulonglong(array.size())));
    if (node.uniqueItems && array.size() > 1) {
        // Near-linear: a hash of each item's canonical form, exact equality only
        // between items whose hashes collide.
        std::unordered_multimap<std::uint64_t, std::size_t> seen;
        seen.reserve(array.size());
        for (std::size_t i = 0; i < array.size(); ++i) {
            if ((++m_steps & 1023) == 0)
                checkTime();
            const auto hash = SchemaEquality::hash(array[i], m_limits.maxDepth);
            if (!hash) {
                Descend descend(*this, {nullptr, i});
                abandon(QStringLiteral("the value is nested deeper than %1 levels; validation was abandoned")
                            .arg(m_limits.maxDepth));
            }
            const auto [first, last] = seen.equal_range(*hash);
            for (auto it = first; it != last; ++it)
                if (equal(array[it->second], array[i]))
                    return fail(out,
                                QStringLiteral("items %1 and %2 are equal; items must be unique")
                                    .arg(qulonglong(it->second))
                                    .arg(qulonglong(i)));
            seen.emplace(*hash, i);
        }
    }
    if (node.contains) {
        bool found = false;
        for (std::size_t i = 0; i < array.size() && !found; ++i) {
            Descend descend(*this, {nullptr, i});
            found = eval(*node.contains, array[i], nullptr);
        }
        if (!found)
            return fail(out, QStringLiteral("expected at least one item that matches \"contains\""));
    }
    return true;
}

bool SchemaWalk::checkObject(const SchemaNode &node, const nlohmann::json &object, SchemaValidator::Failure *out)
{
    for (const std::string &name : node.required)
        if (!object.contains(name))
            return fail(out, QStringLiteral("required property is missing"), &name);
    const bool membersChecked = !node.properties.empty() || !node.patternProperties.empty() || node.additionalProperties
        || node.propertyNames;
    for (auto it = object.begin(); membersChecked && it != object.end(); ++it) {
        const std::string &name = it.key();
        Descend descend(*this, {&name, 0});
        bool matched = false;
        if (const auto property = node.properties.find(name); property != node.properties.end()) {
            matched = true;
            if (!eval(*property->second, it.value(), out))
                return false;
        }
        for (const auto &[regex, schema] : node.patternProperties) {
            if (!search(*regex, name, true, nullptr))
                continue;
            matched = true;
            if (!eval(*schema, it.value(), out))
                return false;
        }
        // additionalProperties applies to members that neither properties nor
        // patternProperties named (draft 7, 6.5.6).
        if (!matched && node.additionalProperties) {
            if (node.additionalProperties->constant == false)
                return fail(out, QStringLiteral("property is not allowed by the schema"));
            if (!eval(*node.additionalProperties, it.value(), out))
                return false;
        }
        if (node.propertyNames) {
            SchemaValidator::Failure nameFailure;
            if (!eval(*node.propertyNames, nlohmann::json(name), out ? &nameFailure : nullptr))
                return fail(out,
                            QStringLiteral("property name %1: %2")
                                .arg(SchemaText::shortDump(nlohmann::json(name)), nameFailure.message));
        }
    }
    for (const auto &[trigger, names] : node.dependentRequired) {
        if (!object.contains(trigger))
            continue;
        for (const std::string &name : names)
            if (!object.contains(name))
                return fail(out,
                            QStringLiteral("required property is missing (%1 is present and depends on it)")
                                .arg(SchemaText::shortDump(nlohmann::json(trigger))),
                            &name);
    }
    for (const auto &[trigger, schema] : node.dependentSchemas)
        if (object.contains(trigger) && !eval(*schema, object, out))
            return false;
    if (node.minProperties && object.size() < *node.minProperties)
        return fail(out,
                    QStringLiteral("expected at least %1 properties, got %2")
                        .arg(qulonglong(*node.minProperties))
                        .arg(qulonglong(object.size())));
    if (node.maxProperties && object.size() > *node.maxProperties)
        return fail(out,
                    QStringLiteral("expected at most %1 properties, got %2")
                        .arg(qulonglong(*node.maxProperties))
                        .arg(qulonglong(object.size())));
    return true;
}

/// "does not match any of the anyOf schemas (the first: /a: expected string, got integer)"
bool SchemaWalk::failBranches(SchemaValidator::Failure *out, const char *keyword, const SchemaValidator::Failure &first)
{
    if (!out)
        return false;
    const QString here = pointer();
    const QString detail = first.pointer == here
        ? first.message
        : (first.pointer.isEmpty() ? QStringLiteral("(root)") : first.pointer) + QStringLiteral(": ") + first.message;
    return fail(
        out,
        QStringLiteral("does not match any of the %1 schemas (the first: %2)").arg(QLatin1StringView(keyword), detail));
}

bool SchemaWalk::checkCombinators(const SchemaNode &node, const nlohmann::json &value, SchemaValidator::Failure *out)
{
    for (const SchemaNode *branch : node.allOf)
        if (!eval(*branch, value, out))
            return false;
    if (!node.anyOf.empty()) {
        SchemaValidator::Failure first;
        bool any = false;
        for (std::size_t i = 0; i < node.anyOf.size() && !any; ++i)
            any = eval(*node.anyOf[i], value, out && i == 0 ? &first : nullptr);
        if (!any)
            return failBranches(out, "anyOf", first);
    }
    if (!node.oneOf.empty()) {
        SchemaValidator::Failure first;
        std::vector<std::size_t> matching;
        for (std::size_t i = 0; i < node.oneOf.size() && matching.size() < 2; ++i)
            if (eval(*node.oneOf[i], value, out && i == 0 ? &first : nullptr))
                matching.push_back(i);
        if (matching.empty())
            return failBranches(out, "oneOf", first);
        if (matching.size() > 1)
            return fail(out,
                        QStringLiteral("matches more than one of the oneOf schemas (%1 and %2)")
                            .arg(qulonglong(matching[0]))
                            .arg(qulonglong(matching[1])));
    }
    if (node.notSchema && eval(*node.notSchema, value, nullptr))
        return fail(out, QStringLiteral("must not match the \"not\" schema"));
    if (node.ifSchema) {
        const SchemaNode *next = eval(*node.ifSchema, value, nullptr) ? node.thenSchema : node.elseSchema;
        if (next && !eval(*next, value, out))
            return false;
    }
    return true;
}
