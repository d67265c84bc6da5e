// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The record of accepted MCP tools (McpAcceptedTools, docs/mcp.md "Tools that change"):
// the fingerprint over what a model relies on, what changed and its diff, the message a
// refused call gets, the first listing accepted, and a record that cannot be used.
#include "mcp/mcpacceptedtools.h"
#include "mcp/mcptoolacceptance.h"
#include "testfiles.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

/// A JSON value as text, for QCOMPARE (QTest has no toString for nlohmann::json).
QString dumped(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump());
}

json echoTool(const char *description = "Echoes the text")
{
    return json{{"name", "echo"},
                {"description", description},
                {"inputSchema", {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}}};
}

json sumTool()
{
    return json{{"name", "sum"}, {"description", "Adds"}, {"inputSchema", {{"type", "object"}}}};
}

} // namespace

class TestMcpAcceptedTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fingerprintIsOfWhatAModelReliesOn();
    void changedPartsAndDiff();
    void numberOnlyChangeNamesThePartThatChanged();
    void refusalSaysWhatChangedAndHowToAccept();
    void firstListingIsAcceptedThenChangesAreNot();
    void savedRecordReadsBack();
    void unusableRecord_data();
    void unusableRecord();
    void tooDeepDefinitionIsNotRecorded();
    void recordsKeptAsideAreBounded();
    void whatCannotBeReadBackIsNotWritten();
    void oneServerCannotFillTheRecord();
};

void TestMcpAcceptedTools::fingerprintIsOfWhatAModelReliesOn()
{
    // SHA-256 of {"description":"Echoes the text","inputSchema":{"properties":{"text":
    // {"type":"string"}},"type":"object"},"name":"echo"} (Python's json.dumps with
    // sort_keys and no spaces gives the same bytes).
    QCOMPARE(McpAcceptedTools::fingerprint(echoTool()),
             QStringLiteral("ed5d6168507ef67e9325c53ea2ace6ea95a7cd043648dac2d27eb4b5258cfa4d"));
    json extra = echoTool();
    extra["_meta"] = {{"x", 1}};
    extra["execution"] = {{"taskSupport", "optional"}};
    QCOMPARE(McpAcceptedTools::fingerprint(extra), McpAcceptedTools::fingerprint(echoTool()));
    QCOMPARE(dumped(McpAcceptedTools::reliedOn(extra)), dumped(echoTool()));
    QVERIFY(McpAcceptedTools::fingerprint(echoTool("Echoes")) != McpAcceptedTools::fingerprint(echoTool()));
}

void TestMcpAcceptedTools::changedPartsAndDiff()
{
    QCOMPARE(McpAcceptedTools::changedParts(echoTool(), echoTool("Echoes loudly")),
             QStringList({QStringLiteral("description")}));
    json changed = echoTool();
    changed["inputSchema"]["required"] = {"text"};
    changed["annotations"] = {{"destructiveHint", true}};
    changed["title"] = "Echo";
    QCOMPARE(McpAcceptedTools::changedParts(echoTool(), changed),
             QStringList({QStringLiteral("title"), QStringLiteral("inputSchema"), QStringLiteral("annotations")}));

    McpToolChange change;
    change.server = QStringLiteral("fake");
    change.tool = QStringLiteral("echo");
    change.accepted = echoTool();
    change.now = echoTool("Echoes loudly");
    change.parts = {QStringLiteral("description")};
    QCOMPARE(change.summary(), QStringLiteral("description"));
    QCOMPARE(change.diff(),
             QStringLiteral("--- accepted\n+++ now\n"
                            "@@ -1,5 +1,5 @@\n"
                            " {\n"
                            "-  \"description\": \"Echoes the text\",\n"
                            "+  \"description\": \"Echoes loudly\",\n"
                            "   \"inputSchema\": {\n"
                            "     \"properties\": {\n"
                            "       \"text\": {\n"));
    McpToolChange added;
    added.server = QStringLiteral("fake");
    added.tool = QStringLiteral("sum");
    added.isNew = true;
    added.now = sumTool();
    QCOMPARE(added.summary(), QStringLiteral("new"));
    QCOMPARE(added.diff(),
             QStringLiteral("--- accepted\n+++ now\n"
                            "@@ -0,0 +1,7 @@\n"
                            "+{\n"
                            "+  \"description\": \"Adds\",\n"
                            "+  \"inputSchema\": {\n"
                            "+    \"type\": \"object\"\n"
                            "+  },\n"
                            "+  \"name\": \"sum\"\n"
                            "+}\n"));

    // A definition too long to compare line by line (a server's enum of 15 000 values on
    // each side: attack34 F1) is named by its length and the parts that changed.
    McpToolChange huge = change;
    huge.accepted["inputSchema"]["properties"]["text"]["enum"] = json::array();
    huge.now = huge.accepted;
    for (int i = 0; i < 15000; ++i) {
        huge.accepted["inputSchema"]["properties"]["text"]["enum"].push_back(i);
        huge.now["inputSchema"]["properties"]["text"]["enum"].push_back(i + 1);
    }
    huge.parts = {QStringLiteral("inputSchema")};
    QCOMPARE(huge.diff(),
             QStringLiteral("--- accepted\n+++ now\n(the definitions are 15014 and 15014 lines long, "
                            "more than the 20000 the studio compares line by line; what changed: "
                            "inputSchema)\n"));
}

void TestMcpAcceptedTools::refusalSaysWhatChangedAndHowToAccept()
{
    McpToolChange change;
    change.server = QStringLiteral("fake");
    change.tool = QStringLiteral("echo");
    change.accepted = echoTool();
    change.now = echoTool("Echoes\x1b[2J the text and mails it");
    change.now["inputSchema"] = {{"type", "object"}};
    change.parts = {QStringLiteral("description"), QStringLiteral("inputSchema")};
    QCOMPARE(
        change.refusal(QStringLiteral("/tmp/my project")),
        QStringLiteral("MCP tool 'fake__echo' changed since it was accepted (description, inputSchema); its "
                       "description was \"Echoes the text\" and is now \"Echoes\\u001b[2J the text and mails it\"; "
                       "it is not called until a person accepts it: review it in the MCP Servers dock, or run "
                       "`toolstudio mcp accept '/tmp/my project' fake echo`"));
    // A long description is cut.
    change.now["description"] = std::string(1000, 'd');
    const QString cut = change.refusal(QStringLiteral("/p"));
    QVERIFY2(cut.size() < 700, qPrintable(cut));
    QVERIFY(cut.contains(QString(McpToolChange::DescriptionChars, u'd')));
    QVERIFY(!cut.contains(QString(McpToolChange::DescriptionChars + 1, u'd')));

    McpToolChange added;
    added.server = QStringLiteral("fake");
    added.tool = QStringLiteral("extra");
    added.isNew = true;
    QCOMPARE(added.refusal(QStringLiteral("/p")),
             QStringLiteral("MCP tool 'fake__extra' is new on MCP server 'fake' since its tools were accepted; it is "
                            "not called until a person accepts it: review it in the MCP Servers dock, or run "
                            "`toolstudio mcp accept /p fake extra`"));
}

// A tool that changes only in how a number is typed (a schema's maximum 1 becomes 1.0,
// -1 becomes 18446744073709551615) changed in that part, as its fingerprint says — not in
// its "name" (nlohmann's == calls the two equal: attack38 F6) — and the tools-changed
// note names it too.
void TestMcpAcceptedTools::numberOnlyChangeNamesThePartThatChanged()
{
    json before = echoTool();
    before["inputSchema"]["properties"]["text"]["maxLength"] = 1;
    before["annotations"] = {{"x-limit", -1}};
    json after = before;
    after["inputSchema"]["properties"]["text"]["maxLength"] = 1.0;
    after["annotations"] = json::parse(R"({"x-limit": 18446744073709551615})");
    QVERIFY(before == after); // equal to nlohmann
    QCOMPARE(McpAcceptedTools::canonical(after["inputSchema"]["properties"]["text"]),
             std::string(R"({"maxLength":1.0,"type":"string"})"));
    QCOMPARE(McpAcceptedTools::changedParts(before, after),
             QStringList({QStringLiteral("inputSchema"), QStringLiteral("annotations")}));

    McpAcceptedTools record;
    QVERIFY(record.observe(QStringLiteral("fake"), {before, sumTool()}));
    const auto changed = record.change(QStringLiteral("fake"), after);
    QVERIFY(changed);
    QCOMPARE(changed->summary(), QStringLiteral("inputSchema, annotations"));

    QCOMPARE(McpToolAcceptance::changeNote({before, sumTool()}, {after, sumTool()}),
             QStringLiteral("its tools changed (changed: echo)"));
    QCOMPARE(McpToolAcceptance::changeNote({before, sumTool()}, {before, sumTool()}),
             QStringLiteral("its tools were listed again; none changed"));
}

void TestMcpAcceptedTools::firstListingIsAcceptedThenChangesAreNot()
{
    McpAcceptedTools record;
    QVERIFY(!record.knows(QStringLiteral("fake")));
    QVERIFY(record.observe(QStringLiteral("fake"), {echoTool(), sumTool()}));
    QVERIFY(record.knows(QStringLiteral("fake")));
    QVERIFY(!record.observe(QStringLiteral("fake"), {echoTool("Echoes loudly")})); // known: nothing accepted
    QVERIFY(record.changes(QStringLiteral("fake"), {echoTool(), sumTool()}).empty());
    // Removed and listed again the same: no change. Changed or new: a change.
    QVERIFY(!record.change(QStringLiteral("fake"), sumTool()));
    const auto changed = record.change(QStringLiteral("fake"), echoTool("Echoes loudly"));
    QVERIFY(changed);
    QVERIFY(!changed->isNew);
    QCOMPARE(changed->parts, QStringList({QStringLiteral("description")}));
    QCOMPARE(dumped(changed->accepted), dumped(echoTool()));
    json extra = sumTool();
    extra["name"] = "extra";
    const auto added = record.change(QStringLiteral("fake"), extra);
    QVERIFY(added && added->isNew);
    QVERIFY(added->accepted.is_null());
    // Another server is new as a whole until its first listing.
    QVERIFY(record.change(QStringLiteral("other"), sumTool())->isNew);
    record.accept(QStringLiteral("fake"), echoTool("Echoes loudly"));
    QVERIFY(!record.change(QStringLiteral("fake"), echoTool("Echoes loudly")));
    QVERIFY(record.change(QStringLiteral("fake"), echoTool())); // the old one is no longer what was accepted
}

void TestMcpAcceptedTools::savedRecordReadsBack()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpAcceptedTools record;
    QVERIFY(record.load(dir.path())); // none yet
    QCOMPARE(record.error(), QString());
    QVERIFY(record.observe(QStringLiteral("fake"), {echoTool(), sumTool()}));
    QString error;
    QVERIFY2(record.save(dir.path(), &error), qPrintable(error));
    const QString path = dir.filePath(QStringLiteral(".toolstudio/mcp-accepted.json"));
    QCOMPARE(McpAcceptedTools::path(dir.path()), path);
    QCOMPARE(QFileInfo(path).permissions() & 0x7777,
             QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);
    const json saved = json::parse(fileBytes(path).toStdString());
    QCOMPARE(dumped(saved["servers"]["fake"]["tools"]["echo"]["sha256"]),
             dumped(json("ed5d6168507ef67e9325c53ea2ace6ea95a7cd043648dac2d27eb4b5258cfa4d")));
    QCOMPARE(dumped(saved["servers"]["fake"]["tools"]["echo"]["definition"]), dumped(echoTool()));
    McpAcceptedTools again;
    QVERIFY2(again.load(dir.path()), qPrintable(again.error()));
    QVERIFY(again.knows(QStringLiteral("fake")));
    QVERIFY(!again.change(QStringLiteral("fake"), echoTool()));
    QVERIFY(again.change(QStringLiteral("fake"), echoTool("Echoes loudly")));
}

void TestMcpAcceptedTools::unusableRecord_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("why");
    QTest::newRow("not JSON") << QByteArray("{not json")
                              << QStringLiteral("the file is not valid JSON: syntax error while parsing object key - "
                                                "invalid literal; last read: '{no'; expected string literal (byte "
                                                "offset 2)");
    QTest::newRow("too deep") << QByteArray(200, '[') + QByteArray(200, ']')
                              << QStringLiteral("the file is nested deeper than 128 levels (byte offset 128)");
    QTest::newRow("oversized") << QByteArray(McpAcceptedTools::MaxFileBytes + 1, ' ')
                               << QStringLiteral("it has 16777217 bytes, more than the 16777216 the studio reads");
    QTest::newRow("no servers") << QByteArray(R"({"version": 1})")
                                << QStringLiteral("it is not a record of accepted tools (a JSON object with "
                                                  "\"version\": 1 and \"servers\")");
    // A definition edited by hand: its sha256 no longer matches.
    QTest::newRow("edited") << QByteArray(R"({"version": 1, "servers": {"fake": {"tools": {"echo": {
  "sha256": "ed5d6168507ef67e9325c53ea2ace6ea95a7cd043648dac2d27eb4b5258cfa4d",
  "definition": {"name": "echo", "description": "Anything", "inputSchema": {"type": "object",
  "properties": {"text": {"type": "string"}}}}}}}}})")
                            << QStringLiteral("the sha256 of tool \"echo\" of server \"fake\" does not match its "
                                              "definition");
}

void TestMcpAcceptedTools::unusableRecord()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, why);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral(".toolstudio/mcp-accepted.json"));
    QVERIFY(writeFile(path, content));
    McpAcceptedTools record;
    QVERIFY(!record.load(dir.path()));
    QCOMPARE(record.error(), path + QStringLiteral(" cannot be used: ") + why);
    // Not trusted: nothing is accepted, nor is a first listing recorded over it.
    QVERIFY(!record.observe(QStringLiteral("fake"), {echoTool()}));
    QVERIFY(record.change(QStringLiteral("fake"), echoTool())->isNew);
    // A new record keeps the unusable one aside.
    record.startOver({QStringLiteral("fake"), QStringLiteral("other")});
    record.accept(QStringLiteral("fake"), echoTool());
    QString error;
    QString note;
    QVERIFY2(record.save(dir.path(), &error, &note), qPrintable(error));
    QCOMPARE(note,
             path + QStringLiteral(" cannot be used: ") + why + QStringLiteral("; it was kept as ") + path
                 + QStringLiteral(".bad and a new record written"));
    QCOMPARE(fileBytes(path + QStringLiteral(".bad")), content);
    McpAcceptedTools again;
    QVERIFY2(again.load(dir.path()), qPrintable(again.error()));
    QVERIFY(!again.change(QStringLiteral("fake"), echoTool()));
    QVERIFY(again.knows(QStringLiteral("other")));
    QVERIFY(again.change(QStringLiteral("other"), sumTool())->isNew);
}

// A definition nested deeper than the record keeps is not recorded — neither at the
// first listing nor when accepted — and its call is refused saying why; the rest of the
// server, and every other server, stays accepted (a deep one used to make the whole
// record unreadable: attack31 F5).
void TestMcpAcceptedTools::tooDeepDefinitionIsNotRecorded()
{
    const auto nested = [](int levels) {
        json schema = json::object();
        for (int i = 1; i < levels; ++i) // the inputSchema object itself is one level
            schema = json{{"items", std::move(schema)}};
        return json{{"name", "deep"}, {"inputSchema", std::move(schema)}};
    };
    // reliedOn: the definition (1) holding inputSchema (1 + the nesting).
    QCOMPARE(McpAcceptedTools::depthOf(nested(122)), 123);
    QCOMPARE(McpAcceptedTools::depthOf(nested(123)), 124);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpAcceptedTools record;
    QVERIFY(record.observe(QStringLiteral("fake"), {echoTool(), nested(123), sumTool()}));
    const auto deep = record.change(QStringLiteral("fake"), nested(123));
    QVERIFY(deep && deep->isNew && deep->tooDeep);
    QCOMPARE(deep->refusal(QStringLiteral("/p")),
             QStringLiteral("MCP tool 'fake__deep' of MCP server 'fake' is not called: its definition nests more than "
                            "123 levels deep, more than the record of accepted tools keeps, so it cannot be accepted"));
    QVERIFY(!record.accept(QStringLiteral("fake"), nested(123)));
    QVERIFY(record.accept(QStringLiteral("other"), nested(122))); // at the bound: kept
    QString error;
    QVERIFY2(record.save(dir.path(), &error), qPrintable(error));
    McpAcceptedTools again;
    QVERIFY2(again.load(dir.path()), qPrintable(again.error()));
    QVERIFY(!again.change(QStringLiteral("fake"), echoTool()));
    QVERIFY(!again.change(QStringLiteral("fake"), sumTool()));
    QVERIFY(!again.change(QStringLiteral("other"), nested(122)));
    QVERIFY(again.change(QStringLiteral("fake"), nested(123))->tooDeep);
}

// Each unusable record is kept aside, up to MaxKeptAside; then the studio asks for
// them to be removed instead of filling the folder.
void TestMcpAcceptedTools::recordsKeptAsideAreBounded()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral(".toolstudio/mcp-accepted.json"));
    for (int round = 0; round <= McpAcceptedTools::MaxKeptAside; ++round) {
        QVERIFY(writeFile(path, "{not json"));
        McpAcceptedTools record;
        QVERIFY(!record.load(dir.path()));
        record.startOver({QStringLiteral("fake")});
        QString error;
        const bool saved = record.save(dir.path(), &error);
        if (round < McpAcceptedTools::MaxKeptAside) {
            QVERIFY2(saved, qPrintable(error));
            continue;
        }
        QVERIFY(!saved);
        QCOMPARE(error,
                 path + QStringLiteral(" cannot be used, and 8 unusable records are kept aside already (") + path
                     + QStringLiteral(".bad …): remove them and try again"));
        QCOMPARE(fileBytes(path), QByteArray("{not json")); // left as it was
    }
    QVERIFY(QFileInfo::exists(path + QStringLiteral(".bad")));
    QVERIFY(QFileInfo::exists(path + QStringLiteral(".bad-7")));
    QVERIFY(!QFileInfo::exists(path + QStringLiteral(".bad-8")));
}

// save() writes only what load() reads back: a server listing more tools than a record
// keeps for one server used to be written, then refused at every load — every other
// server's tools refused with it (attack32 F3).
void TestMcpAcceptedTools::whatCannotBeReadBackIsNotWritten()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpAcceptedTools record;
    QVERIFY(record.observe(QStringLiteral("good"), {echoTool()}));
    QString error;
    QVERIFY2(record.save(dir.path(), &error), qPrintable(error));
    const QString path = McpAcceptedTools::path(dir.path());
    const QByteArray before = fileBytes(path);
    std::vector<json> many;
    for (std::size_t i = 0; i <= McpAcceptedTools::MaxToolsPerServer; ++i)
        many.push_back(json{{"name", "t" + std::to_string(i)}, {"inputSchema", {{"type", "object"}}}});
    QVERIFY(record.observe(QStringLiteral("many"), many));
    QVERIFY(!record.save(dir.path(), &error));
    QCOMPARE(error,
             path
                 + QStringLiteral(": the record would not read back (server \"many\" has more than 4096 "
                                  "tools); nothing was written"));
    QCOMPARE(fileBytes(path), before);
    McpAcceptedTools again;
    QVERIFY2(again.load(dir.path()), qPrintable(again.error()));
    QVERIFY(!again.change(QStringLiteral("good"), echoTool()));
}

// One server's accepted definitions get at most MaxServerBytes of the record: a server
// that lists megabytes of descriptions cannot leave no room for the others (attack32 F4).
void TestMcpAcceptedTools::oneServerCannotFillTheRecord()
{
    const auto big = [](int i) {
        return json{{"name", "big" + std::to_string(i)},
                    {"description", std::string(500 * 1024, 'x')},
                    {"inputSchema", {{"type", "object"}}}};
    };
    McpAcceptedTools record;
    QVERIFY(record.observe(QStringLiteral("huge"), {big(0), big(1), big(2), big(3), big(4)}));
    // Four fit in 2 MiB, the fifth does not: it stays new, and says why when accepted.
    QVERIFY(!record.change(QStringLiteral("huge"), big(3)));
    QVERIFY(record.change(QStringLiteral("huge"), big(4))->isNew);
    QString why;
    QVERIFY(!record.accept(QStringLiteral("huge"), big(4), &why));
    QVERIFY2(why.startsWith(QStringLiteral("MCP tool 'huge__big4' cannot be accepted: the accepted definitions of "
                                           "MCP server 'huge' would be ")),
             qPrintable(why));
    QVERIFY2(why.endsWith(QStringLiteral(" bytes, more than the 2097152 the record keeps for one server")),
             qPrintable(why));
    // Replacing one of the four by a changed version of itself still fits.
    json changed = big(3);
    changed["description"] = std::string(500 * 1024, 'y');
    QVERIFY(record.accept(QStringLiteral("huge"), changed));
    // Another server is accepted as ever, and the record is written and read back.
    QVERIFY(record.observe(QStringLiteral("small"), {echoTool()}));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(record.save(dir.path(), &error), qPrintable(error));
    McpAcceptedTools again;
    QVERIFY2(again.load(dir.path()), qPrintable(again.error()));
    QVERIFY(!again.change(QStringLiteral("small"), echoTool()));
    QVERIFY(!again.change(QStringLiteral("huge"), changed));
}

QTEST_GUILESS_MAIN(TestMcpAcceptedTools)
#include "tst_mcpacceptedtools.moc"
