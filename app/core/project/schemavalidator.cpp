// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemavalidator.h"

// valijson aborts the process on a bad schema unless exceptions are enabled.
#define VALIJSON_USE_EXCEPTIONS 1
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <QRegularExpression>
#include <QStringList>

#include <regex>
#include <utility>
#include <vector>

struct SchemaValidatorState
{
    nlohmann::json document;
    valijson::Schema schema;
};

namespace {

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString escapePointerToken(QString token)
{
    token.replace(QLatin1Char('~'), QStringLiteral("~0"));
    token.replace(QLatin1Char('/'), QStringLiteral("~1"));
    return token;
}

/// valijson's context is {"<root>", "[items]", "[2]", "[price]"}; the tokens without
/// their brackets.
std::vector<std::string> contextTokens(const std::vector<std::string> &context)
{
    std::vector<std::string> tokens;
    for (const std::string &element : context) {
        if (element == "<root>")
            continue;
        if (element.size() >= 2 && element.front() == '[' && element.back() == ']')
            tokens.push_back(element.substr(1, element.size() - 2));
        else
            tokens.push_back(element);
    }
    return tokens;
}

QString pointerOf(const std::vector<std::string> &tokens)
{
    QString pointer;
    for (const std::string &token : tokens)
        pointer += QLatin1Char('/') + escapePointerToken(fromStd(token));
    return pointer;
}

QString typeNameOf(const nlohmann::json &value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return QStringLiteral("null");
    case nlohmann::json::value_t::boolean:
        return QStringLiteral("boolean");
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return QStringLiteral("integer");
    case nlohmann::json::value_t::number_float:
        return QStringLiteral("number");
    case nlohmann::json::value_t::string:
        return QStringLiteral("string");
    case nlohmann::json::value_t::array:
        return QStringLiteral("array");
    case nlohmann::json::value_t::object:
        return QStringLiteral("object");
    default:
        return QStringLiteral("value");
    }
}

QString shortDump(const nlohmann::json &value)
{
    QString text = fromStd(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (text.size() > 60)
        text = text.left(57) + QStringLiteral("...");
    return text;
}

/// Follows a local "$ref" ("#/definitions/x"); other refs are left alone.
const nlohmann::json *resolveRef(const nlohmann::json &root, const nlohmann::json *schema)
{
    for (int hops = 0; schema && schema->is_object() && hops < 16; ++hops) {
        const auto ref = schema->find("$ref");
        if (ref == schema->end() || !ref->is_string())
            return schema;
        const std::string target = ref->get<std::string>();
        if (target.empty() || target[0] != '#')
            return schema;
        try {
            schema = &root.at(nlohmann::json::json_pointer(target.substr(1)));
        } catch (const nlohmann::json::exception &) {
            return nullptr;
        }
    }
    return schema;
}

/// Best effort: the subschema that applies to the value at `tokens` (through
/// properties, additionalProperties, items and additionalItems), for wording messages.
const nlohmann::json *subschemaAt(const nlohmann::json &root, const nlohmann::json &value,
                                  const std::vector<std::string> &tokens)
{
    const nlohmann::json *schema = resolveRef(root, &root);
    const nlohmann::json *current = &value;
    for (const std::string &token : tokens) {
        if (!schema || !schema->is_object() || !current)
            return nullptr;
        const nlohmann::json *next = nullptr;
        if (current->is_object()) {
            const auto properties = schema->find("properties");
            if (properties != schema->end() && properties->is_object() && properties->contains(token))
                next = &(*properties)[token];
            else if (const auto additional = schema->find("additionalProperties");
                     additional != schema->end() && additional->is_object())
                next = &*additional;
            const auto member = current->find(token);
            current = member == current->end() ? nullptr : &*member;
        } else if (current->is_array()) {
            std::size_t index = 0;
            try {
                index = std::stoul(token);
            } catch (const std::exception &) {
                return nullptr;
            }
            const auto items = schema->find("items");
            if (items != schema->end() && items->is_object()) {
                next = &*items;
            } else if (items != schema->end() && items->is_array()) {
                if (index < items->size())
                    next = &(*items)[index];
                else if (const auto additional = schema->find("additionalItems");
                         additional != schema->end() && additional->is_object())
                    next = &*additional;
            }
            current = index < current->size() ? &(*current)[index] : nullptr;
        } else {
            return nullptr;
        }
        schema = resolveRef(root, next);
    }
    return schema;
}

const nlohmann::json *valueAt(const nlohmann::json &value, const std::vector<std::string> &tokens)
{
    const nlohmann::json *current = &value;
    for (const std::string &token : tokens) {
        if (current->is_object()) {
            const auto member = current->find(token);
            if (member == current->end())
                return nullptr;
            current = &*member;
        } else if (current->is_array()) {
            std::size_t index = 0;
            try {
                index = std::stoul(token);
            } catch (const std::exception &) {
                return nullptr;
            }
            if (index >= current->size())
                return nullptr;
            current = &(*current)[index];
        } else {
            return nullptr;
        }
    }
    return current;
}

/// "Expected number less than 10.000000." → "expected number less than 10"
QString wordedDescription(const std::string &description)
{
    QString text = fromStd(description).trimmed();
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    static const QRegularExpression trailingZeros(QStringLiteral("(\\d+)\\.(\\d*?)0+\\b"));
    text.replace(trailingZeros, QStringLiteral("\\1.\\2"));
    static const QRegularExpression danglingDot(QStringLiteral("(\\d+)\\.(?!\\d)"));
    text.replace(danglingDot, QStringLiteral("\\1"));
    if (!text.isEmpty())
        text[0] = text[0].toLower();
    return text;
}

bool isTypeError(const valijson::ValidationResults::Error &error)
{
    return error.description.rfind("Value type not permitted", 0) == 0;
}

/// Single-quoted name at the end of a valijson description: "… property 'quote'." → quote
std::string quotedName(const std::string &description)
{
    const auto last = description.rfind('\'');
    if (last == std::string::npos || last == 0)
        return {};
    const auto first = description.rfind('\'', last - 1);
    if (first == std::string::npos)
        return {};
    return description.substr(first + 1, last - first - 1);
}

SchemaValidator::Failure describe(const nlohmann::json &schemaRoot, const nlohmann::json &value,
                                  const valijson::ValidationResults::Error &error)
{
    std::vector<std::string> tokens = contextTokens(error.context);
    const nlohmann::json *schema = subschemaAt(schemaRoot, value, tokens);
    const nlohmann::json *actual = valueAt(value, tokens);
    SchemaValidator::Failure failure;

    if (error.description.rfind("Missing required property", 0) == 0) {
        tokens.push_back(quotedName(error.description));
        failure.pointer = pointerOf(tokens);
        failure.message = QStringLiteral("required property is missing");
        return failure;
    }
    if (error.description.rfind("Object contains a property that could not be validated", 0) == 0) {
        tokens.push_back(quotedName(error.description));
        failure.pointer = pointerOf(tokens);
        failure.message = QStringLiteral("property is not allowed by the schema");
        return failure;
    }

    failure.pointer = pointerOf(tokens);
    const QString got = actual ? typeNameOf(*actual) : QString();
    if (isTypeError(error)) {
        QStringList expected;
        if (schema && schema->is_object()) {
            const auto type = schema->find("type");
            if (type != schema->end() && type->is_string())
                expected << fromStd(type->get<std::string>());
            else if (type != schema->end() && type->is_array())
                for (const auto &t : *type)
                    if (t.is_string())
                        expected << fromStd(t.get<std::string>());
        }
        if (!expected.isEmpty())
            failure.message = QStringLiteral("expected %1, got %2").arg(expected.join(QStringLiteral(" or ")), got);
        else
            failure.message = QStringLiteral("type %1 is not allowed here").arg(got);
        return failure;
    }
    if (error.description.rfind("Failed to match against any enum values", 0) == 0 && schema && schema->is_object()
        && schema->contains("enum") && (*schema)["enum"].is_array()) {
        QStringList allowed;
        for (const auto &v : (*schema)["enum"]) {
            if (allowed.size() == 10) {
                allowed << QStringLiteral("...");
                break;
            }
            allowed << shortDump(v);
        }
        failure.message = QStringLiteral("must be one of %1").arg(allowed.join(QStringLiteral(", ")));
        if (actual)
            failure.message += QStringLiteral(" (got %1)").arg(shortDump(*actual));
        return failure;
    }
    if (error.description.rfind("Failed to match regex", 0) == 0 && schema && schema->is_object()
        && schema->contains("pattern") && (*schema)["pattern"].is_string()) {
        failure.message = QStringLiteral("does not match the pattern %1").arg(shortDump((*schema)["pattern"]));
        return failure;
    }
    if (error.description.rfind("Failed to match expected value set by 'const'", 0) == 0 && schema
        && schema->is_object() && schema->contains("const")) {
        failure.message = QStringLiteral("must be %1").arg(shortDump((*schema)["const"]));
        return failure;
    }
    failure.message = wordedDescription(error.description);
    return failure;
}

/// std::regex throws on first use of a bad pattern, i.e. in the middle of a call;
/// check every "pattern" and "patternProperties" key up front.
bool checkPatterns(const nlohmann::json &schema, QString *error)
{
    if (schema.is_array()) {
        for (const auto &element : schema)
            if (!checkPatterns(element, error))
                return false;
        return true;
    }
    if (!schema.is_object())
        return true;
    auto tryRegex = [error](const std::string &pattern) {
        try {
            std::regex re(pattern);
            return true;
        } catch (const std::regex_error &e) {
            if (error)
                *error = QStringLiteral("invalid regular expression %1: %2")
                             .arg(shortDump(nlohmann::json(pattern)), fromStd(e.what()));
            return false;
        }
    };
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        if (it.key() == "pattern" && it->is_string() && !tryRegex(it->get<std::string>()))
            return false;
        if (it.key() == "patternProperties" && it->is_object())
            for (auto p = it->begin(); p != it->end(); ++p)
                if (!tryRegex(p.key()))
                    return false;
        if (it.key() == "enum" || it.key() == "const" || it.key() == "default" || it.key() == "examples")
            continue; // data, not schema
        if (!checkPatterns(*it, error))
            return false;
    }
    return true;
}

} // namespace

QString SchemaValidator::Failure::toString() const
{
    return QStringLiteral("%1: %2").arg(pointer.isEmpty() ? QStringLiteral("(root)") : pointer, message);
}

SchemaValidator::SchemaValidator()
    : d(std::make_unique<SchemaValidatorState>())
{}

SchemaValidator::~SchemaValidator() = default;

namespace {

/// Where `$ref`s live in `node` (a schema or part of one): the first whose target is
/// not in `root` — a local pointer ("#/definitions/x") that names nothing, or a ref to
/// another document, which is never fetched. `at` is the JSON pointer of `node`.
/// Values that are data, not schemas (enum, const, default, examples), are skipped.
std::optional<std::pair<std::string, QString>> danglingRef(const nlohmann::json &root, const nlohmann::json &node,
                                                           const QString &at)
{
    if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i)
            if (auto found = danglingRef(root, node[i], at + QLatin1Char('/') + QString::number(i)))
                return found;
        return std::nullopt;
    }
    if (!node.is_object())
        return std::nullopt;
    if (const auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
        const std::string target = ref->get<std::string>();
        bool resolves = !target.empty() && target[0] == '#';
        if (resolves) {
            try {
                resolves = root.contains(nlohmann::json::json_pointer(target.substr(1)));
            } catch (const nlohmann::json::exception &) {
                resolves = false; // "#name" (not a pointer) or a malformed pointer
            }
        }
        if (!resolves)
            return std::pair{target, at.isEmpty() ? QStringLiteral("/") : at};
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (it.key() == "enum" || it.key() == "const" || it.key() == "default" || it.key() == "examples")
            continue;
        if (auto found = danglingRef(root, it.value(), at + QLatin1Char('/') + escapePointerToken(fromStd(it.key()))))
            return found;
    }
    return std::nullopt;
}

/// Why a schema with a `$ref` that valijson could not follow does not compile, in
/// words a person can act on (valijson's own message names a pointer token only).
QString danglingRefMessage(const std::string &target, const QString &at)
{
    const QString ref = fromStd(target);
    if (target.empty() || target[0] != '#')
        return QStringLiteral("$ref \"%1\" at %2 could not be resolved: references to other documents are not "
                              "fetched; copy the definition into this schema (under \"definitions\") and refer to it "
                              "as \"#/definitions/NAME\"")
            .arg(ref, at);
    return QStringLiteral("$ref \"%1\" at %2 could not be resolved: this schema has nothing at \"%3\"; add the "
                          "definition there (e.g. under \"definitions\") or correct the $ref")
        .arg(ref, at, ref.mid(1));
}

} // namespace

std::unique_ptr<SchemaValidator> SchemaValidator::compile(const nlohmann::json &schema, QString *error)
{
    if (!schema.is_object() && !schema.is_boolean()) {
        if (error)
            *error = QStringLiteral("a schema must be a JSON object (got %1)").arg(typeNameOf(schema));
        return nullptr;
    }
    if (!checkPatterns(schema, error))
        return nullptr;
    std::unique_ptr<SchemaValidator> validator(new SchemaValidator);
    validator->d->document = schema;
    try {
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        const valijson::adapters::NlohmannJsonAdapter adapter(validator->d->document);
        parser.populateSchema(adapter, validator->d->schema);
    } catch (const std::exception &e) {
        // valijson reports a $ref it cannot follow with a bare pointer token
        // ("Expected reference token to identify an element …"): name the $ref instead.
        if (error) {
            const auto dangling = danglingRef(schema, schema, QString());
            *error = dangling ? danglingRefMessage(dangling->first, dangling->second) : fromStd(e.what());
        }
        return nullptr;
    }
    return validator;
}

std::optional<SchemaValidator::Failure> SchemaValidator::validate(const nlohmann::json &value) const
{
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    bool valid = false;
    QString thrown;
    try {
        const valijson::adapters::NlohmannJsonAdapter target(value);
        valid = validator.validate(d->schema, target, &results);
    } catch (const std::exception &e) {
        // The errors pushed before the throw still name the first bad field.
        thrown = fromStd(e.what());
    }
    if (valid)
        return std::nullopt;

    std::vector<valijson::ValidationResults::Error> errors;
    valijson::ValidationResults::Error error;
    while (results.popError(error))
        errors.push_back(error);
    if (errors.empty())
        return Failure{QString(), thrown.isEmpty() ? QStringLiteral("does not match the schema") : thrown};

    // Children report before their parents, so the first error is the deepest field
    // of the first failing branch. At that same field a type error says more than,
    // e.g., a format error that valijson happened to check first.
    const valijson::ValidationResults::Error *chosen = &errors.front();
    for (const auto &candidate : errors) {
        if (candidate.context == errors.front().context && isTypeError(candidate)) {
            chosen = &candidate;
            break;
        }
    }
    return describe(d->document, value, *chosen);
}

const nlohmann::json &SchemaValidator::schema() const
{
    return d->document;
}
