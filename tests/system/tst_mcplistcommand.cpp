// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio mcp list` (and `tools list`) through the built toolstudio: a project's
// servers over stdio (tests/data/mcp/fakeserver.py, plain and confined) and over HTTP,
// the ones that cannot start named, trust asked first, and tools/list entries that are
// no tools.
#include "clirunner.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

class TestMcpListCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void listCommand();
    void listCommandRefusesUntrusted();
    void listEntriesThatAreNotTools();
};

namespace {

/// A project whose mcp_servers are the fake server in three ways (plain, confined to
/// its own folder, and one naming a secret that is not set) and a remote one.
QString writeMcpProject(const QTemporaryDir &dir)
{
    const QString fake
        = qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py");
    QDir(dir.path()).mkdir(QStringLiteral("srv"));
    QFile::copy(fake, dir.filePath(QStringLiteral("srv/fakeserver.py")));
    writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
              R"({"name": "mcp", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "good"]},
  "boxed": {"command": "python3", "args": ["srv/fakeserver.py", "good"], "sandbox": {"read": ["srv"], "network": false}},
  "keyed": {"command": "python3", "args": ["srv/fakeserver.py"], "env": {"K": "${secret:NOT_SET}"}},
  "legacy": {"url": "http://127.0.0.1:1/sse", "type": "sse"},
  "remote": {"url": "http://127.0.0.1:1/mcp"}}})");
    return dir.path();
}

} // namespace

void TestMcpListCommand::listCommand()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = writeMcpProject(dir);
    const CommandResult text = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QCOMPARE(text.exitCode, 1); // "keyed" failed
    QCOMPARE(QString::fromUtf8(text.out),
             QStringLiteral("boxed  ready  MCP 2025-06-18  fake 0  5 tool(s)\n"
                            "  boxed__tool-0\n  boxed__tool-1\n  boxed__tool-2\n  boxed__tool-3\n  boxed__tool-4\n"
                            "fake  ready  MCP 2025-06-18  fake 0  5 tool(s)\n"
                            "  fake__tool-0\n  fake__tool-1\n  fake__tool-2\n  fake__tool-3\n  fake__tool-4\n"
                            "keyed  failed\n"
                            "  cannot start: its env names secrets that are not set: NOT_SET (set them with: "
                            "toolstudio tools secret PROJECT NAME)\n"
                            // HTTP+SSE to a port where no one listens.
                            "legacy  failed\n"
                            "  the server could not be reached: GET http://127.0.0.1:1/sse: Connection refused\n"
                            // Streamable HTTP to a port where no one listens.
                            "remote  failed\n"
                            "  the server's reply to request 1 could not be read: no HTTP reply from "
                            "http://127.0.0.1:1/mcp: Connection refused\n"));

    const CommandResult asJson
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project, QStringLiteral("--json")});
    QCOMPARE(asJson.exitCode, 1);
    const json servers = json::parse(asJson.out.toStdString());
    QCOMPARE(servers.size(), std::size_t(5));
    QCOMPARE(servers[0]["name"].get<std::string>(), std::string("boxed"));
    QCOMPARE(servers[0]["state"].get<std::string>(), std::string("ready"));
    QCOMPARE(servers[0]["protocol_version"].get<std::string>(), std::string("2025-06-18"));
    QCOMPARE(servers[0]["tools"][4]["name"].get<std::string>(), std::string("boxed__tool-4"));
    QCOMPARE(servers[0]["tools"][4]["server_tool"].get<std::string>(), std::string("tool-4"));
    QCOMPARE(servers[2]["state"].get<std::string>(), std::string("failed"));
    QCOMPARE(servers[3]["transport"].get<std::string>(), std::string("HTTP+SSE"));
    QCOMPARE(servers[3]["state"].get<std::string>(), std::string("failed"));
    QCOMPARE(servers[4]["transport"].get<std::string>(), std::string("Streamable HTTP"));
    QCOMPARE(servers[4]["state"].get<std::string>(), std::string("failed"));
}

void TestMcpListCommand::listCommandRefusesUntrusted()
{
    // Starting a server runs the project's code: not without trust (exit 3), and no
    // server is started.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = writeMcpProject(dir);
    const CommandResult result = toolstudioAsGiven({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QCOMPARE(result.exitCode, 3);
    QVERIFY2(result.out.isEmpty(), result.out.constData());
    QVERIFY2(result.err.contains("MCP server 'fake'"), result.err.constData());
}

void TestMcpListCommand::listEntriesThatAreNotTools()
{
    // tools/list with entries that are no tools (1, "text", [], null, a numeric name, no
    // name), a name with control characters, one of 10 000 characters and a duplicate,
    // after 20 000 notifications and 1 000 responses to ids never sent: `mcp list
    // --json` aborted on the number; the text form showed each non-tool as "odd__".
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir(dir.path()).mkdir(QStringLiteral("srv"));
    QFile::copy(qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py"),
                dir.filePath(QStringLiteral("srv/fakeserver.py")));
    writeFile(
        dir.filePath(QStringLiteral("toolstudio.json")),
        R"({"name": "mcp", "mcp_servers": {"odd": {"command": "python3", "args": ["srv/fakeserver.py", "oddtools"]}}})");
    const CommandResult text = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path()});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(!text.out.contains('\x1b'), text.out.constData());
    const QList<QByteArray> lines = text.out.split('\n');
    QCOMPARE(lines.size(), 8);
    QCOMPARE(lines[0], QByteArray("odd  ready  MCP 2025-06-18  fake 0  4 tool(s)"));
    QCOMPARE(lines[1],
             QByteArray("  (6 entries of its tools/list are not tools, not an object with a string name: left out)"));
    // "twice" is listed twice: the first is kept, the second named.
    QCOMPARE(lines[2], QByteArray("  (the tool odd__twice is listed more than once: the first is kept)"));
    QCOMPARE(lines[3],
             QByteArray("  odd__\\u001b]0;pwned\\u0007\\u001b[2Jrun completed\\u202e  (not a valid tool name: scripts "
                        "cannot call it)  \\u001b[31mred"));
    QVERIFY2(lines[4].startsWith("  odd__" + QByteArray(123, 'n') + "… (9877 bytes dropped)"), lines[4].constData());
    QCOMPARE(lines[5], QByteArray("  odd__twice"));
    QCOMPARE(lines[6], QByteArray("  odd__deep"));

    const CommandResult asJson
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path(), QStringLiteral("--json")});
    QCOMPARE(asJson.exitCode, 0);
    const json servers = json::parse(asJson.out.toStdString());
    QCOMPARE(servers[0]["tools"].size(), std::size_t(4));
    QCOMPARE(servers[0]["tools"][2]["server_tool"].get<std::string>(), std::string("twice"));
    QCOMPARE(servers[0]["tools"][3]["server_tool"].get<std::string>(), std::string("deep"));

    // As project tools: one odd__twice, the second named in a warning.
    const CommandResult tools = toolstudio({QStringLiteral("tools"), QStringLiteral("list"), dir.path()});
    QCOMPARE(tools.exitCode, 0);
    QCOMPARE(tools.out.count("odd__twice\t"), 1);
    QVERIFY2(tools.err.contains("warning: MCP server 'odd' lists the tool 'twice' more than once; the first is kept\n"),
             tools.err.constData());
}

QTEST_GUILESS_MAIN(TestMcpListCommand)
#include "tst_mcplistcommand.moc"
