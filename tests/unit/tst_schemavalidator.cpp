// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemavalidator.h"

#include <QElapsedTimer>
#include <QTest>

using json = nlohmann::json;

namespace {

QByteArray J(const char *text)
{
    // JSON with single quotes: moc does not know raw string literals.
    return QByteArray(text).replace('\'', '"');
}

const QByteArray ExchangeSchema = J(
    "{'type': 'object', 'properties': {'base': {'type': 'string'}, 'quote': {'type': 'string', 'enum': ['EUR', 'GBP']}, 'amount': {'type': 'number', 'minimum': 0, 'maximum': 10.5}}, 'required': ['base', 'quote']}");

const QByteArray OrderSchema = J(
    "{'type': 'object', 'properties': {'items': {'type': 'array', 'items': {'$ref': '#/definitions/item'}}, 'count': {'type': 'integer'}, 'strict': {'type': 'object', 'properties': {'a/b': {'type': 'boolean'}}, 'additionalProperties': false}}, 'definitions': {'item': {'type': 'object', 'properties': {'price': {'type': 'number'}, 'sku': {'type': 'string', 'pattern': '^[A-Z]{3}$'}}}}}");

} // namespace

class TestSchemaValidator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstBadField_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");

        QTest::newRow("missing required") << ExchangeSchema << J("{'base': 'USD'}") << QStringLiteral("/quote")
                                          << QStringLiteral("required property is missing");
        QTest::newRow("wrong type") << ExchangeSchema << J("{'base': 12, 'quote': 'EUR'}") << QStringLiteral("/base")
                                    << QStringLiteral("expected string, got integer");
        QTest::newRow("enum") << ExchangeSchema << J("{'base': 'USD', 'quote': 'JPY'}") << QStringLiteral("/quote")
                              << QStringLiteral("must be one of \"EUR\", \"GBP\" (got \"JPY\")");
        QTest::newRow("maximum") << ExchangeSchema << J("{'base': 'USD', 'quote': 'EUR', 'amount': 11}")
                                 << QStringLiteral("/amount")
                                 << QStringLiteral("expected number less than or equal to 10.5");
        QTest::newRow("root type") << ExchangeSchema << J("['USD', 'EUR']") << QString()
                                   << QStringLiteral("expected object, got array");
        QTest::newRow("nested array item")
            << OrderSchema << J("{'items': [{'price': 1}, {'price': 2.5}, {'price': '3'}]}")
            << QStringLiteral("/items/2/price") << QStringLiteral("expected number, got string");
        QTest::newRow("pattern") << OrderSchema << J("{'items': [{'sku': 'abc'}]}") << QStringLiteral("/items/0/sku")
                                 << QStringLiteral("does not match the pattern ^[A-Z]{3}$");
        QTest::newRow("integer") << OrderSchema << J("{'count': 1.5}") << QStringLiteral("/count")
                                 << QStringLiteral("expected integer, got number");
        QTest::newRow("additional property")
            << OrderSchema << J("{'strict': {'extra': 1}}") << QStringLiteral("/strict/extra")
            << QStringLiteral("property is not allowed by the schema");
        QTest::newRow("escaped pointer") << OrderSchema << J("{'strict': {'a/b': 'yes'}}")
                                         << QStringLiteral("/strict/a~1b")
                                         << QStringLiteral("expected boolean, got string");
        // pattern, patternProperties and format checked by the studio (PCRE2, by hand)
        // wherever they sit: under combinators, $ref, items, if/then.
        QTest::newRow("pattern in anyOf")
            << J("{'anyOf': [{'type': 'string', 'pattern': '^a'}, {'type': 'integer'}]}") << J("'b'") << QString()
            << QStringLiteral("does not match any of the anyOf schemas (the first: does not match the pattern ^a)");
        QTest::newRow("pattern under not") << J("{'not': {'pattern': 'x'}}") << J("'axb'") << QString()
                                           << QStringLiteral("must not match the \"not\" schema");
        QTest::newRow("pattern in oneOf, two match")
            << J("{'oneOf': [{'pattern': 'a'}, {'pattern': 'b'}, {'pattern': 'c'}]}") << J("'ab'") << QString()
            << QStringLiteral("matches more than one of the oneOf schemas (0 and 1)");
        QTest::newRow("pattern via $ref, items, allOf")
            << J("{'definitions': {'code': {'allOf': [{'pattern': '^[A-Z]+$'}]}}, 'type': 'array', 'items': {'$ref': "
                 "'#/definitions/code'}}")
            << J("['AB', 'Cd']") << QStringLiteral("/1") << QStringLiteral("does not match the pattern ^[A-Z]+$");
        QTest::newRow("pattern in then") << J(
            "{'if': {'properties': {'kind': {'const': 'iso'}}}, 'then': {'properties': {'code': {'pattern': "
            "'^[A-Z]{3}$'}}}, 'else': {'properties': {'code': {'type': 'integer'}}}}")
                                         << J("{'kind': 'iso', 'code': 'usd'}") << QStringLiteral("/code")
                                         << QStringLiteral("does not match the pattern ^[A-Z]{3}$");
        QTest::newRow("pattern in else") << J(
            "{'if': {'properties': {'kind': {'const': 'iso'}}}, 'then': {'properties': {'code': {'pattern': "
            "'^[A-Z]{3}$'}}}, 'else': {'properties': {'code': {'type': 'integer'}}}}")
                                         << J("{'kind': 'num', 'code': 'usd'}") << QStringLiteral("/code")
                                         << QStringLiteral("expected integer, got string");
        QTest::newRow("pattern is a search, ^ anchors")
            << J("{'pattern': '^b'}") << J("'abc'") << QString() << QStringLiteral("does not match the pattern ^b");
        // ECMA-262: $ matches only at the end (PCRE2's default also before a final newline).
        QTest::newRow("$ only at the end") << J("{'pattern': '^a$'}") << QByteArray("\"a\\n\"") << QString()
                                           << QStringLiteral("does not match the pattern ^a$");
        QTest::newRow("pattern counts code points")
            << J("{'pattern': '^.{3}$'}") << QByteArray("\"\xc3\xa9t\xc3\xa9s\"") << QString()
            << QStringLiteral("does not match the pattern ^.{3}$");
        // The pattern as its author wrote it (issue 20): not JSON-escaped, controls made
        // visible, a long one cut at 57 characters and "...".
        QTest::newRow("pattern with a backslash, as written")
            << J("{'pattern': '^\\\\d{4}$'}") << J("'12345'") << QString()
            << QStringLiteral("does not match the pattern ^\\d{4}$");
        QTest::newRow("pattern with quotes, as written")
            << QByteArray("{\"pattern\": \"^\\\"[a-z]+\\\"$\"}") << J("'abc'") << QString()
            << QStringLiteral("does not match the pattern ^\"[a-z]+\"$");
        QTest::newRow("pattern with controls, made visible")
            << QByteArray("{\"pattern\": \"^a\\tb\\u001b\\u202e$\"}") << J("'ab'") << QString()
            << QStringLiteral("does not match the pattern ^a\\tb\\u001b\\u202e$");
        QTest::newRow("long pattern, cut")
            << "{\"pattern\": \"^" + QByteArray(70, 'x') + "$\"}" << J("'y'") << QString()
            << QStringLiteral("does not match the pattern ^") + QString(56, QLatin1Char('x')) + QStringLiteral("...");
        QTest::newRow("patternProperties decide additionalProperties")
            << J("{'patternProperties': {'^x-': {'type': 'string'}}, 'additionalProperties': false}")
            << J("{'x-a': 'ok', 'y': 1}") << QStringLiteral("/y")
            << QStringLiteral("property is not allowed by the schema");
        QTest::newRow("patternProperties schema")
            << J("{'patternProperties': {'^x-': {'type': 'string'}}, 'additionalProperties': false}") << J("{'x-a': 2}")
            << QStringLiteral("/x-a") << QStringLiteral("expected string, got integer");
        QTest::newRow("properties, patternProperties and additionalProperties")
            << J("{'properties': {'id': {}}, 'patternProperties': {'^n_': {'type': 'number'}}, 'additionalProperties': "
                 "{'type': 'string'}}")
            << J("{'id': 1, 'n_a': 2, 'z': 3}") << QStringLiteral("/z")
            << QStringLiteral("expected string, got integer");
        QTest::newRow("property and pattern both apply")
            << J("{'properties': {'n_a': {'minimum': 0}}, 'patternProperties': {'^n_': {'maximum': 5}}}")
            << J("{'n_a': 7}") << QStringLiteral("/n_a") << QStringLiteral("expected number less than or equal to 5");
        QTest::newRow("format date") << J("{'format': 'date'}") << J("'2023-02-29'") << QString()
                                     << QStringLiteral("expected a date (RFC 3339 full-date, e.g. 2026-12-01)");
        QTest::newRow("format time") << J("{'format': 'time'}") << J("'16:52:45|02:00'") << QString()
                                     << QStringLiteral(
                                            "expected a time (RFC 3339 full-time, e.g. 16:52:45Z or 16:52:45+02:00)");
        QTest::newRow("format date-time")
            << J("{'format': 'date-time'}") << J("'2026-12-01 16:52:45Z'") << QString()
            << QStringLiteral("expected a date-time (RFC 3339, e.g. 2026-12-01T16:52:45Z)");
        // Numbers compared exactly: int64, uint64 and double, no lossy conversion.
        QTest::newRow("2^64-1 vs maximum 2^63")
            << J("{'type': 'integer', 'maximum': 9223372036854775808}") << J("18446744073709551615") << QString()
            << QStringLiteral("expected number less than or equal to 9223372036854775808");
        QTest::newRow("2^64-1 vs maximum 100")
            << J("{'type': 'integer', 'maximum': 100}") << J("18446744073709551615") << QString()
            << QStringLiteral("expected number less than or equal to 100");
        QTest::newRow("2^64-1 vs exclusiveMaximum 2^64-1")
            << J("{'exclusiveMaximum': 18446744073709551615}") << J("18446744073709551615") << QString()
            << QStringLiteral("expected number less than 18446744073709551615");
        QTest::newRow("2^53+1 vs maximum 2^53")
            << J("{'maximum': 9007199254740992}") << J("9007199254740993") << QString()
            << QStringLiteral("expected number less than or equal to 9007199254740992");
        QTest::newRow("big negative vs minimum")
            << J("{'minimum': -9223372036854775807}") << J("-9223372036854775808") << QString()
            << QStringLiteral("expected number greater than or equal to -9223372036854775807");
        QTest::newRow("big negative vs exclusiveMinimum double")
            << J("{'exclusiveMinimum': -9.223372036854775808e18}") << J("-9223372036854775808") << QString()
            << QStringLiteral("expected number greater than -9.223372036854776e+18");
        QTest::newRow("fraction vs integer minimum") << J("{'minimum': 1}") << J("0.9999999999999999") << QString()
                                                     << QStringLiteral("expected number greater than or equal to 1");
        QTest::newRow("multipleOf 2, 2^64-1") << J("{'multipleOf': 2}") << J("18446744073709551615") << QString()
                                              << QStringLiteral("expected a multiple of 2");
        QTest::newRow("multipleOf 3, 1e20")
            << J("{'multipleOf': 3}") << J("1e20") << QString() << QStringLiteral("expected a multiple of 3");
        QTest::newRow("multipleOf 0.01") << J("{'multipleOf': 0.01}") << J("0.015") << QString()
                                         << QStringLiteral("expected a multiple of 0.01");
        QTest::newRow("const uint64") << J("{'const': 18446744073709551615}") << J("18446744073709551614") << QString()
                                      << QStringLiteral("must be 18446744073709551615");
        QTest::newRow("enum 2^53+1") << J("{'enum': [9007199254740993]}") << J("9007199254740992") << QString()
                                     << QStringLiteral("must be one of 9007199254740993 (got 9007199254740992)");
        QTest::newRow("uniqueItems 1 and 1.0") << J("{'uniqueItems': true}") << J("[0, 1, 1.0]") << QString()
                                               << QStringLiteral("items 1 and 2 are equal; items must be unique");
        QTest::newRow("uniqueItems objects in any order")
            << J("{'uniqueItems': true}") << J("[{'a': 1, 'b': [2]}, {'b': [2.0], 'a': 1}]") << QString()
            << QStringLiteral("items 0 and 1 are equal; items must be unique");
        QTest::newRow("format next to type")
            << J("{'type': 'object', 'properties': {'day': {'type': 'string', 'format': 'date'}}}") << J("{'day': 12}")
            << QStringLiteral("/day") << QStringLiteral("expected string, got integer");
    }

    void firstBadField()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, value);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        QString error;
        const auto validator = SchemaValidator::compile(json::parse(schema.constData()), &error);
        QVERIFY2(validator, qPrintable(error));
        const auto failure = validator->validate(json::parse(value.constData()));
        QVERIFY(failure);
        QCOMPARE(failure->pointer, pointer);
        QCOMPARE(failure->message, message);
        QCOMPARE(failure->toString(),
                 (pointer.isEmpty() ? QStringLiteral("(root)") : pointer) + QStringLiteral(": ") + message);
    }

    void validValues_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("exchange") << ExchangeSchema << J("{'base': 'USD', 'quote': 'EUR', 'amount': 10.5}");
        QTest::newRow("order") << OrderSchema
                               << J("{'items': [{'price': 1, 'sku': 'ABC'}], 'count': 2, 'strict': {'a/b': true}}");
        QTest::newRow("empty object schema") << J("{'type': 'object'}") << J("{'anything': [1]}");
        QTest::newRow("true schema") << QByteArray("true") << QByteArray("null");
        QTest::newRow("pattern is a search") << J("{'pattern': 'b'}") << J("'abc'");
        QTest::newRow("ECMA \\u escape") << J("{'pattern': '^\\\\u00e9$'}") << QByteArray("\"\xc3\xa9\"");
        QTest::newRow("patternProperties allow") << J("{'patternProperties': {'^x-': {'type': 'string'}}, "
                                                      "'additionalProperties': false}")
                                                 << J("{'x-a': 's', 'x-b': ''}");
        QTest::newRow("date-time") << J("{'format': 'date-time'}") << J("'2024-02-29T23:59:60.5+01:00'");
        QTest::newRow("multipleOf 3, 2^64-1") << J("{'multipleOf': 3}") << J("18446744073709551615");
        QTest::newRow("multipleOf 10, 1e20") << J("{'multipleOf': 10}") << J("1e20");
        QTest::newRow("multipleOf 0.01") << J("{'multipleOf': 0.01}") << J("0.3");
        QTest::newRow("const 1 and 1.0") << J("{'const': 1}") << J("1.0");
        QTest::newRow("2^64-1 below exclusiveMaximum 2.0^64")
            << J("{'exclusiveMaximum': 1.8446744073709552e19}") << J("18446744073709551615");
        QTest::newRow("2^64-1 at maximum") << J("{'maximum': 18446744073709551615}") << J("18446744073709551615");
        QTest::newRow("int64 min at minimum") << J("{'minimum': -9223372036854775808}") << J("-9223372036854775808");
        QTest::newRow("$ref in const is data") << J("{'const': {'$ref': '#'}}") << J("{'$ref': '#'}");
        QTest::newRow("recursive $ref") << J("{'properties': {'next': {'$ref': '#'}}, 'required': ['v']}")
                                        << J("{'v': 1, 'next': {'v': 2, 'next': {'v': 3}}}");
    }

    void validValues()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, value);
        const auto validator = SchemaValidator::compile(json::parse(schema.constData()));
        QVERIFY(validator);
        const auto failure = validator->validate(json::parse(value.constData()));
        QVERIFY2(!failure, failure ? qPrintable(failure->toString()) : "");
    }

    /// Draft 7: a count keyword takes a non-negative integer, and 2.0 is one (the JSON
    /// Schema Test Suite's "maxLength validation with a decimal" and its siblings);
    /// 1.5 and -1.0 are still refused, and 2.0 as data (enum, const) is left as written.
    void integralFloatCounts()
    {
        const auto schemaOf = [](const char *keyword, double value) {
            json schema = json::object();
            schema[keyword] = value;
            return schema;
        };
        for (const char *keyword :
             {"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"}) {
            QString error;
            const auto validator = SchemaValidator::compile(schemaOf(keyword, 2.0), &error);
            QVERIFY2(validator, qPrintable(QLatin1String(keyword) + QStringLiteral(": ") + error));
            QVERIFY(validator->schema().at(keyword).is_number_unsigned());
            QVERIFY(!SchemaValidator::compile(schemaOf(keyword, 1.5)));
            QVERIFY(!SchemaValidator::compile(schemaOf(keyword, -1.0)));
        }
        const auto maxLength = SchemaValidator::compile(
            json::parse(J("{'properties': {'a': {'items': [{'maxLength': 2.0}]}}}").constData()));
        QVERIFY(maxLength);
        QVERIFY(!maxLength->validate(json::parse(J("{'a': ['ab']}").constData())));
        const auto failure = maxLength->validate(json::parse(J("{'a': ['abc']}").constData()));
        QVERIFY(failure);
        QCOMPARE(failure->pointer, QStringLiteral("/a/0"));
        const auto minItems = SchemaValidator::compile(json::parse(J("{'allOf': [{'minItems': 2.0}]}").constData()));
        QVERIFY(minItems);
        QVERIFY(minItems->validate(json::parse("[1]")));
        QVERIFY(!minItems->validate(json::parse("[1, 2]")));
        const auto data = SchemaValidator::compile(json::parse(J("{'const': {'maxLength': 2.0}}").constData()));
        QVERIFY(data);
        QVERIFY(data->schema().at("const").at("maxLength").is_number_float());
    }

    void compileErrors_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("error");
        QTest::newRow("type is a number") << J("{'type': 12}") << QStringLiteral("JSON value is not a string.");
        QTest::newRow("unknown type name")
            << J("{'type': 'strin'}") << QStringLiteral("Unrecognised JSON type name 'strin'");
        QTest::newRow("required not an array")
            << J("{'required': 'a'}") << QStringLiteral("JSON value is not an array.");
        // A $ref valijson cannot follow is named, with where it is and what to do.
        QTest::newRow("dangling $ref") << J("{'properties': {'a': {'$ref': '#/definitions/missing'}}}")
                                       << QStringLiteral(
                                              "$ref \"#/definitions/missing\" at /properties/a could not be "
                                              "resolved: this schema has nothing at \"/definitions/missing\"; "
                                              "add the definition there (e.g. under \"definitions\") or "
                                              "correct the $ref");
        QTest::newRow("$ref to a missing definition")
            << J("{'$defs': {'Unit': {'enum': ['C', 'F']}}, 'properties': {'t': {'type': 'object', 'properties': "
                 "{'unit': {'$ref': '#/$defs/Units'}}}}}")
            << QStringLiteral("$ref \"#/$defs/Units\" at /properties/t/properties/unit could not be resolved: this "
                              "schema has nothing at \"/$defs/Units\"; add the definition there (e.g. under "
                              "\"definitions\") or correct the $ref");
        QTest::newRow("remote $ref") << J("{'properties': {'a': {'$ref': 'common.json#/definitions/id'}}}")
                                     << QStringLiteral(
                                            "$ref \"common.json#/definitions/id\" at /properties/a could not be "
                                            "resolved: references to other documents are not fetched; copy "
                                            "the definition into this schema (under \"definitions\") and "
                                            "refer to it as \"#/definitions/NAME\"");
        QTest::newRow("bad pattern")
            << QByteArray("{\"properties\": {\"a\": {\"pattern\": \"((\"}}}")
            << QStringLiteral("invalid regular expression \"((\" at /properties/a/pattern: missing closing parenthesis "
                              "at offset 2");
        QTest::newRow("bad patternProperties key")
            << J("{'definitions': {'x': {'patternProperties': {'a[': {}}}}}")
            << QStringLiteral("invalid regular expression \"a[\" at /definitions/x/patternProperties/a[: missing "
                              "terminating ] for character class at offset 2");
        QTest::newRow("$ref loop")
            << J("{'definitions': {'a': {'$ref': '#/definitions/b'}, 'b': {'$ref': '#/definitions/a'}}, '$ref': "
                 "'#/definitions/a'}")
            << QStringLiteral("$ref loop #/definitions/a -> #/definitions/b -> #/definitions/a: a $ref must lead to "
                              "a schema");
        QTest::newRow("$ref to itself") << J("{'$ref': '#'}")
                                        << QStringLiteral("$ref loop # -> #: a $ref must lead to a schema");
        QByteArray deep;
        for (int i = 0; i < 300; ++i)
            deep += "{\"not\": ";
        deep += "{}" + QByteArray(300, '}');
        QTest::newRow("nested 300 deep") << deep << QStringLiteral("the schema is nested deeper than 256 levels");
        QTest::newRow("not a schema") << J("'object'") << QStringLiteral("a schema must be a JSON object (got string)");
        // valijson reads a relative ref ("object") as the document root: it recursed
        // without end on the fuzzer's input (CI, session 7). Every spelling that is
        // not a local pointer is refused with its place.
        QTest::newRow("relative $ref at the root")
            << J("{'$ref': 'object', 'properties': {'base': {'type': 'string'}}}")
            << QStringLiteral("$ref \"object\" at / could not be resolved: references to other documents are not "
                              "fetched; copy the definition into this schema (under \"definitions\") and refer to it "
                              "as \"#/definitions/NAME\"");
        QTest::newRow("relative $ref with a pointer, in a property")
            << J("{'properties': {'a': {'$ref': 'other.json#/properties/a'}}}")
            << QStringLiteral("$ref \"other.json#/properties/a\" at /properties/a could not be resolved: references "
                              "to other documents are not fetched; copy the definition into this schema (under "
                              "\"definitions\") and refer to it as \"#/definitions/NAME\"");
        // valijson drops a trailing "/" and skips empty tokens: "#/definitions/a/" would
        // be a/ for it and a/"" for the studio.
        QTest::newRow("$ref through an empty property name")
            << J("{'definitions': {'a': {'': {'type': 'string'}, '$ref': '#/definitions/a/'}}, 'properties': {'x': "
                 "{'$ref': '#/definitions/a/'}}}")
            << QStringLiteral("$ref \"#/definitions/a/\" at /properties/x passes through a property with an empty "
                              "name, which is not supported; rename the property");
        // A property may be called "enum": its schema is a schema, not data.
        QTest::newRow("$ref loop in a property named enum")
            << J("{'properties': {'enum': {'$ref': '#/properties/enum'}}}")
            << QStringLiteral("$ref loop #/properties/enum -> #/properties/enum: a $ref must lead to a schema");
        QTest::newRow("$ref loop spelt two ways")
            << J("{'definitions': {'a': {'$ref': '#/definitions/%62'}, 'b': {'$ref': '#/definitions/a'}}, "
                 "'properties': {'x': {'$ref': '#/definitions/a'}}}")
            << QStringLiteral("$ref loop #/definitions/a -> #/definitions/b -> #/definitions/a: a $ref must lead to a "
                              "schema");
        // Definitions that refer to one another 300 deep: each is shallow, together they
        // overflowed valijson's stack (found while fixing the above).
        QByteArray chain = "{\"$ref\": \"#/definitions/a0\", \"definitions\": {";
        for (int i = 0; i < 300; ++i)
            chain += QStringLiteral("\"a%1\": {\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": "
                                    "\"#/definitions/a%2\"}}}, ")
                         .arg(i)
                         .arg(i + 1)
                         .toUtf8();
        chain += "\"a300\": {\"type\": \"string\"}}}";
        QTest::newRow("$ref chain 300 definitions deep")
            << chain
            << QStringLiteral("the schema nests deeper than 256 levels through its $refs (definitions that refer to "
                              "one another, 1208 levels in all); flatten them or break the chain");
    }

    void compileErrors()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, error);
        QString actual;
        QVERIFY(!SchemaValidator::compile(json::parse(schema.constData()), &actual));
        QCOMPARE(actual, error);
    }

    /// Refs valijson reads by rules of its own, spelt for it so that it finds what the
    /// studio finds: a '%' or '~' in a name, an $id scope (never fetched).
    void refsSpeltForTheParser()
    {
        QString error;
        const auto validator = SchemaValidator::compile(
            json::parse(J("{'$id': 'http://example.com/root.json', 'definitions': {'a%b': {'type': 'string'}, 'c~d': "
                          "{'$id': 'inner.json', 'type': 'integer'}}, 'properties': {'x': {'$ref': "
                          "'#/definitions/a%25b'}, 'y': {'$ref': '#/definitions/c~0d'}}}")
                            .constData()),
            &error);
        QVERIFY2(validator, qPrintable(error));
        QVERIFY(!validator->validate(json::parse(R"({"x": "s", "y": 2})")));
        const auto x = validator->validate(json::parse(R"({"x": 1})"));
        QVERIFY(x);
        QCOMPARE(x->pointer, QStringLiteral("/x"));
        const auto y = validator->validate(json::parse(R"({"y": "2"})"));
        QVERIFY(y);
        QCOMPARE(y->pointer, QStringLiteral("/y"));
    }

    /// Values a script can send within the request cap that cost valijson minutes or
    /// its stack: each is answered, with the exact failure, in well under a second.
    void hostileValues_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message"); ///< empty: valid
        QTest::addColumn<bool>("abandoned");
        const QByteArray a5000 = '"' + QByteArray(5000, 'a') + "!\"";
        QTest::newRow("catastrophic pattern")
            << J("{'type': 'string', 'pattern': '^(a+)+$'}") << a5000 << QString()
            << QStringLiteral("matching this string (5001 bytes) against the pattern ^(a+)+$ was abandoned at the "
                              "match limit (1000000 steps): the pattern backtracks too much on it; simplify the "
                              "pattern (e.g. no nested quantifiers) or send a shorter value")
            << true;
        // Abandoned is not "no match": under not/anyOf that would decide the result.
        QTest::newRow("catastrophic pattern under not, in anyOf")
            << J("{'properties': {'a': {'anyOf': [{'not': {'pattern': '^(a|aa)+$'}}, {'type': 'string'}]}}}")
            << "{\"a\": " + a5000 + "}" << QStringLiteral("/a")
            << QStringLiteral("matching this string (5001 bytes) against the pattern ^(a|aa)+$ was abandoned at "
                              "the match limit (1000000 steps): the pattern backtracks too much on it; simplify the "
                              "pattern (e.g. no nested quantifiers) or send a shorter value")
            << true;
        QTest::newRow("catastrophic patternProperties")
            << J("{'patternProperties': {'^(a|aa)+$': {}}, 'additionalProperties': false}") << "{" + a5000 + ": 1}"
            << QStringLiteral("/") + QString(5000, QLatin1Char('a')) + QStringLiteral("!")
            << QStringLiteral("matching the property name (5001 bytes) against the pattern ^(a|aa)+$ was abandoned "
                              "at the match limit (1000000 steps): the pattern backtracks too much on it; simplify "
                              "the pattern (e.g. no nested quantifiers) or send a shorter value")
            << true;
        // std::regex recursed once per character here: 200 000 digits overflowed the stack.
        const QByteArray digits = '"' + QByteArray(200000, '1') + '"';
        QTest::newRow("long string, linear pattern")
            << J("{'pattern': '^([0-9]|[a-z])+$'}") << digits << QString() << QString() << false;
        QTest::newRow("format date-time, long input")
            << J("{'format': 'date-time'}") << digits << QString()
            << QStringLiteral("expected a date-time (RFC 3339, e.g. 2026-12-01T16:52:45Z)") << false;
        QByteArray distinct = "[";
        for (int i = 0; i < 40000; ++i)
            distinct += QByteArray::number(i) + ',';
        QTest::newRow("uniqueItems 40000 distinct")
            << J("{'uniqueItems': true}") << distinct.left(distinct.size() - 1) + ']' << QString() << QString()
            << false;
        QTest::newRow("uniqueItems 40000, duplicate at the end")
            << J("{'uniqueItems': true}") << distinct.left(distinct.lastIndexOf(',', distinct.size() - 2) + 1) + "0]"
            << QString() << QStringLiteral("items 0 and 39999 are equal; items must be unique") << false;
        QByteArray objects = "[";
        for (int i = 0; i < 40000; ++i)
            objects += "{\"id\": " + QByteArray::number(i) + ", \"tags\": [\"a\", \"b\"]},";
        objects.chop(1);
        QTest::newRow("uniqueItems 40000 objects")
            << J("{'type': 'array', 'uniqueItems': true, 'items': {'required': ['id']}}") << objects + ']' << QString()
            << QString() << false;
        // A $ref loop that never descends into the value ends at the depth bound.
        QTest::newRow("$ref loop through allOf")
            << J("{'allOf': [{'$ref': '#'}]}") << J("1") << QString()
            << QStringLiteral("the schema applies more than 512 nested subschemas here (a $ref loop that does not "
                              "descend into the value, or a value nested too deeply); validation was abandoned")
            << true;
    }

    void hostileValues()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, value);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        QFETCH(bool, abandoned);
        QString error;
        const auto validator = SchemaValidator::compile(json::parse(schema.constData()), &error);
        QVERIFY2(validator, qPrintable(error));
        const json parsed = json::parse(value.constData());
        QElapsedTimer timer;
        timer.start();
        const auto failure = validator->validate(parsed);
        const qint64 ms = timer.elapsed();
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
        if (message.isEmpty()) {
            QVERIFY2(!failure, failure ? qPrintable(failure->toString()) : "");
            return;
        }
        QVERIFY(failure);
        QCOMPARE(failure->pointer, pointer);
        QCOMPARE(failure->message, message);
        QCOMPARE(failure->abandoned, abandoned);
    }

    void timeBudget()
    {
        // The wall-clock bound of one call: with 0 ms, the first check abandons it.
        const auto validator = SchemaValidator::compile(json::parse(J("{'items': {'type': 'integer'}}").constData()));
        QVERIFY(validator);
        const json value = json(std::vector<int>(100000, 1));
        SchemaValidator::Limits limits;
        limits.timeBudget = std::chrono::milliseconds(0);
        const auto failure = validator->validate(value, limits);
        QVERIFY(failure);
        QVERIFY(failure->abandoned);
        QCOMPARE(failure->message,
                 QStringLiteral("validation took longer than its 0 ms bound and was abandoned here; "
                                "send smaller arguments or simplify the schema"));
        QVERIFY(!validator->validate(value)); // the default bound (2 s) is ample
    }

    void reusable()
    {
        // Compiled once, validated many times (the engine caches one per tool).
        const auto validator = SchemaValidator::compile(json::parse(ExchangeSchema.constData()));
        QVERIFY(validator);
        QVERIFY(!validator->validate(json::parse(J("{'base': 'USD', 'quote': 'EUR'}").constData())));
        QCOMPARE(validator->validate(json::parse(J("{'quote': 'EUR'}").constData()))->pointer, QStringLiteral("/base"));
        QVERIFY(!validator->validate(json::parse(J("{'base': 'CHF', 'quote': 'GBP'}").constData())));
        QCOMPARE(validator->schema().at("required").size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestSchemaValidator)
#include "tst_schemavalidator.moc"
