// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// ModelClient against a local fake server speaking both protocols
// (tests/data/models/fakemodelserver.py, on 127.0.0.1 with a free port): one request
// each, the bad inputs of issue 19 that apply to one request.
#include "fakemodelserver.h"
#include "llm/modelclient.h"
#include "testfiles.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <limits>

using json = nlohmann::json;

namespace {

json parsed(const char *text)
{
    return json::parse(QByteArray(text).replace('\'', '"').toStdString());
}

Tool rateTool()
{
    Tool tool;
    tool.name = QStringLiteral("get_rate");
    tool.description = QStringLiteral("Exchange rate");
    tool.inputSchema = parsed("{'type': 'object', 'properties': {'base': {'type': 'string'}}}");
    return tool;
}

ModelRequest question()
{
    ModelRequest request;
    request.messages = parsed("[{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': '1 EUR?'}]");
    request.tools = {rateTool()};
    return request;
}

} // namespace

class TestModelClient : public QObject
{
    Q_OBJECT

private:
    FakeModelServer m_server;
    QNetworkAccessManager m_network; ///< the client's
    QString m_base;                  ///< http://127.0.0.1:PORT
    QTemporaryDir m_project;

    ModelConfig model(bool anthropic, const QString &scenario)
    {
        ModelConfig config;
        config.name = QStringLiteral("fake");
        config.provider = anthropic ? ModelConfig::Provider::Anthropic : ModelConfig::Provider::OpenAIChat;
        config.model = QStringLiteral("fake-1");
        config.baseUrl = m_base + QLatin1Char('/') + scenario;
        config.timeoutMs = 20000;
        return config;
    }

    Secrets secrets(const QString &key = QStringLiteral("good-key"))
    {
        Secrets secrets = Secrets::load(m_project.path());
        secrets.set(QStringLiteral("FAKE_KEY"), key);
        return secrets;
    }

    /// One request through a fresh client; waits for its callback (exactly once).
    ModelResult ask(const ModelConfig &config, const Secrets &secrets, qint64 replyCap = 0)
    {
        ModelClient client(config, secrets, &m_network);
        if (replyCap > 0)
            client.setReplyCap(replyCap);
        std::optional<ModelResult> result;
        int calls = 0;
        QEventLoop loop;
        client.send(question(), [&](const ModelResult &outcome) {
            result = outcome;
            ++calls;
            loop.quit();
        });
        if (!result)
            loop.exec();
        QCoreApplication::processEvents();
        [&] { QCOMPARE(calls, 1); }();
        return result.value_or(ModelResult{});
    }

    json lastRequest() { return m_server.get(QStringLiteral("/last")); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_project.isValid());
        if (FakeModelServer::python().isEmpty())
            QSKIP("python3 is not installed: the fake model server needs it");
        const QString why = m_server.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        m_base = m_server.base();
    }

    void cleanupTestCase() { m_server.stop(); }

    void openAIRoundTrip()
    {
        ModelConfig config = model(false, QStringLiteral("ok"));
        config.apiKeySecret = QStringLiteral("FAKE_KEY");
        config.params = parsed("{'temperature': 0}");
        const ModelResult result = ask(config, secrets());
        QVERIFY2(result.reply, qPrintable(result.error.message));
        QCOMPARE(
            QString::fromStdString(result.reply->toJson().dump()),
            QStringLiteral("{\"message\":{\"content\":null,\"role\":\"assistant\",\"tool_calls\":[{\"function\":"
                           "{\"arguments\":\"{\\\"base\\\": \\\"EUR\\\"}\",\"name\":\"get_rate\"},\"id\":\"call_1\","
                           "\"type\":\"function\"}]},\"stop_reason\":\"tool_calls\",\"usage\":{\"input_tokens\":11,"
                           "\"output_tokens\":5}}"));
        const json last = lastRequest();
        QCOMPARE(last["path"].get<std::string>(), std::string("/ok/chat/completions"));
        QCOMPARE(last["headers"]["authorization"].get<std::string>(), std::string("Bearer good-key"));
        QCOMPARE(last["headers"]["content-type"].get<std::string>(), std::string("application/json"));
        QCOMPARE(last["headers"].contains("x-api-key"), false);
        QCOMPARE(last["body"].get<std::string>(),
                 std::string("{\"model\":\"fake-1\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                             "{\"role\":\"user\",\"content\":\"1 EUR?\"}],\"tools\":[{\"type\":\"function\","
                             "\"function\":{\"name\":\"get_rate\",\"description\":\"Exchange rate\",\"parameters\":"
                             "{\"type\":\"object\",\"properties\":{\"base\":{\"type\":\"string\"}}}}}],"
                             "\"temperature\":0}"));
    }

    void anthropicRoundTrip()
    {
        ModelConfig config = model(true, QStringLiteral("ok"));
        config.apiKeySecret = QStringLiteral("FAKE_KEY");
        const ModelResult result = ask(config, secrets());
        QVERIFY2(result.reply, qPrintable(result.error.message));
        QCOMPARE(
            QString::fromStdString(result.reply->toJson().dump()),
            QStringLiteral("{\"message\":{\"content\":null,\"role\":\"assistant\",\"tool_calls\":[{\"function\":"
                           "{\"arguments\":\"{\\\"base\\\":\\\"EUR\\\"}\",\"name\":\"get_rate\"},\"id\":\"toolu_1\","
                           "\"type\":\"function\"}]},\"stop_reason\":\"tool_calls\",\"usage\":{\"input_tokens\":11,"
                           "\"output_tokens\":5}}"));
        const json last = lastRequest();
        QCOMPARE(last["path"].get<std::string>(), std::string("/ok/v1/messages"));
        QCOMPARE(last["headers"]["x-api-key"].get<std::string>(), std::string("good-key"));
        QCOMPARE(last["headers"]["anthropic-version"].get<std::string>(), std::string("2023-06-01"));
        QCOMPARE(last["headers"].contains("authorization"), false);
        QCOMPARE(last["body"].get<std::string>(),
                 std::string("{\"model\":\"fake-1\",\"max_tokens\":4096,\"system\":\"Be brief.\",\"messages\":"
                             "[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"1 EUR?\"}]}],\"tools\":"
                             "[{\"name\":\"get_rate\",\"description\":\"Exchange rate\",\"input_schema\":{\"type\":"
                             "\"object\",\"properties\":{\"base\":{\"type\":\"string\"}}}}]}"));
    }

    void failures_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<int>("retryAfterMs");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message"); ///< %1 = the endpoint URL

        for (const bool anthropic : {false, true}) {
            const char *p = anthropic ? "anthropic: " : "openai: ";
            QTest::addRow("%s401", p)
                << anthropic << QStringLiteral("auth") << QStringLiteral("wrong-key") << QStringLiteral("model_auth")
                << false << -1 << 401
                << QStringLiteral("model 'fake': the key was refused (HTTP 401 from %1: %2invalid api key); set the "
                                  "secret FAKE_KEY to a valid key (`toolstudio tools secret PROJECT FAKE_KEY`, the "
                                  "key on stdin)")
                       .arg(QStringLiteral("%1"), anthropic ? QStringLiteral("authentication_error: ") : QString());
            QTest::addRow("%s429", p) << anthropic << QStringLiteral("ratelimit") << QString()
                                      << QStringLiteral("rate_limited") << true << 7000 << 429
                                      << QStringLiteral("model 'fake': rate limited (HTTP 429 from %1: %2slow down)")
                                             .arg(QStringLiteral("%1"),
                                                  anthropic ? QStringLiteral("rate_limit_error: ") : QString());
            // Seconds times 1000 overflowed (undefined behaviour) into a negative delay.
            QTest::addRow("%s429, Retry-After the largest int64", p)
                << anthropic << QStringLiteral("ratelimithuge") << QString() << QStringLiteral("rate_limited") << true
                << std::numeric_limits<int>::max() << 429
                << QStringLiteral("model 'fake': rate limited (HTTP 429 from %1: %2slow down)")
                       .arg(QStringLiteral("%1"), anthropic ? QStringLiteral("rate_limit_error: ") : QString());
            QTest::addRow("%s500", p) << anthropic << QStringLiteral("error500") << QString()
                                      << QStringLiteral("model_server_error") << true << -1 << 500
                                      << QStringLiteral("model 'fake': server error (HTTP 500 from %1: %2internal "
                                                        "trouble)")
                                             .arg(QStringLiteral("%1"),
                                                  anthropic ? QStringLiteral("api_error: ") : QString());
            QTest::addRow("%snot JSON", p)
                << anthropic << QStringLiteral("notjson") << QString() << QStringLiteral("model_bad_reply") << false
                << -1 << 0
                << QStringLiteral("model 'fake': the reply is not JSON: syntax error while parsing value - invalid "
                                  "literal; last read: '<' (byte offset 0); it begins: <html><body>Bad "
                                  "gateway</body></html> (from %1)");
            QTest::addRow("%snot the protocol", p)
                << anthropic << QStringLiteral("notprotocol") << QString() << QStringLiteral("model_bad_reply") << false
                << -1 << 0
                << (anthropic ? QStringLiteral("model 'fake': the reply has no content array (is base_url a Messages "
                                               "API server?) (from %1)")
                              : QStringLiteral("model 'fake': the reply has no choices[0].message (is base_url a Chat "
                                               "Completions server?) (from %1)"));
            QTest::addRow("%sover the cap", p)
                << anthropic << QStringLiteral("huge") << QString() << QStringLiteral("reply_too_large") << false << -1
                << 0
                << QStringLiteral("model 'fake': the reply from %1 is larger than 1048576 bytes; it was not read "
                                  "further");
            QTest::addRow("%sover the cap, no length", p)
                << anthropic << QStringLiteral("hugestream") << QString() << QStringLiteral("reply_too_large") << false
                << -1 << 0
                << QStringLiteral("model 'fake': the reply from %1 is larger than 1048576 bytes; it was not read "
                                  "further");
        }
        QTest::addRow("timeout mid-body")
            << false << QStringLiteral("stall") << QString() << QStringLiteral("timeout") << true << -1 << 0
            << QStringLiteral("model 'fake': no complete answer from %1 within 0.5 s (timeout_seconds)");
        QTest::addRow("missing secret")
            << true << QStringLiteral("ok") << QStringLiteral("-") << QStringLiteral("missing_secret") << false << -1
            << 0
            << QStringLiteral("model 'fake': the secret FAKE_KEY is not set; set it with `toolstudio tools secret "
                              "PROJECT FAKE_KEY` (the key on stdin)");
    }

    void failures()
    {
        QFETCH(bool, anthropic);
        QFETCH(QString, scenario);
        QFETCH(QString, key);
        QFETCH(QString, code);
        QFETCH(bool, retryable);
        QFETCH(int, retryAfterMs);
        QFETCH(int, status);
        QFETCH(QString, message);
        ModelConfig config = model(anthropic, scenario);
        if (scenario == QLatin1String("stall"))
            config.timeoutMs = 500;
        Secrets store = Secrets::load(m_project.path());
        if (!key.isEmpty()) {
            config.apiKeySecret = QStringLiteral("FAKE_KEY");
            if (key != QLatin1String("-"))
                store = secrets(key);
        }
        const ModelResult result = ask(config, store, 1024 * 1024);
        QVERIFY(!result.reply);
        QCOMPARE(result.error.message,
                 message.contains(QLatin1String("%1")) ? message.arg(config.endpointUrl()) : message);
        QCOMPARE(result.error.code, code);
        QCOMPARE(result.error.retryable, retryable);
        QCOMPARE(result.error.retryAfterMs, retryAfterMs);
        QCOMPARE(result.error.httpStatus, status);
    }

    void endpointDown()
    {
        // A port that was free a moment ago: nothing listens there.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        ModelConfig config = model(false, QStringLiteral("ok"));
        config.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
        const ModelResult result = ask(config, Secrets());
        QVERIFY(!result.reply);
        QCOMPARE(result.error.code, QStringLiteral("model_unreachable"));
        QCOMPARE(result.error.message,
                 QStringLiteral("model 'fake': cannot reach http://127.0.0.1:%1/v1/chat/completions: connection "
                                "refused; is the server running?")
                     .arg(port));
        QCOMPARE(result.error.retryable, true);
    }

    // Issue 16: a key goes only to the host it was entered for. Its first use binds it
    // (in the secrets file); a model whose base_url names another host — another port
    // counts — gets a refusal that says how to allow it, and no request is made.
    void keyBoundToTheHostItWasFirstSentTo()
    {
        Secrets store = Secrets::load(m_project.path());
        QVERIFY(store.set(QStringLiteral("BOUND_KEY"), QStringLiteral("bound-key-5678")));
        QVERIFY(store.save());
        ModelConfig config = model(false, QStringLiteral("ok"));
        config.apiKeySecret = QStringLiteral("BOUND_KEY");
        const QString host = QUrl(m_base).host() + QLatin1Char(':') + QString::number(QUrl(m_base).port());
        ModelResult result = ask(config, Secrets::load(m_project.path()));
        QVERIFY2(result.reply, qPrintable(result.error.message));
        QCOMPARE(Secrets::load(m_project.path()).hosts(QStringLiteral("BOUND_KEY")), QStringList{host});

        const json before = lastRequest();
        config.baseUrl = QStringLiteral("http://localhost:%1/ok").arg(QUrl(m_base).port());
        result = ask(config, Secrets::load(m_project.path()));
        QVERIFY(!result.reply);
        QCOMPARE(result.error.code, QStringLiteral("secret_not_for_host"));
        QCOMPARE(result.error.message,
                 QStringLiteral("model 'fake': the secret BOUND_KEY is bound to %1, not to localhost:%2 (a key goes "
                                "only to the hosts it was entered for); if localhost:%2 should get it, run "
                                "`toolstudio tools secret PROJECT BOUND_KEY --host localhost:%2` (add --host for "
                                "each host it may go to)")
                     .arg(host)
                     .arg(QUrl(m_base).port()));
        QCOMPARE(lastRequest().dump(), before.dump());

        // Another port of the same host counts as another host too. Bound to both: sent
        // again. (A second fake server, not "localhost": a fresh Debian root has no
        // /etc/hosts, so no name but an address resolves there.)
        FakeModelServer other;
        const QString started = other.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
        const QString otherHost
            = QUrl(other.base()).host() + QLatin1Char(':') + QString::number(QUrl(other.base()).port());
        config.baseUrl = other.base() + QStringLiteral("/ok");
        result = ask(config, Secrets::load(m_project.path()));
        QVERIFY(!result.reply);
        QCOMPARE(result.error.code, QStringLiteral("secret_not_for_host"));
        QCOMPARE(other.get(QStringLiteral("/count")).dump(), std::string("{\"count\":0}"));
        store = Secrets::load(m_project.path());
        store.setHosts(QStringLiteral("BOUND_KEY"), store.hosts(QStringLiteral("BOUND_KEY")) + QStringList{otherHost});
        QVERIFY(store.save());
        result = ask(config, Secrets::load(m_project.path()));
        QVERIFY2(result.reply, qPrintable(result.error.message));
        QCOMPARE(other.get(QStringLiteral("/count")).dump(), std::string("{\"count\":1}"));
        QVERIFY(store.set(QStringLiteral("BOUND_KEY"), QStringLiteral("another-key-9012")));
        QCOMPARE(store.hosts(QStringLiteral("BOUND_KEY")), QStringList());
    }

    void keyMaskedInErrors()
    {
        // A server that echoes the key back in its error: the message never carries it.
        ModelConfig config = model(false, QStringLiteral("auth"));
        config.apiKeySecret = QStringLiteral("FAKE_KEY");
        config.baseUrl = m_base + QStringLiteral("/sk-secret-value-1234");
        const ModelResult result = ask(config, secrets(QStringLiteral("sk-secret-value-1234")));
        QVERIFY(!result.reply);
        QVERIFY2(!result.error.message.contains(QLatin1String("sk-secret-value-1234")),
                 qPrintable(result.error.message));
        QVERIFY2(result.error.message.contains(QLatin1String(Secrets::Mask)), qPrintable(result.error.message));
    }

    // A server that echoes the key at the edge of what an error quotes (200 characters):
    // not even its first characters reach the message.
    void keyMaskedAtTheQuoteEdge()
    {
        for (const bool anthropic : {false, true}) {
            ModelConfig config = model(anthropic, QStringLiteral("echokey"));
            config.apiKeySecret = QStringLiteral("FAKE_KEY");
            const QString key = QStringLiteral("sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ");
            const ModelResult result = ask(config, secrets(key));
            QVERIFY(!result.reply);
            QCOMPARE(result.error.code, QStringLiteral("model_auth"));
            QVERIFY2(!result.error.message.contains(QLatin1String("sk-live")), qPrintable(result.error.message));
        }
    }

    // A gzip reply that inflates to 512 MiB: Qt stops inflating it (its decompression
    // bomb check) and says so on a 200; the client used to parse the zero-filled body
    // ("the reply is not JSON … it begins: \u0000\u0000…"). The memory stays bounded.
    void gzipBombRefused()
    {
        const auto peakKiB = [] {
            const QByteArray status = fileBytes(QStringLiteral("/proc/self/status"));
            const qsizetype at = status.indexOf("VmHWM:");
            return status.mid(at + 6, status.indexOf('\n', at) - at - 6).trimmed().split(' ').front().toLongLong();
        };
        const qint64 before = peakKiB();
        const ModelConfig config = model(false, QStringLiteral("gzipbomb"));
        const ModelResult result = ask(config, Secrets(), 1024 * 1024);
        QVERIFY(!result.reply);
        QCOMPARE(result.error.message,
                 QStringLiteral("model 'fake': the reply from %1 could not be read whole: "
                                "Decompression failed")
                     .arg(config.endpointUrl()));
        QCOMPARE(result.error.code, QStringLiteral("model_bad_reply"));
        QCOMPARE(result.error.retryable, false);
        const qint64 growth = peakKiB() - before;
        QVERIFY2(growth < 64 * 1024, QByteArray::number(growth) + " KiB more at the peak");
    }

    // A redirect to another host is not followed: the key stays with base_url's host.
    void redirectNotFollowed()
    {
        ModelConfig config = model(false, QStringLiteral("redirect"));
        config.apiKeySecret = QStringLiteral("FAKE_KEY");
        const ModelResult result = ask(config, secrets(QStringLiteral("sk-redirect-0123456789")));
        QVERIFY(!result.reply);
        QCOMPARE(result.error.code, QStringLiteral("model_refused"));
        QCOMPARE(result.error.httpStatus, 307);
        QCOMPARE(QString::fromStdString(lastRequest().value("path", "")), QStringLiteral("/redirect/chat/completions"));
    }

    void mockTurns()
    {
        ModelConfig config;
        config.name = QStringLiteral("scripted");
        config.provider = ModelConfig::Provider::Mock;
        ModelTurn call;
        call.message = parsed("{'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'c', 'type': 'function', "
                              "'function': {'name': 'get_rate', 'arguments': '{bad'}}]}");
        call.stopReason = QStringLiteral("tool_calls");
        ModelTurn failure;
        failure.isError = true;
        failure.error = QStringLiteral("overloaded");
        ModelTurn answer;
        answer.message = parsed("{'role': 'assistant', 'content': 'done'}");
        answer.stopReason = QStringLiteral("stop");
        answer.inputTokens = 3;
        config.turns = {call, failure, answer};

        ModelClient client(config, Secrets(), &m_network);
        QStringList seen;
        for (int i = 0; i < 4; ++i) {
            QEventLoop loop;
            client.send(question(), [&](const ModelResult &result) {
                seen << (result.reply ? QString::fromStdString(result.reply->toJson().dump())
                                      : result.error.code + QLatin1Char(' ') + result.error.message);
                loop.quit();
            });
            loop.exec();
        }
        QCOMPARE(
            seen,
            QStringList({QStringLiteral("{\"argument_errors\":{\"c\":\"arguments are not valid JSON: syntax error "
                                        "while parsing object key - invalid literal; last read: '{b'; expected "
                                        "string literal; they were: {bad\"},\"message\":{\"content\":null,"
                                        "\"role\":\"assistant\",\"tool_calls\":[{\"function\":{\"arguments\":"
                                        "\"{bad\",\"name\":\"get_rate\"},\"id\":\"c\",\"type\":\"function\"}]},"
                                        "\"stop_reason\":\"tool_calls\",\"usage\":{\"input_tokens\":0,"
                                        "\"output_tokens\":0}}"),
                         QStringLiteral("model_failed model 'scripted': overloaded"),
                         QStringLiteral("{\"message\":{\"content\":\"done\",\"role\":\"assistant\"},\"stop_reason\":"
                                        "\"stop\",\"usage\":{\"input_tokens\":3,\"output_tokens\":0}}"),
                         QStringLiteral("{\"message\":{\"content\":\"done\",\"role\":\"assistant\"},\"stop_reason\":"
                                        "\"stop\",\"usage\":{\"input_tokens\":3,\"output_tokens\":0}}")}));
    }

    void cancelledRequestCallsNothing()
    {
        ModelConfig config = model(false, QStringLiteral("stall"));
        ModelClient client(config, Secrets(), &m_network);
        bool called = false;
        const quint64 id = client.send(question(), [&](const ModelResult &) { called = true; });
        QTest::qWait(50);
        client.cancel(id);
        QTest::qWait(100);
        QCOMPARE(called, false);
    }
};

QTEST_GUILESS_MAIN(TestModelClient)
#include "tst_modelclient.moc"
