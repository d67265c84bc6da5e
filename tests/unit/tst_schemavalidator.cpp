// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemavalidator.h"

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
                                 << QStringLiteral("does not match the pattern \"^[A-Z]{3}$\"");
        QTest::newRow("integer") << OrderSchema << J("{'count': 1.5}") << QStringLiteral("/count")
                                 << QStringLiteral("expected integer, got number");
        QTest::newRow("additional property")
            << OrderSchema << J("{'strict': {'extra': 1}}") << QStringLiteral("/strict/extra")
            << QStringLiteral("property is not allowed by the schema");
        QTest::newRow("escaped pointer") << OrderSchema << J("{'strict': {'a/b': 'yes'}}")
                                         << QStringLiteral("/strict/a~1b")
                                         << QStringLiteral("expected boolean, got string");
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
            << QStringLiteral("invalid regular expression \"((\": Mismatched '(' and ')' in regular expression");
        QTest::newRow("not a schema") << J("'object'") << QStringLiteral("a schema must be a JSON object (got string)");
    }

    void compileErrors()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, error);
        QString actual;
        QVERIFY(!SchemaValidator::compile(json::parse(schema.constData()), &actual));
        QCOMPARE(actual, error);
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
