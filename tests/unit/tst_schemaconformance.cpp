// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The official JSON Schema Test Suite, draft 7, against SchemaValidator: one row per
// test case of tests/draft7/*.json and of the optional files whose behaviour the
// validator claims (format date, time, date-time; exact numbers). The suite is test
// data, not part of this repository: `./toolstudio.sh test` fetches the pinned Debian
// package json-schema-test-suite into the build directory and CTest passes its path
// as TOOLSTUDIO_JSON_SCHEMA_TEST_SUITE (tests/CMakeLists.txt). Without it the suite
// fails, saying how to get it.
//
// Every case that is not checked as the suite says is listed below with its reason:
// Excluded (not run, a skipped row naming the reason) or Deviations (run, and the
// validator must give the opposite answer, a documented project choice). An entry
// that matches no case fails the suite, so the lists cannot go stale.

#include "project/schemavalidator.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <vector>

using json = nlohmann::json;

namespace {

// The suite this file was written against (toolstudio.sh pins the same version).
constexpr const char *SuitePackage = "json-schema-test-suite 2.0.0-1.1 (Debian 12)";
constexpr const char *SuiteEnv = "TOOLSTUDIO_JSON_SCHEMA_TEST_SUITE";

/// Cases named by file (relative to tests/draft7), group description ("" = every
/// group of the file) and test description ("" = every test of the group).
struct Listed
{
    const char *file;
    const char *group;
    const char *test;
    const char *reason;
};

/// Not run: the validator does not claim what they test.
const std::vector<Listed> Excluded = {
    {"refRemote.json", "", "",
     "remote $ref (http://localhost:1234/...): remote refs are not fetched, such a schema does not compile"},
    {"ref.json", "remote ref, containing refs itself", "",
     "$ref to the draft-07 meta-schema (http://json-schema.org/draft-07/schema#): other documents are not fetched"},
    {"definitions.json", "", "",
     "$ref to the draft-07 meta-schema (http://json-schema.org/draft-07/schema#): other documents are not fetched"},
    {"ref.json", "Recursive references between schemas", "",
     "$ref resolved against an $id base URI (\"tree\" in http://localhost:1234/node): only local JSON pointers "
     "(#/...) are resolved"},
    {"optional/content.json", "", "",
     "contentMediaType/contentEncoding are annotations here, not checked (draft 7 section 8 allows it)"},
    {"optional/ecmascript-regex.json", "", "", "format \"regex\" is an annotation here, not checked"},
    {"optional/format/email.json", "", "", "format \"email\" is an annotation here, not checked"},
    {"optional/format/hostname.json", "", "", "format \"hostname\" is an annotation here, not checked"},
    {"optional/format/idn-email.json", "", "", "format \"idn-email\" is an annotation here, not checked"},
    {"optional/format/idn-hostname.json", "", "", "format \"idn-hostname\" is an annotation here, not checked"},
    {"optional/format/ipv4.json", "", "", "format \"ipv4\" is an annotation here, not checked"},
    {"optional/format/ipv6.json", "", "", "format \"ipv6\" is an annotation here, not checked"},
    {"optional/format/iri-reference.json", "", "", "format \"iri-reference\" is an annotation here, not checked"},
    {"optional/format/iri.json", "", "", "format \"iri\" is an annotation here, not checked"},
    {"optional/format/json-pointer.json", "", "", "format \"json-pointer\" is an annotation here, not checked"},
    {"optional/format/regex.json", "", "", "format \"regex\" is an annotation here, not checked"},
    {"optional/format/relative-json-pointer.json", "", "",
     "format \"relative-json-pointer\" is an annotation here, not checked"},
    {"optional/format/uri-reference.json", "", "", "format \"uri-reference\" is an annotation here, not checked"},
    {"optional/format/uri-template.json", "", "", "format \"uri-template\" is an annotation here, not checked"},
    {"optional/format/uri.json", "", "", "format \"uri\" is an annotation here, not checked"},
};

/// Run, and the validator must answer the opposite of the suite: documented choices
/// (docs/project-format.md "How values are checked").
const std::vector<Listed> Deviations = {
    {"optional/zeroTerminatedFloats.json", "", "",
     "1.0 is a number, not an integer: an `integer` reaches a Python handler as `int` (docs/python-tools.md), and "
     "the engine passes arguments on as written"},
    {"optional/bignum.json", "integer", "a bignum is an integer",
     "an integer beyond 64 bits is parsed as a double (its digits past ~17 are lost), so it is a number, not an "
     "integer"},
    {"optional/bignum.json", "integer", "a negative bignum is an integer",
     "an integer beyond 64 bits is parsed as a double (its digits past ~17 are lost), so it is a number, not an "
     "integer"},
};

bool matches(const Listed &entry, const QString &file, const QString &group, const QString &test)
{
    return file == QLatin1String(entry.file) && (!*entry.group || group == QString::fromUtf8(entry.group))
        && (!*entry.test || test == QString::fromUtf8(entry.test));
}

QString suiteRoot()
{
    return qEnvironmentVariable(SuiteEnv);
}

QString draft7Dir()
{
    return suiteRoot() + QStringLiteral("/tests/draft7");
}

QString howToGetIt()
{
    return QStringLiteral(
               "the JSON Schema Test Suite (%1) is missing: %2=\"%3\" has no tests/draft7/. `./toolstudio.sh test` fetches "
               "it into the build directory; by hand: `apt-get download json-schema-test-suite=2.0.0-1.1 && dpkg-deb -x "
               "json-schema-test-suite_2.0.0-1.1_all.deb build/json-schema-test-suite`, or point %2 at a checkout of "
               "https://github.com/json-schema-org/JSON-Schema-Test-Suite (the folder holding tests/)")
        .arg(QLatin1String(SuitePackage), QLatin1String(SuiteEnv), suiteRoot());
}

} // namespace

class TestSchemaConformance : public QObject
{
    Q_OBJECT

    int m_cases = 0;
    int m_excluded = 0;
    int m_deviations = 0;
    int m_agree = 0;
    int m_deviate = 0;
    std::vector<int> m_excludedUse = std::vector<int>(Excluded.size());
    std::vector<int> m_deviationUse = std::vector<int>(Deviations.size());

private Q_SLOTS:
    void initTestCase()
    {
        if (suiteRoot().isEmpty() || !QDir(draft7Dir()).exists())
            QFAIL(qPrintable(howToGetIt()));
    }

    void draft7_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("excluded");
        QTest::addColumn<QString>("deviation");

        const QDir root(draft7Dir());
        QStringList files;
        QDirIterator it(root.path(), {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << root.relativeFilePath(it.next());
        files.sort();
        QVERIFY2(files.size() >= 30,
                 qPrintable(QStringLiteral("only %1 files in %2").arg(files.size()).arg(root.path())));

        QSet<QString> names;
        for (const QString &file : std::as_const(files)) {
            // The optional files are read only where they test what the validator
            // claims; every other one is in Excluded, so it still shows as skipped.
            QFile f(root.filePath(file));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
            const json groups = json::parse(f.readAll().toStdString());
            QVERIFY2(groups.is_array(), qPrintable(file));
            for (const json &group : groups) {
                const QString groupName = QString::fromStdString(group.at("description").get<std::string>());
                const QByteArray schema = QByteArray::fromStdString(group.at("schema").dump());
                for (const json &test : group.at("tests")) {
                    const QString testName = QString::fromStdString(test.at("description").get<std::string>());
                    QString excluded, deviation;
                    for (std::size_t i = 0; i < Excluded.size(); ++i) {
                        if (matches(Excluded[i], file, groupName, testName)) {
                            excluded = QString::fromUtf8(Excluded[i].reason);
                            ++m_excludedUse[i];
                            break;
                        }
                    }
                    for (std::size_t i = 0; excluded.isEmpty() && i < Deviations.size(); ++i) {
                        if (matches(Deviations[i], file, groupName, testName)) {
                            deviation = QString::fromUtf8(Deviations[i].reason);
                            ++m_deviationUse[i];
                            break;
                        }
                    }
                    ++m_cases;
                    m_excluded += excluded.isEmpty() ? 0 : 1;
                    m_deviations += deviation.isEmpty() ? 0 : 1;
                    QString name = QStringLiteral("%1: %2 / %3").arg(file, groupName, testName);
                    for (int n = 2; names.contains(name); ++n)
                        name = QStringLiteral("%1: %2 / %3 (%4)").arg(file, groupName, testName).arg(n);
                    names.insert(name);
                    QTest::newRow(qPrintable(name)) << schema << QByteArray::fromStdString(test.at("data").dump())
                                                    << test.at("valid").get<bool>() << excluded << deviation;
                }
            }
        }
    }

    void draft7()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, data);
        QFETCH(bool, valid);
        QFETCH(QString, excluded);
        QFETCH(QString, deviation);

        if (!excluded.isEmpty())
            QSKIP(qPrintable(QStringLiteral("excluded: ") + excluded));

        QString error;
        const auto validator = SchemaValidator::compile(json::parse(schema.toStdString()), &error);
        QVERIFY2(
            validator,
            qPrintable(QStringLiteral("the schema %1 does not compile: %2").arg(QString::fromUtf8(schema), error)));
        const auto failure = validator->validate(json::parse(data.toStdString()));
        const bool expected = deviation.isEmpty() ? valid : !valid;
        if (failure.has_value() == expected) {
            QFAIL(qPrintable(QStringLiteral("%1 against %2: the suite says %3%4, the validator says %5")
                                 .arg(QString::fromUtf8(data), QString::fromUtf8(schema),
                                      valid ? QStringLiteral("valid") : QStringLiteral("invalid"),
                                      deviation.isEmpty() ? QString()
                                                          : QStringLiteral(" (a listed deviation, expecting the "
                                                                           "opposite: %1)")
                                                                .arg(deviation),
                                      failure ? QStringLiteral("invalid (") + failure->toString() + u')'
                                              : QStringLiteral("valid"))));
        }
        ++(deviation.isEmpty() ? m_agree : m_deviate);
    }

    /// Every Excluded and Deviations entry names at least one case of the suite.
    void listsMatchTheSuite()
    {
        for (std::size_t i = 0; i < Excluded.size(); ++i)
            QVERIFY2(m_excludedUse[i] > 0,
                     qPrintable(QStringLiteral("Excluded entry %1 / %2 / %3 matches no case")
                                    .arg(QLatin1String(Excluded[i].file), QString::fromUtf8(Excluded[i].group),
                                         QString::fromUtf8(Excluded[i].test))));
        for (std::size_t i = 0; i < Deviations.size(); ++i)
            QVERIFY2(m_deviationUse[i] > 0,
                     qPrintable(QStringLiteral("Deviations entry %1 / %2 / %3 matches no case")
                                    .arg(QLatin1String(Deviations[i].file), QString::fromUtf8(Deviations[i].group),
                                         QString::fromUtf8(Deviations[i].test))));
    }

    void cleanupTestCase()
    {
        if (m_cases == 0)
            return;
        qInfo("JSON Schema Test Suite draft 7, %s: %d cases; %d run, %d as the suite says, %d as a listed "
              "deviation, %d failed; %d excluded (Excluded in tst_schemaconformance.cpp, each skipped with its reason)",
              SuitePackage, m_cases, m_cases - m_excluded, m_agree, m_deviate,
              m_cases - m_excluded - m_agree - m_deviate, m_excluded);
    }
};

QTEST_GUILESS_MAIN(TestSchemaConformance)
#include "tst_schemaconformance.moc"
