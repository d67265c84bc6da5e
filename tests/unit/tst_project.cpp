// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/project.h"
#include "python/toolsandbox.h"
#include "testfiles.h"
#include "trustedproject.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

/// JSON written with single quotes, so moc (which does not know raw string literals)
/// can read this file: J("{'a': 1}") is {"a": 1}.
QByteArray J(const char *text)
{
    return QByteArray(text).replace('\'', '"');
}

} // namespace

class TestProject : public QObject
{
    Q_OBJECT

private:
    /// Writes `manifest` as toolstudio.json into a fresh folder and returns the folder.
    static QString writeProject(QTemporaryDir &dir, const QByteArray &manifest)
    {
        QFile file(dir.filePath(QStringLiteral("toolstudio.json")));
        if (!file.open(QIODevice::WriteOnly) || file.write(manifest) != manifest.size())
            return QString();
        return dir.path();
    }

private Q_SLOTS:
    void loadsValidFixture()
    {
        const QString dir = QFINDTESTDATA("data/valid-project");
        QVERIFY(!dir.isEmpty());
        ProjectError error;
        const auto project = loadTrusted(dir, &error);
        QVERIFY2(project, qPrintable(error.toString()));

        QCOMPARE(project->name, QStringLiteral("fixture"));
        QCOMPARE(project->dir, QDir(dir).absolutePath());
        QCOMPARE(project->manifestPath(), QDir(dir).absolutePath() + QStringLiteral("/toolstudio.json"));
        QCOMPARE(project->journalPath(), QDir(dir).absolutePath() + QStringLiteral("/.toolstudio/journal.sqlite"));

        // limits
        QCOMPARE(project->limits.requestBytes, std::size_t(1000));
        QCOMPARE(project->limits.replyBytes, std::size_t(2000));
        QCOMPARE(project->limits.maxCalls, 7);
        QCOMPARE(project->limits.runTimeoutMs, 12500);
        QCOMPARE(project->limits.outputBytes, std::size_t(4096));

        // project retry defaults
        QCOMPARE(project->retryDefaults.maxAttempts, 4);
        QCOMPARE(project->retryDefaults.initialBackoffMs, 250);
        QCOMPARE(project->retryDefaults.factor, 3.0);
        QCOMPARE(project->retryDefaults.maxBackoffMs, 10000);
        QCOMPARE(project->retryDefaults.jitter, 0.0);
        QCOMPARE(project->retryDefaults.attemptTimeoutMs, 5000);
        QCOMPARE(project->retryDefaults.totalTimeoutMs, 0);

        QCOMPARE(project->tools.size(), std::size_t(4));

        const Tool *rate = project->tool(QStringLiteral("get_exchange_rate"));
        QVERIFY(rate);
        QCOMPARE(rate->description, QStringLiteral("Exchange rate between two currencies"));
        QCOMPARE(rate->handler, HandlerKind::Mock);
        QCOMPARE(rate->tags, (QStringList{QStringLiteral("finance"), QStringLiteral("demo")}));
        QVERIFY(rate->active);
        QCOMPARE(rate->parameterOrder, (QStringList{QStringLiteral("base"), QStringLiteral("quote")}));
        QVERIFY(rate->outputSchema);
        QCOMPARE(rate->outputSchema->dump(), J("{'type':'number'}").toStdString());
        QCOMPARE(rate->mockSequence.size(), std::size_t(2));
        QVERIFY(rate->mockSequence[0].isError);
        QCOMPARE(rate->mockSequence[0].errorMessage, QStringLiteral("rate service down"));
        QVERIFY(rate->mockSequence[0].retryable); // an error entry is retryable unless it says otherwise
        QCOMPARE(rate->mockSequence[0].delayMs, 100);
        QVERIFY(!rate->mockSequence[1].isError);
        QCOMPARE(rate->mockSequence[1].result.dump(), std::string("0.92"));
        // the tool's retry overrides one key; the others come from the project
        QCOMPARE(rate->retry.maxAttempts, 2);
        QCOMPARE(rate->retry.initialBackoffMs, 250);
        QCOMPARE(rate->retry.factor, 3.0);
        QCOMPARE(rate->retry.attemptTimeoutMs, 5000);

        const Tool *report = project->tool(QStringLiteral("render_report"));
        QVERIFY(report);
        QCOMPARE(report->handler, HandlerKind::Manual);
        // declaration order, not alphabetical
        QCOMPARE(report->parameterOrder,
                 (QStringList{QStringLiteral("topic"), QStringLiteral("format"), QStringLiteral("audience")}));
        QCOMPARE(report->retry.maxAttempts, 4);
        QCOMPARE(report->retry.attemptTimeoutMs, 0); // a person may take any time
        QVERIFY(!report->outputSchema);

        const Tool *lookup = project->tool(QStringLiteral("lookup"));
        QVERIFY(lookup);
        QCOMPARE(lookup->handler, HandlerKind::Command);
        QCOMPARE(lookup->command,
                 (QStringList{QStringLiteral("python3"), QStringLiteral("tools/lookup.py"), QStringLiteral("--fast")}));
        QVERIFY(!lookup->active);
        QCOMPARE(lookup->retry.attemptTimeoutMs, 2000);
        QCOMPARE(lookup->inputSchema.dump(), J("{'type':'object'}").toStdString()); // no input_schema: no arguments
        QVERIFY(lookup->parameterOrder.isEmpty());

        const Tool *ask = project->tool(QStringLiteral("ask_person"));
        QVERIFY(ask);
        QCOMPARE(ask->retry.attemptTimeoutMs, 60000); // its own retry sets a timeout

        // scripts and bound tools
        QCOMPARE(project->scripts.size(), std::size_t(2));
        QCOMPARE(project->defaultScript, QStringLiteral("main"));
        QCOMPARE(project->defaultScriptPath(), QDir(dir).absolutePath() + QStringLiteral("/scripts/main.py"));
        QCOMPARE(project->boundTools(QStringLiteral("scripts/main.py")),
                 (QStringList{QStringLiteral("get_exchange_rate"), QStringLiteral("render_report")}));
        QCOMPARE(project->boundTools(project->defaultScriptPath()),
                 (QStringList{QStringLiteral("get_exchange_rate"), QStringLiteral("render_report")}));
        QCOMPARE(project->boundTools(QStringLiteral("scripts/everything.sh")),
                 (QStringList{QStringLiteral("get_exchange_rate"), QStringLiteral("render_report"),
                              QStringLiteral("ask_person")}));
        QVERIFY(!project->tool(QStringLiteral("nope")));
    }

    void projectWithoutScripts()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeProject(dir, J("{'tools': [{'name': 't', 'handler': {'kind': 'manual'}}]}"));
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->name, QFileInfo(dir.path()).fileName()); // defaults to the folder's name
        QVERIFY(project->defaultScript.isEmpty());
        QVERIFY(project->defaultScriptPath().isEmpty());
        QCOMPARE(project->limits.maxCalls, 100);
        QCOMPARE(project->limits.requestBytes, std::size_t(256 * 1024));
        QCOMPARE(project->tools.front().retry.maxAttempts, 3);
        QCOMPARE(project->toolsNetwork, true);
    }

    /// `sandbox.tools_network` (docs/project-format.md "sandbox"): read by the loader
    /// and, at each launch of trusted code, by ToolSandbox.
    void toolsNetworkSetting()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeProject(dir, J("{'sandbox': {'tools_network': false}}"));
        ProjectError error;
        auto project = Project::load(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->toolsNetwork, false);
        QCOMPARE(ToolSandbox::projectAllowsNetwork(dir.path()), false);
        writeProject(dir, J("{'sandbox': {'tools_network': true}}"));
        project = Project::load(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->toolsNetwork, true);
        QCOMPARE(ToolSandbox::projectAllowsNetwork(dir.path()), true);
        writeProject(dir, J("{'name': 'x'}"));
        QCOMPARE(ToolSandbox::projectAllowsNetwork(dir.path()), true);
        // A manifest the loader refuses gives no network meanwhile.
        writeProject(dir, J("{'sandbox': {'tools_network': 'no'}}"));
        QCOMPARE(ToolSandbox::projectAllowsNetwork(dir.path()), false);
        writeProject(dir, "{\"sandbox\": ");
        QCOMPARE(ToolSandbox::projectAllowsNetwork(dir.path()), false);
    }

    void models()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeProject(dir,
                     J("{'retry': {'max_attempts': 5, 'attempt_timeout_seconds': 9},"
                       "'models': ["
                       "{'name': 'local', 'provider': 'openai-chat', 'base_url': 'http://127.0.0.1:11434/v1/', "
                       "  'model': 'qwen2.5:7b', 'params': {'temperature': 0.2}, 'retry': {'max_attempts': 2}, "
                       "  'stream': false, 'stream_idle_timeout_seconds': 5},"
                       "{'name': 'claude', 'provider': 'anthropic', 'model': 'claude-sonnet-4-5', "
                       "  'api_key_secret': 'ANTHROPIC_API_KEY', 'timeout_seconds': 30},"
                       "{'name': 'teacher', 'provider': 'manual'},"
                       "{'name': 'scripted', 'provider': 'mock', 'turns': ["
                       "  {'tool_calls': [{'name': 'get_rate', 'arguments': {'base': 'EUR'}}, "
                       "                  {'id': 'x', 'name': 'get_rate', 'arguments': '{bad'}]},"
                       "  {'error': 'overloaded', 'retryable': false},"
                       "  {'content': 'done', 'usage': {'input_tokens': 12, 'output_tokens': 3}}]}]}"));
        ProjectError error;
        const auto project = Project::load(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->models.size(), std::size_t(4));

        const ModelConfig *local = project->model(QStringLiteral("local"));
        QVERIFY(local);
        QCOMPARE(local->provider, ModelConfig::Provider::OpenAIChat);
        QCOMPARE(local->baseUrl, QStringLiteral("http://127.0.0.1:11434/v1"));
        QCOMPARE(local->endpointUrl(), QStringLiteral("http://127.0.0.1:11434/v1/chat/completions"));
        QCOMPARE(local->model, QStringLiteral("qwen2.5:7b"));
        QCOMPARE(local->apiKeySecret, QString());
        QCOMPARE(QString::fromStdString(local->params.dump()), QStringLiteral("{\"temperature\":0.2}"));
        QCOMPARE(local->retry.maxAttempts, 2);           // its own retry …
        QCOMPARE(local->timeoutMs, 120000);              // … 120 s by default …
        QCOMPARE(local->retry.attemptTimeoutMs, 120000); // … is the attempt timeout, not the project's 9 s
        QCOMPARE(local->stream, false);
        QCOMPARE(local->streamIdleMs, 5000);

        const ModelConfig *claude = project->model(QStringLiteral("claude"));
        QVERIFY(claude);
        QCOMPARE(claude->provider, ModelConfig::Provider::Anthropic);
        QCOMPARE(claude->endpointUrl(), QStringLiteral("https://api.anthropic.com/v1/messages"));
        QCOMPARE(claude->apiKeySecret, QStringLiteral("ANTHROPIC_API_KEY"));
        QCOMPARE(claude->retry.maxAttempts, 5); // the project's
        QCOMPARE(claude->retry.attemptTimeoutMs, 30000);
        QCOMPARE(claude->stream, true);        // streamed by default …
        QCOMPARE(claude->streamIdleMs, 30000); // … a stream silent for 30 s has stalled

        const ModelConfig *teacher = project->model(QStringLiteral("teacher"));
        QVERIFY(teacher);
        QCOMPARE(teacher->provider, ModelConfig::Provider::Manual);
        QCOMPARE(teacher->retry.attemptTimeoutMs, 0);
        QCOMPARE(teacher->endpointUrl(), QString());

        const ModelConfig *scripted = project->model(QStringLiteral("scripted"));
        QVERIFY(scripted);
        QCOMPARE(scripted->turns.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(scripted->turns[0].message.dump()),
                 QStringLiteral("{\"content\":null,\"role\":\"assistant\",\"tool_calls\":["
                                "{\"function\":{\"arguments\":\"{\\\"base\\\":\\\"EUR\\\"}\",\"name\":\"get_rate\"},"
                                "\"id\":\"call_1_1\",\"type\":\"function\"},"
                                "{\"function\":{\"arguments\":\"{bad\",\"name\":\"get_rate\"},"
                                "\"id\":\"x\",\"type\":\"function\"}]}"));
        QCOMPARE(scripted->turns[0].stopReason, QStringLiteral("tool_calls"));
        QCOMPARE(scripted->turns[1].isError, true);
        QCOMPARE(scripted->turns[1].error, QStringLiteral("overloaded"));
        QCOMPARE(scripted->turns[1].retryable, false);
        QCOMPARE(scripted->turns[2].stopReason, QStringLiteral("stop"));
        QCOMPARE(scripted->turns[2].inputTokens, 12);
        QCOMPARE(scripted->turns[2].outputTokens, 3);
        QVERIFY(!project->model(QStringLiteral("nope")));
    }

    void mcpServers()
    {
        // A Claude Desktop / VS Code config pasted as it is.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeProject(
            dir,
            J("{'mcp_servers': {"
              "'everything': {'command': 'npx', 'args': ['-y', '@modelcontextprotocol/server-everything']},"
              "'files': {'command': 'node', 'args': ['server.js'], 'env': {'ROOT': 'data'}, 'cwd': 'srv',"
              "  'sandbox': {'read': ['docs'], 'read_write': ['data'], 'network': false}},"
              "'remote': {'url': 'https://example.com/mcp', 'headers': {'Authorization': 'Bearer ${secret:T}'}},"
              "'old': {'type': 'sse', 'url': 'http://127.0.0.1:3001/sse', 'disabled': true}},"
              // A script binds a server's tool before the server is connected.
              "'scripts': [{'name': 'main', 'path': 'main.py', 'tools': ['everything__echo', 'files__read']}]}"));
        ProjectError error;
        const auto project = Project::load(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->mcpServers.size(), std::size_t(4));
        const McpServerConfig &everything = project->mcpServers[0];
        QCOMPARE(everything.name, QStringLiteral("everything"));
        QCOMPARE(everything.transport, McpServerConfig::Transport::Stdio);
        QCOMPARE(everything.command, QStringLiteral("npx"));
        QCOMPARE(everything.args,
                 QStringList({QStringLiteral("-y"), QStringLiteral("@modelcontextprotocol/server-everything")}));
        QCOMPARE(everything.sandboxed, false);
        const McpServerConfig &files = project->mcpServers[1];
        QCOMPARE(files.name, QStringLiteral("files"));
        QCOMPARE(files.env.value(QStringLiteral("ROOT")), QStringLiteral("data"));
        QCOMPARE(files.cwd, QStringLiteral("srv"));
        QCOMPARE(files.sandboxed, true);
        QCOMPARE(files.read, QStringList({QStringLiteral("docs")}));
        QCOMPARE(files.readWrite, QStringList({QStringLiteral("data")}));
        QCOMPARE(files.network, false);
        const McpServerConfig &old = project->mcpServers[2];
        QCOMPARE(old.name, QStringLiteral("old"));
        QCOMPARE(old.transport, McpServerConfig::Transport::Sse);
        QCOMPARE(old.disabled, true);
        const McpServerConfig &remote = project->mcpServers[3];
        QCOMPARE(remote.transport, McpServerConfig::Transport::StreamableHttp);
        QCOMPARE(remote.url, QStringLiteral("https://example.com/mcp"));
        QCOMPARE(remote.headers.value(QStringLiteral("Authorization")), QStringLiteral("Bearer ${secret:T}"));
        QCOMPARE(project->boundTools(QStringLiteral("main")),
                 QStringList({QStringLiteral("everything__echo"), QStringLiteral("files__read")}));
        QCOMPARE(McpServerConfig::toolName(QStringLiteral("everything"), QStringLiteral("get-sum")),
                 QStringLiteral("everything__get-sum"));
    }

    void missingFolder()
    {
        QTemporaryDir dir;
        const QString missing = dir.path() + QStringLiteral("/no-such-project");
        ProjectError error;
        QVERIFY(!Project::load(missing, &error));
        QCOMPARE(error.file, missing);
        QCOMPARE(error.line, 0);
        QCOMPARE(error.toString(), missing + QStringLiteral(": project folder does not exist"));
    }

    void missingManifest()
    {
        QTemporaryDir dir;
        ProjectError error;
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.toString(),
                 dir.path()
                     + QStringLiteral("/toolstudio.json: file not found: the folder is not a Tool Studio project"));
    }

    /// A manifest that is a FIFO (which would block the reader until a writer comes), a
    /// device, or a sparse file of 64 GiB is refused without reading it (attack27 F2, F3).
    void manifestNotAFileOrTooLarge()
    {
        QTemporaryDir dir;
        const QString manifest = dir.filePath(QStringLiteral("toolstudio.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(manifest).constData(), 0600), 0);
        ProjectError error;
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.toString(),
                 manifest
                     + QStringLiteral(": not a regular file (a FIFO, a device or a folder); the "
                                      "manifest must be a JSON file"));
        QVERIFY(QFile::remove(manifest));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), manifest));
        QVERIFY(!Project::load(dir.path(), &error));
        QVERIFY2(error.toString().endsWith(QLatin1String(": not a regular file (a FIFO, a device or a folder); the "
                                                         "manifest must be a JSON file")),
                 qPrintable(error.toString()));
        QVERIFY(QFile::remove(manifest));
        QFile sparse(manifest);
        QVERIFY(sparse.open(QIODevice::WriteOnly));
        QVERIFY(sparse.resize(qint64(64) << 30));
        sparse.close();
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.toString(), manifest + QStringLiteral(": larger than 8 MiB, the most a manifest may be"));

        // Within 8 MiB, an object of 400 000 members: refused at once (ordered_json's
        // parse of it is quadratic: minutes of a busy loader, attack27), naming where.
        QByteArray wide = "{\"name\": \"wide\", \"tools\": [{\"name\": \"t\", \"input_schema\": {\"type\": "
                          "\"object\"}, \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": {";
        for (int i = 0; i < 400000; ++i)
            wide += (i ? ",\"" : "\"") + QByteArray::number(i) + "\":0";
        wide += "}}]}}]}";
        QVERIFY(QFile::remove(manifest));
        QVERIFY(writeFile(manifest, wide));
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.toString(),
                 manifest
                     + QStringLiteral(":1:%1: the manifest has an object with more than 1024 members; the studio keeps "
                                      "the order of at most 1024 members of one object here")
                           .arg(wide.indexOf(",\"1024\":") + 1));
    }

    void malformedFixture()
    {
        const QString dir = QFINDTESTDATA("data/malformed-project");
        QVERIFY(!dir.isEmpty());
        ProjectError error;
        QVERIFY(!Project::load(dir, &error));
        QCOMPARE(error.file, QDir(dir).absolutePath() + QStringLiteral("/toolstudio.json"));
        QCOMPARE(error.line, 4);
        QCOMPARE(error.column, 49);
        QCOMPARE(error.message,
                 QStringLiteral("syntax error while parsing object key - unexpected '}'; expected string literal"));
        QVERIFY(!error.toString().contains(QStringLiteral("json.exception")));
    }

    void malformedJson_data()
    {
        QTest::addColumn<QByteArray>("manifest");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");

        // nlohmann reports the last byte it read: the end of the unexpected token
        QTest::newRow("missing comma")
            << QByteArray("{\n  \"name\": \"x\"\n  \"tools\": []\n}\n") << 3 << 9
            << QStringLiteral("syntax error while parsing object - unexpected string literal; expected '}'");
        // columns count characters: "für €" is 5 characters, 8 bytes
        QTest::newRow("after non-ASCII")
            << QByteArray("{\"name\": \"f\xc3\xbcr \xe2\x82\xac\", x}") << 1 << 19
            << QStringLiteral(
                   "syntax error while parsing object key - invalid literal; last read: '\"f\u00fcr \u20ac\", x'; expected string literal");
        QTest::newRow("unterminated")
            << QByteArray("{\n\"name\": [1, 2") << 2 << 14
            << QStringLiteral("syntax error while parsing array - unexpected end of input; expected ']'");
        QTest::newRow("empty file") << QByteArray("") << 1 << 1
                                    << QStringLiteral("the file is empty; expected a JSON object");
    }

    void malformedJson()
    {
        QFETCH(QByteArray, manifest);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        QTemporaryDir dir;
        writeProject(dir, manifest);
        ProjectError error;
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.message, message);
        QCOMPARE(error.line, line);
        QCOMPARE(error.column, column);
        QCOMPARE(error.toString(),
                 QStringLiteral("%1/toolstudio.json:%2:%3: %4").arg(dir.path()).arg(line).arg(column).arg(message));
    }

    // Errors found after parsing point at the offending value (or key, or the object a
    // key is missing from) like parse errors do: "toolstudio.json:LINE:COLUMN: …". In
    // each manifest, '@' marks where the error must point; it is removed before loading.
    void invalidManifest_data()
    {
        QTest::addColumn<QByteArray>("manifest");
        QTest::addColumn<QString>("message");

        const QString rule = QStringLiteral("1 to 128 letters, digits, '_', '-' or '.', starting with a letter, "
                                            "digit or '_'");
        QTest::newRow("mcp_servers an array")
            << J("{'mcp_servers': @[]}")
            << QStringLiteral("'mcp_servers' must be an object (server name → settings), "
                              "not an array");
        QTest::newRow("mcp server name with __")
            << J("{'mcp_servers': {@'a__b': {'command': 'x'}}}")
            << QStringLiteral("mcp server 'a__b': a server name is 1–64 of A-Z a-z "
                              "0-9 _ - without \"__\" (scripts call its tools as "
                              "NAME__TOOL)");
        QTest::newRow("mcp server without command or url") << J("{'mcp_servers': {'s': @{'args': []}}}")
                                                           << QStringLiteral("mcp server 's': give either 'command' (a "
                                                                             "server the studio starts) or 'url' (a "
                                                                             "remote server)");
        QTest::newRow("mcp server with both") << J("{'mcp_servers': {'s': @{'command': 'x', 'url': 'http://a'}}}")
                                              << QStringLiteral("mcp server 's': give either 'command' (a server the "
                                                                "studio starts) or 'url' (a remote server)");
        QTest::newRow("mcp server unknown key") << J("{'mcp_servers': {'s': {'command': 'x', @'comand': 'y'}}}")
                                                << QStringLiteral("mcp server 's': unknown key 'comand' (did you mean "
                                                                  "'command'?)");
        QTest::newRow("Claude Desktop's key")
            << J("{@'mcpServers': {}}") << QStringLiteral("unknown key 'mcpServers' (did you mean 'mcp_servers'?)");
        QTest::newRow("mcp server env not strings")
            << J("{'mcp_servers': {'s': {'command': 'x', 'env': {'A': @1}}}}")
            << QStringLiteral("mcp server 's': 'env': 'A' must be a string, not "
                              "a number");
        QTest::newRow("mcp server ftp url")
            << J("{'mcp_servers': {'s': {'url': @'ftp://a'}}}")
            << QStringLiteral("mcp server 's': 'url' must start with http:// or https://");
        QTest::newRow("mcp server sandbox outside")
            << J("{'mcp_servers': {'s': {'command': 'x', 'sandbox': {'read': @['../home']}}}}")
            << QStringLiteral("mcp server 's': sandbox: 'read': \"../home\" must "
                              "be a folder inside the project (relative, without "
                              "\"..\")");
        // A client ID metadata document's URL (draft-ietf-oauth-client-id-metadata-document
        // §3): the authorization server fetches it, so it must be one it can and may.
        QTest::newRow("client_metadata_url over http")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'http://me.example/c.json'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' \"http://me.example/c.json\" must be an "
                              "https:// URL (the authorization server fetches the client ID metadata document there)");
        QTest::newRow("client_metadata_url without a path")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://me.example/'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' \"https://me.example/\" needs a path: the "
                              "document's own URL, e.g. https://me.example/toolstudio-client.json");
        QTest::newRow("client_metadata_url with a user")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://me:pw@me.example/c.json'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' may not hold a user name or password");
        QTest::newRow("client_metadata_url with a fragment")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://me.example/c.json#x'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' \"https://me.example/c.json#x\" may not "
                              "have a fragment (#…)");
        QTest::newRow("client_metadata_url with dot segments")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://me.example/a/../c.json'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' \"https://me.example/a/../c.json\" may "
                              "not have \".\" or \"..\" in its path");
        QTest::newRow("client_metadata_url with an empty user")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://@me.example/c.json'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' may not hold a user name or password");
        QTest::newRow("client_metadata_url with a Unicode host")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://b\u00fccher.example/c.json'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' \"https://b\u00fccher.example/c.json\" "
                              "must be written in ASCII, as the authorization server compares it: a host in its "
                              "xn-- form, other characters percent-encoded");
        QTest::newRow("client_metadata_url with port 0")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://me.example:0/c.json'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' \"https://me.example:0/c.json\" may not "
                              "name port 0");
        QTest::newRow("client_metadata_url with an encoded CR LF")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'client_metadata_url': "
                 "@'https://me.example/c%0d%0a.json'}}}}")
            << QStringLiteral("mcp server 's': oauth: 'client_metadata_url' \"https://me.example/c%0d%0a.json\" may "
                              "not have a control character, even percent-encoded (%00, %0d, %0a, …)");
        QTest::newRow("redirect_port below 1024")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'redirect_port': @80}}}}")
            << QStringLiteral("mcp server 's': oauth: 'redirect_port' must be at least 1024");
        QTest::newRow("redirect_port over 65535")
            << J("{'mcp_servers': {'s': {'url': 'https://a/mcp', 'oauth': {'redirect_port': @70000}}}}")
            << QStringLiteral("mcp server 's': oauth: 'redirect_port' must be a port, 1024 to 65535");
        QTest::newRow("mcp remote with args")
            << J("{'mcp_servers': {'s': {'url': 'https://a', @'args': []}}}")
            << QStringLiteral("mcp server 's': 'args' is for servers the studio starts; "
                              "this one has 'url'");
        QTest::newRow("name starts with a dash") << J("{'tools': [{'name': @'-rate', 'handler': {'kind': 'manual'}}]}")
                                                 << QStringLiteral("tool '-rate': invalid name (%1)").arg(rule);
        QTest::newRow("name with a space") << J("{'tools': [{'name': @'get rate', 'handler': {'kind': 'manual'}}]}")
                                           << QStringLiteral("tool 'get rate': invalid name (%1)").arg(rule);
        const QByteArray longName(129, 'a');
        QTest::newRow("name of 129 characters")
            << (J("{'tools': [{'name': @'") + longName + J("', 'handler': {'kind': 'manual'}}]}"))
            << QStringLiteral("tool '%1': invalid name (%2)").arg(QString::fromLatin1(longName), rule);
        QTest::newRow("input_schema type 12")
            << J("{'tools': [{'name': 'bad_schema', 'input_schema': {'type': @12}, 'handler': {'kind': 'manual'}}]}")
            << QStringLiteral(
                   "tool 'bad_schema': invalid input_schema: must be an object schema (\"type\": \"object\"), got \"type\": 12");
        QTest::newRow("input_schema of an array")
            << J("{'tools': [{'name': 'list', 'input_schema': {'type': @'array'}, 'handler': {'kind': 'manual'}}]}")
            << QStringLiteral(
                   "tool 'list': invalid input_schema: must be an object schema (\"type\": \"object\"), got \"type\": \"array\"");
        QTest::newRow("input_schema valijson refuses")
            << J("{'tools': [{'name': 'typo', 'input_schema': @{'type': 'object', 'properties': {'a': {'type': 'strin'}}}, 'handler': {'kind': 'manual'}}]}")
            << QStringLiteral("tool 'typo': invalid input_schema: Unrecognised JSON type name 'strin'");
        QTest::newRow("input_schema dangling $ref")
            << J("{'tools': [{'name': 'ref',\n  'input_schema': @{'type': 'object', 'properties': {'a': {'$ref': '#/definitions/x'}}},\n"
                 "  'handler': {'kind': 'manual'}}]}")
            << QStringLiteral(
                   "tool 'ref': invalid input_schema: $ref \"#/definitions/x\" at /properties/a could not be "
                   "resolved: this schema has nothing at \"/definitions/x\"; add the definition there (e.g. "
                   "under \"definitions\") or correct the $ref");
        QTest::newRow("input_schema bad pattern")
            << QByteArray(
                   "{\"tools\": [{\"name\": \"re\", \"input_schema\": @{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\", \"pattern\": \"((\"}}}, \"handler\": {\"kind\": \"manual\"}}]}")
            << QStringLiteral(
                   "tool 're': invalid input_schema: invalid regular expression \"((\" at /properties/a/pattern: missing closing parenthesis at offset 2");
        QTest::newRow("output_schema valijson refuses")
            << J("{'tools': [{'name': 'out', 'output_schema': @{'required': 'a'}, 'handler': {'kind': 'manual'}}]}")
            << QStringLiteral("tool 'out': invalid output_schema: JSON value is not an array.");
        QTest::newRow("duplicate tool") << J(
            "{'tools': [{'name': 'dup', 'handler': {'kind': 'manual'}},\n {'name': @'dup', 'handler': {'kind': 'manual'}}]}")
                                        << QStringLiteral("tool 'dup': declared twice (tool names must be unique)");
        QTest::newRow("unknown handler kind")
            << J("{'tools': [{'name': 'hook', 'handler': {'kind': @'webhook'}}]}")
            << QStringLiteral("tool 'hook' handler: unknown kind 'webhook' (expected mock, manual or command)");
        QTest::newRow("no handler") << J("{'tools': [@{'name': 'lonely'}]}")
                                    << QStringLiteral(
                                           "tool 'lonely': 'handler' is missing (e.g. {\"kind\": \"manual\"})");
        QTest::newRow("command not an array")
            << J("{'tools': [{'name': 'cmd', 'handler': {'kind': 'command', 'command': @'ls -l'}}]}")
            << QStringLiteral(
                   "tool 'cmd' handler: 'command' must be a non-empty array of strings (program, then arguments)");
        QTest::newRow("mock entry with result and error")
            << J("{'tools': [{'name': 'm', 'handler': {'kind': 'mock', 'sequence': [@{'result': 1, 'error': 'x'}]}}]}")
            << QStringLiteral("tool 'm' handler sequence[0]: needs exactly one of 'result' or 'error'");
        QTest::newRow("typo in a tool") << J("{'tools': [{'name': 't', @'retyr': {}, 'handler': {'kind': 'manual'}}]}")
                                        << QStringLiteral("tool 't': unknown key 'retyr' (did you mean 'retry'?)");
        QTest::newRow("annotation hint not a boolean")
            << J("{'tools': [{'name': 'get-tiny-image', 'annotations': {'readOnlyHint': @'yes'}, "
                 "'handler': {'kind': 'manual'}}]}")
            << QStringLiteral("tool 'get-tiny-image' annotations: 'readOnlyHint' must be true or false, not a string");
        QTest::newRow("unknown annotation")
            << J("{'tools': [{'name': 't', 'annotations': {@'readonly': true}, 'handler': {'kind': 'manual'}}]}")
            << QStringLiteral("tool 't' annotations: unknown key 'readonly'");
        QTest::newRow("title not a string")
            << J("{'tools': [{'name': 't', 'title': @3, 'handler': {'kind': 'manual'}}]}")
            << QStringLiteral("tool 't': 'title' must be a string, not a number");
        QTest::newRow("retry factor below 1")
            << J("{'tools': [{'name': 't', 'retry': {'factor': @0.5}, 'handler': {'kind': 'manual'}}]}")
            << QStringLiteral("tool 't' retry: 'factor' must be at least 1");
        QTest::newRow("limit of the wrong type")
            << J("{'limits': {'max_calls': @'many'}}")
            << QStringLiteral("limits: 'max_calls' must be a whole number, not a string");
        QTest::newRow("timeout as a string, third line")
            << J("{\n  'name': 'x',\n    'limits': {'run_timeout_seconds':  @'5'}\n}\n")
            << QStringLiteral("limits: 'run_timeout_seconds' must be a number, not a string");
        QTest::newRow("columns count characters")
            << J("{'name': 'f\xc3\xbcr \xe2\x82\xac', 'limits': {'max_calls': @true}}")
            << QStringLiteral("limits: 'max_calls' must be a whole number, not a boolean");
        QTest::newRow("key given twice: the last one")
            << J("{'limits': {'max_calls': 3, 'max_calls': @null}}")
            << QStringLiteral("limits: 'max_calls' must be a whole number, not null");
        QTest::newRow("escaped key") << J("{'limits': {'max_c\\u0061lls': @[]}}")
                                     << QStringLiteral("limits: 'max_calls' must be a whole number, not an array");
        QTest::newRow("tools_network of the wrong type")
            << J("{'sandbox': {'tools_network': @'off'}}")
            << QStringLiteral("sandbox: 'tools_network' must be true or false, not a string");
        QTest::newRow("sandbox not an object")
            << J("{'sandbox': @false}") << QStringLiteral("'sandbox' must be an object, not a boolean");
        QTest::newRow("unknown sandbox key")
            << J("{'sandbox': {@'network': false}}") << QStringLiteral("sandbox: unknown key 'network'");
        QTest::newRow("script binds an undeclared tool")
            << J("{'scripts': [{'name': 'main', 'path': 'main.py', 'tools': [@'ghost']}]}")
            << QStringLiteral("script 'main': binds tool 'ghost', which is not declared");
        QTest::newRow("script binds a tool of a server not declared")
            << J("{'mcp_servers': {'weather': {'command': 'python3'}}, "
                 "'scripts': [{'name': 'main', 'path': 'main.py', 'tools': [@'wether__forecast']}]}")
            << QStringLiteral("script 'main': binds tool 'wether__forecast', which is not declared");
        QTest::newRow("default script not declared")
            << J("{'default_script': @'main'}")
            << QStringLiteral("'default_script' names 'main', which is not in 'scripts'");
        QTest::newRow("models an object")
            << J("{'models': @{}}") << QStringLiteral("'models' must be an array, not an object");
        QTest::newRow("model without provider")
            << J("{'models': [@{'name': 'm', 'model': 'x'}]}") << QStringLiteral("model 'm': 'provider' is missing");
        QTest::newRow("model unknown provider")
            << J("{'models': [{'name': 'm', 'provider': @'openai'}]}")
            << QStringLiteral("model 'm': 'provider' must be \"openai-chat\", \"anthropic\", \"manual\" or "
                              "\"mock\", not \"openai\"");
        QTest::newRow("model name not an identifier")
            << J("{'models': [{'name': @'my-model', 'provider': 'manual'}]}")
            << QStringLiteral("models[0]: invalid name \"my-model\" (1 to 64 letters, digits or '_', not starting "
                              "with a digit: scripts write models.NAME)");
        QTest::newRow("model without model id") << J("{'models': [@{'name': 'm', 'provider': 'anthropic'}]}")
                                                << QStringLiteral("model 'm': 'model' is missing");
        QTest::newRow("model ftp base_url")
            << J("{'models': [{'name': 'm', 'provider': 'openai-chat', 'model': 'x', 'base_url': @'ftp://h'}]}")
            << QStringLiteral("model 'm': 'base_url' must start with http:// or https://");
        QTest::newRow("model bad secret name")
            << J("{'models': [{'name': 'm', 'provider': 'anthropic', 'model': 'x', 'api_key_secret': @'MY KEY'}]}")
            << QStringLiteral("model 'm': 'api_key_secret' must name a secret (letters, digits and '_', not "
                              "starting with a digit), not \"MY KEY\"");
        QTest::newRow("model params sets messages")
            << J("{'models': [{'name': 'm', 'provider': 'openai-chat', 'model': 'x', 'params': {@'messages': []}}]}")
            << QStringLiteral("model 'm': params: 'messages' is set by the studio, not in params");
        QTest::newRow("model retry with attempt timeout")
            << J("{'models': [{'name': 'm', 'provider': 'openai-chat', 'model': 'x', "
                 "'retry': {@'attempt_timeout_seconds': 3}}]}")
            << QStringLiteral("model 'm' retry: 'attempt_timeout_seconds' is the model's 'timeout_seconds'; set that "
                              "instead");
        QTest::newRow("manual model with base_url")
            << J("{'models': [{'name': 'm', 'provider': 'manual', @'base_url': 'http://h'}]}")
            << QStringLiteral("model 'm': 'base_url' is for openai-chat and anthropic models; this one is manual");
        QTest::newRow("manual model with stream")
            << J("{'models': [{'name': 'm', 'provider': 'manual', @'stream': false}]}")
            << QStringLiteral("model 'm': 'stream' is for openai-chat and anthropic models; this one is manual");
        QTest::newRow("model stream not a boolean")
            << J("{'models': [{'name': 'm', 'provider': 'openai-chat', 'model': 'x', 'stream': @'no'}]}")
            << QStringLiteral("model 'm': 'stream' must be true or false, not a string");
        QTest::newRow("mock model without turns")
            << J("{'models': [@{'name': 'm', 'provider': 'mock'}]}")
            << QStringLiteral("model 'm': 'turns' is missing (the scripted answers of a mock model)");
        QTest::newRow("mock turn with nothing")
            << J("{'models': [{'name': 'm', 'provider': 'mock', 'turns': [@{'usage': {}}]}]}")
            << QStringLiteral("model 'm': turns[0]: give 'content' (a final answer), 'tool_calls' or 'error'");
        QTest::newRow("mock tool call arguments a number")
            << J("{'models': [{'name': 'm', 'provider': 'mock', 'turns': [{'tool_calls': "
                 "[{'name': 't', 'arguments': @3}]}]}]}")
            << QStringLiteral("model 'm': turns[0]: tool_calls[0]: 'arguments' must be an object (or its JSON text), "
                              "not a number");
        QTest::newRow("mock tool calls with one id")
            << J("{'models': [{'name': 'm', 'provider': 'mock', 'turns': [{'tool_calls': "
                 "[{'id': 'c1', 'name': 't'}, {'id': 'c2', 'name': 't'}, @{'id': 'c1', 'name': 'u'}]}]}]}")
            << QStringLiteral("model 'm': turns[0]: tool_calls[2]: 'id' \"c1\" is the id of tool_calls[0] too; give "
                              "each call its own id, or leave 'id' out and one is made");
        QTest::newRow("model declared twice")
            << J("{'models': [{'name': 'm', 'provider': 'manual'}, {'name': @'m', 'provider': 'manual'}]}")
            << QStringLiteral("model 'm': declared twice (model names must be unique)");
        QTest::newRow("not an object") << J("@[1, 2]")
                                       << QStringLiteral("the manifest must be a JSON object, not an array");
    }

    void invalidManifest()
    {
        QFETCH(QByteArray, manifest);
        QFETCH(QString, message);
        const qsizetype marker = manifest.indexOf('@');
        QVERIFY(marker >= 0);
        const QString before = QString::fromUtf8(manifest.left(marker));
        const int line = int(before.count(QLatin1Char('\n'))) + 1;
        const int column = int(before.size() - before.lastIndexOf(QLatin1Char('\n')));
        manifest.remove(marker, 1);
        QTemporaryDir dir;
        writeProject(dir, manifest);
        ProjectError error;
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.message, message);
        QCOMPARE(error.file, dir.path() + QStringLiteral("/toolstudio.json"));
        QCOMPARE(error.line, line);
        QCOMPARE(error.column, column);
        QCOMPARE(error.toString(), QStringLiteral("%1:%2:%3: %4").arg(error.file).arg(line).arg(column).arg(message));
    }

    void toolNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("snake") << QStringLiteral("get_exchange_rate") << true;
        QTest::newRow("camel") << QStringLiteral("getCustomer") << true;
        QTest::newRow("one letter") << QStringLiteral("a") << true;
        QTest::newRow("64 characters") << QString(64, QLatin1Char('a')) << true;
        QTest::newRow("128 characters") << QString(128, QLatin1Char('a')) << true;
        QTest::newRow("129 characters") << QString(129, QLatin1Char('a')) << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("underscore first") << QStringLiteral("_private") << true;
        QTest::newRow("digit first") << QStringLiteral("1rate") << true;
        QTest::newRow("dash (MCP everything)") << QStringLiteral("get-tiny-image") << true;
        QTest::newRow("dot") << QStringLiteral("files.read") << true;
        QTest::newRow("dash last") << QStringLiteral("rate-") << true;
        QTest::newRow("dash first (an option on a command line)") << QStringLiteral("-rate") << false;
        QTest::newRow("dot first") << QStringLiteral(".rate") << false;
        QTest::newRow("dot alone") << QStringLiteral(".") << false;
        QTest::newRow("dot dot") << QStringLiteral("..") << false;
        QTest::newRow("slash") << QStringLiteral("tools/rate") << false;
        QTest::newRow("colon") << QStringLiteral("ns:rate") << false;
        QTest::newRow("space") << QStringLiteral("get rate") << false;
        QTest::newRow("trailing newline") << QStringLiteral("rate\n") << false;
        QTest::newRow("non-ASCII letter") << QStringLiteral("kurs_f\u00fcr") << false;
    }

    void toolNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QCOMPARE(Tool::isValidName(name), valid);
        QVERIFY(Tool::isValidName(Tool::suggestName(name))); // every refusal can suggest a name
        if (valid)
            QCOMPARE(Tool::suggestName(name), name);
    }
};

QTEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
