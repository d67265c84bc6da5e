// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Completions from the command line (issue 21 §5): `toolstudio mcp prompts PROJECT
// SERVER --complete NAME ARGUMENT [PREFIX]` and `toolstudio mcp resources PROJECT
// SERVER --complete TEMPLATE_URI VARIABLE [PREFIX]`, the built binary against the MCP
// reference server "everything" from npm (installed by ./toolstudio.sh test into
// TOOLSTUDIO_MCP_SERVERS_DIR; skipped when it is not there) and
// tests/data/mcp/fakeresources.py: the values one a line, what was left out and how many
// more on stderr, bad input, a server without completions, one answering -32601.
#include "clirunner.h"
#include "testfiles.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// `toolstudio mcp VERB PROJECT ARGUMENTS...`, the project trusted.
CommandResult mcp(const char *verb, const QString &project, const QStringList &arguments)
{
    return toolstudio(QStringList{QStringLiteral("mcp"), QString::fromLatin1(verb), project} + arguments);
}

QString lines(const QStringList &values)
{
    return values.join(u'\n') + u'\n';
}

} // namespace

class TestMcpCompleteCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void referenceServerPrompt();
    void referenceServerTemplate();
    void fakePromptsAndTemplates();
    void whatIsLeftOutAndMore();
    void badInput();
    void serversThatOfferNone();

private:
    QTemporaryDir m_dir;
    bool m_everything = false;
};

void TestMcpCompleteCommand::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(
        writeFile(m_dir.filePath(QStringLiteral("srv/fakeresources.py")), fileBytes(mcpFixture("fakeresources.py"))));
    // Confined to its project folder: the reference server's packages are copied in, as
    // `npm install` would put them.
    if (const QString modules = referenceServerModules(); !modules.isEmpty()) {
        QCOMPARE(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), modules, m_dir.path()}), 0);
        m_everything = true;
    }
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "c", "mcp_servers": {
  "everything": {"command": "node", "args": ["node_modules/@modelcontextprotocol/server-everything/dist/index.js"]},
  "fake": {"command": "python3", "args": ["srv/fakeresources.py", "good"]},
  "bare": {"command": "python3", "args": ["srv/fakeresources.py", "no-completions"]},
  "tools": {"command": "python3", "args": ["srv/fakeresources.py", "tools-only"]},
  "notfound": {"command": "python3", "args": ["srv/fakeresources.py", "complete-not-found"]}}})"));
}

void TestMcpCompleteCommand::referenceServerPrompt()
{
    if (!m_everything)
        QSKIP(ReferenceServerMissing);
    const QString project = m_dir.path();
    const CommandResult all = mcp("prompts", project,
                                  {QStringLiteral("everything"), QStringLiteral("--complete"),
                                   QStringLiteral("completable-prompt"), QStringLiteral("department")});
    QCOMPARE(all.err, QByteArray());
    QCOMPARE(all.exitCode, 0);
    QCOMPARE(QString::fromUtf8(all.out), QStringLiteral("Engineering\nSales\nMarketing\nSupport\n"));
    const CommandResult s
        = mcp("prompts", project,
              {QStringLiteral("everything"), QStringLiteral("--complete"), QStringLiteral("completable-prompt"),
               QStringLiteral("department"), QStringLiteral("S")});
    QCOMPARE(s.exitCode, 0);
    QCOMPARE(QString::fromUtf8(s.out), QStringLiteral("Sales\nSupport\n"));

    // The other arguments filled in are the context; the completed one's own is not sent.
    const CommandResult names
        = mcp("prompts", project,
              {QStringLiteral("everything"), QStringLiteral("--complete"), QStringLiteral("completable-prompt"),
               QStringLiteral("name"), QStringLiteral("--args"), QStringLiteral("{\"department\": \"Sales\"}")});
    QCOMPARE(names.exitCode, 0);
    QCOMPARE(QString::fromUtf8(names.out), QStringLiteral("David\nEve\nFrank\n"));
    const CommandResult eve
        = mcp("prompts", project,
              {QStringLiteral("everything"), QStringLiteral("--complete"), QStringLiteral("completable-prompt"),
               QStringLiteral("name"), QStringLiteral("E"), QStringLiteral("--args"),
               QStringLiteral("{\"department\": \"Sales\", \"name\": \"Z\"}")});
    QCOMPARE(eve.exitCode, 0);
    QCOMPARE(QString::fromUtf8(eve.out), QStringLiteral("Eve\n"));

    // No department: the server has no names; said on stderr, still an answer.
    const CommandResult none = mcp("prompts", project,
                                   {QStringLiteral("everything"), QStringLiteral("--complete"),
                                    QStringLiteral("completable-prompt"), QStringLiteral("name")});
    QCOMPARE(none.exitCode, 0);
    QCOMPARE(none.out, QByteArray());
    QCOMPARE(none.err, QByteArray("toolstudio mcp prompts: the server offers no values for that\n"));

    // --json: the server's result.
    const CommandResult asJson
        = mcp("prompts", project,
              {QStringLiteral("everything"), QStringLiteral("--complete"), QStringLiteral("completable-prompt"),
               QStringLiteral("department"), QStringLiteral("S"), QStringLiteral("--json")});
    QCOMPARE(asJson.exitCode, 0);
    QCOMPARE(nlohmann::json::parse(asJson.out.toStdString(), nullptr, false).dump(),
             std::string(R"({"completion":{"hasMore":false,"total":2,"values":["Sales","Support"]}})"));

    // What the server does not have, said before asking it.
    const CommandResult unknownArgument = mcp("prompts", project,
                                              {QStringLiteral("everything"), QStringLiteral("--complete"),
                                               QStringLiteral("completable-prompt"), QStringLiteral("team")});
    QCOMPARE(unknownArgument.exitCode, 2);
    QCOMPARE(unknownArgument.out, QByteArray());
    QCOMPARE(unknownArgument.err,
             QByteArray("toolstudio mcp prompts: the prompt \"completable-prompt\" has no argument \"team\" (it has: "
                        "department, name)\n"));
    const CommandResult unknownPrompt = mcp(
        "prompts", project,
        {QStringLiteral("everything"), QStringLiteral("--complete"), QStringLiteral("nope"), QStringLiteral("x")});
    QCOMPARE(unknownPrompt.exitCode, 2);
    QCOMPARE(unknownPrompt.err,
             QByteArray("toolstudio mcp prompts: the server has no prompt \"nope\" (it has: simple-prompt, "
                        "args-prompt, completable-prompt, resource-prompt)\n"));
}

void TestMcpCompleteCommand::referenceServerTemplate()
{
    if (!m_everything)
        QSKIP(ReferenceServerMissing);
    const QString project = m_dir.path();
    const CommandResult id = mcp("resources", project,
                                 {QStringLiteral("everything"), QStringLiteral("--complete"),
                                  QStringLiteral("demo://resource/dynamic/text/{resourceId}"),
                                  QStringLiteral("resourceId"), QStringLiteral("42")});
    QCOMPARE(id.err, QByteArray());
    QCOMPARE(id.exitCode, 0);
    QCOMPARE(id.out, QByteArray("42\n"));
    const CommandResult unknownVariable
        = mcp("resources", project,
              {QStringLiteral("everything"), QStringLiteral("--complete"),
               QStringLiteral("demo://resource/dynamic/text/{resourceId}"), QStringLiteral("id")});
    QCOMPARE(unknownVariable.exitCode, 2);
    QCOMPARE(unknownVariable.err,
             QByteArray("toolstudio mcp resources: the resource template \"demo://resource/dynamic/text/{resourceId}\" "
                        "has no variable \"id\" (it has: resourceId)\n"));
    const CommandResult unknownTemplate = mcp("resources", project,
                                              {QStringLiteral("everything"), QStringLiteral("--complete"),
                                               QStringLiteral("demo://nothing/{x}"), QStringLiteral("x")});
    QCOMPARE(unknownTemplate.exitCode, 2);
    QCOMPARE(
        unknownTemplate.err,
        QByteArray("toolstudio mcp resources: the server has no resource template \"demo://nothing/{x}\" (it "
                   "has: demo://resource/dynamic/text/{resourceId}, demo://resource/dynamic/blob/{resourceId})\n"));
}

void TestMcpCompleteCommand::fakePromptsAndTemplates()
{
    const QString project = m_dir.path();
    const CommandResult greet = mcp("prompts", project,
                                    {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("greet"),
                                     QStringLiteral("name"), QStringLiteral("A")});
    QCOMPARE(greet.err, QByteArray());
    QCOMPARE(greet.exitCode, 0);
    QCOMPARE(greet.out, QByteArray("Ada\nAlan\n"));

    // A template's variable, the other one as context; the template by its URI or its name.
    const CommandResult named
        = mcp("resources", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("file:///notes/{folder}/{name}"),
               QStringLiteral("name"), QStringLiteral("to"), QStringLiteral("--args"),
               QStringLiteral("{\"folder\": \"inbox\"}")});
    QCOMPARE(named.err, QByteArray());
    QCOMPARE(named.exitCode, 0);
    QCOMPARE(named.out, QByteArray("todo.txt\ntoday.txt\n"));
    const CommandResult byName = mcp("resources", project,
                                     {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("note"),
                                      QStringLiteral("folder"), QStringLiteral("i")});
    QCOMPARE(byName.exitCode, 0);
    QCOMPARE(byName.out, QByteArray("inbox\nideas\n"));

    // What the server got: the template's URI (not the name), the context without the
    // completed variable.
    const CommandResult echo = mcp("resources", project,
                                   {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("note"),
                                    QStringLiteral("name"), QStringLiteral("echo"), QStringLiteral("--args"),
                                    QStringLiteral("{\"folder\": \"inbox\", \"name\": \"x\"}")});
    QCOMPARE(echo.exitCode, 0);
    QCOMPARE(QString::fromUtf8(echo.out),
             QStringLiteral("{\"argument\": {\"name\": \"name\", \"value\": \"echo\"}, \"context\": {\"arguments\": "
                            "{\"folder\": \"inbox\"}}, \"ref\": {\"type\": \"ref/resource\", \"uri\": "
                            "\"file:///notes/{folder}/{name}\"}}\n"));

    // A template beyond level 1: its variables are not read here; the server is asked.
    const CommandResult search
        = mcp("resources", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("https://example.com/search{?q}"),
               QStringLiteral("q"), QStringLiteral("x")});
    QCOMPARE(search.exitCode, 1);
    QCOMPARE(search.err,
             QByteArray("toolstudio mcp resources: completion/complete failed: -32602: no completions for "
                        "[\"ref/resource\", \"https://example.com/search{?q}\", \"q\"]\n"));

    // The server's error.
    const CommandResult error = mcp("prompts", project,
                                    {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("greet"),
                                     QStringLiteral("name"), QStringLiteral("error")});
    QCOMPARE(error.exitCode, 1);
    QCOMPARE(error.out, QByteArray());
    QCOMPARE(error.err,
             QByteArray("toolstudio mcp prompts: completion/complete failed: -32602: no completions for that\n"));
}

void TestMcpCompleteCommand::whatIsLeftOutAndMore()
{
    const QString project = m_dir.path();
    const auto complete = [&project](const char *value) {
        return mcp("prompts", project,
                   {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("greet"),
                    QStringLiteral("style"), QString::fromLatin1(value)});
    };
    // Values that are not text, empty, repeated, too long or not printable: left out, counted.
    const CommandResult mixed = complete("mixed");
    QCOMPARE(mixed.exitCode, 0);
    QCOMPARE(mixed.out, QByteArray("ok\nfine\n"));
    QCOMPARE(mixed.err,
             QByteArray("toolstudio mcp prompts: 10 values of the server left out (not text, empty, repeated, longer "
                        "than 500 characters or with control characters)\n"));

    // The server's total and hasMore.
    const CommandResult more = complete("more");
    QCOMPARE(more.exitCode, 0);
    QCOMPARE(more.out, QByteArray("more1\nmore2\n"));
    QCOMPARE(more.err,
             QByteArray("toolstudio mcp prompts: 248 more (the server has 250 in all): give more of the value to "
                        "narrow them\n"));

    // A million values: the first hundred.
    const CommandResult many = complete("many");
    QCOMPARE(many.exitCode, 0);
    QStringList hundred;
    for (int n = 0; n < 100; ++n)
        hundred << QStringLiteral("v%1").arg(n);
    QCOMPARE(QString::fromUtf8(many.out), lines(hundred));
    QCOMPARE(many.err,
             QByteArray("toolstudio mcp prompts: the server has more values than these: give more of the value to "
                        "narrow them\n"));
}

void TestMcpCompleteCommand::badInput()
{
    const QString project = m_dir.path();
    const CommandResult notStrings
        = mcp("resources", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("note"), QStringLiteral("name"),
               QStringLiteral("--args"), QStringLiteral("{\"folder\": 1}")});
    QCOMPARE(notStrings.exitCode, 2);
    QCOMPARE(notStrings.err,
             QByteArray("toolstudio mcp resources: --args must be a JSON object of strings (MCP prompt arguments and "
                        "template variables are strings), e.g. --args '{\"city\": \"Paris\"}'\n"));
    const CommandResult notJson
        = mcp("prompts", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("greet"), QStringLiteral("name"),
               QStringLiteral("--args"), QStringLiteral("{\"style\": ")});
    QCOMPARE(notJson.exitCode, 2);
    QVERIFY2(notJson.err.startsWith("toolstudio mcp prompts: --args"), notJson.err.constData());
    QVERIFY2(notJson.err.endsWith("; pass an object of strings, e.g. --args '{\"city\": \"Paris\"}'\n"),
             notJson.err.constData());

    const CommandResult unknownPrompt
        = mcp("prompts", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("gret"), QStringLiteral("name")});
    // The fake's prompts/list leaves two entries out (no name, arguments not an array): the
    // one asked for may be among them, so the server is asked all the same.
    QCOMPARE(unknownPrompt.exitCode, 1);
    QCOMPARE(unknownPrompt.err,
             QByteArray("toolstudio mcp prompts: prompts/list is not whole (entries left out or cut short): asking "
                        "without checking that \"gret\" has \"name\"\ntoolstudio mcp prompts: completion/complete "
                        "failed: -32602: no completions for [\"ref/prompt\", \"gret\", \"name\"]\n"));
    const CommandResult noArguments
        = mcp("prompts", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("odd"), QStringLiteral("x")});
    QCOMPARE(noArguments.exitCode, 2);
    QCOMPARE(noArguments.err,
             QByteArray("toolstudio mcp prompts: the prompt \"odd\" has no argument \"x\" (it has: none)\n"));
    const CommandResult unknownVariable
        = mcp("resources", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("note"), QStringLiteral("file")});
    QCOMPARE(unknownVariable.exitCode, 2);
    QCOMPARE(unknownVariable.err,
             QByteArray("toolstudio mcp resources: the resource template \"file:///notes/{folder}/{name}\" has no "
                        "variable \"file\" (it has: folder, name)\n"));
    const CommandResult unknownTemplate
        = mcp("resources", project,
              {QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("notes"), QStringLiteral("name")});
    QCOMPARE(unknownTemplate.exitCode, 2);
    QCOMPARE(unknownTemplate.err,
             QByteArray("toolstudio mcp resources: the server has no resource template \"notes\" (it has: "
                        "file:///notes/{folder}/{name}, https://example.com/search{?q})\n"));
    const CommandResult unknownServer
        = mcp("prompts", project,
              {QStringLiteral("nope"), QStringLiteral("--complete"), QStringLiteral("greet"), QStringLiteral("name")});
    QCOMPARE(unknownServer.exitCode, 2);
    QCOMPARE(unknownServer.err,
             QByteArray("toolstudio mcp prompts: the project has no MCP server \"nope\" (it has: bare, everything, "
                        "fake, notfound, tools)\n"));

    // No ARGUMENT, one word too many, --complete with --get: the usage.
    const QByteArray usage("toolstudio mcp prompts: usage: toolstudio mcp prompts PROJECT SERVER [--get NAME [--args "
                           "JSON] | --complete NAME ARGUMENT [PREFIX] [--args JSON]] [--json]\n");
    for (const QStringList &arguments :
         {QStringList{QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("greet")},
          QStringList{QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("greet"),
                      QStringLiteral("name"), QStringLiteral("A"), QStringLiteral("B")},
          QStringList{QStringLiteral("fake"), QStringLiteral("--complete"), QStringLiteral("greet"),
                      QStringLiteral("name"), QStringLiteral("--get"), QStringLiteral("greet")}}) {
        const CommandResult wrong = mcp("prompts", project, arguments);
        QCOMPARE(wrong.exitCode, 2);
        QCOMPARE(wrong.err, usage);
    }
}

void TestMcpCompleteCommand::serversThatOfferNone()
{
    const QString project = m_dir.path();
    const CommandResult bare = mcp("prompts", project,
                                   {QStringLiteral("bare"), QStringLiteral("--complete"), QStringLiteral("greet"),
                                    QStringLiteral("name"), QStringLiteral("A")});
    QCOMPARE(bare.exitCode, 1);
    QCOMPARE(bare.err,
             QByteArray("toolstudio mcp prompts: MCP server 'bare': the server declares no \"completions\" capability "
                        "in its initialize result: it offers none, so the studio does not ask\n"));
    const CommandResult tools
        = mcp("resources", project,
              {QStringLiteral("tools"), QStringLiteral("--complete"), QStringLiteral("note"), QStringLiteral("name")});
    QCOMPARE(tools.exitCode, 1);
    QCOMPARE(tools.err,
             QByteArray("toolstudio mcp resources: MCP server 'tools': the server declares no \"resources\" capability "
                        "in its initialize result: it offers none, so the studio does not ask\n"));

    // Declares completions, but has no completion/complete: said plainly.
    const CommandResult notFound = mcp("prompts", project,
                                       {QStringLiteral("notfound"), QStringLiteral("--complete"),
                                        QStringLiteral("greet"), QStringLiteral("name"), QStringLiteral("A")});
    QCOMPARE(notFound.exitCode, 1);
    QCOMPARE(notFound.out, QByteArray());
    QCOMPARE(notFound.err,
             QByteArray("toolstudio mcp prompts: MCP server 'notfound': the server declares \"completions\" but "
                        "answers completion/complete with -32601: Method not found; it offers no completions\n"));
}

QTEST_GUILESS_MAIN(TestMcpCompleteCommand)
#include "tst_mcpcompletecommand.moc"
