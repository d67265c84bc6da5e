// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The studio's own requests and the machine's network settings (issue 19 item 1: "System
// proxy settings and extra CA certificates are honoured for HTTPS"; OutgoingNetwork):
// a model step run headless goes through the proxy of `http_proxy` — but never for a
// loopback address — and reaches an HTTPS endpoint with a self-signed certificate only
// when TOOLSTUDIO_EXTRA_CA_CERTS names it. The peers: the fake model server and
// tests/data/net/relay.py (a forward proxy that logs each request; a TLS front).

#include "clirunner.h"
#include "fakemodelserver.h"
#include "llm/outgoingnetwork.h"
#include "testfiles.h"

#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

/// A project whose script asks model `local` at `baseUrl` once and prints the answer or
/// the error.
void writeProject(const QString &dir, const QString &baseUrl)
{
    QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"),
                      "from toolstudio import models, ToolError\n"
                      "try:\n"
                      "    print(models.local.chat([{'role': 'user', 'content': '1 EUR?'}], tools='none').content)\n"
                      "except ToolError as e:\n"
                      "    print('error', e.code, e.message)\n"));
    const json manifest = {{"name", "net"},
                           {"default_script", "main"},
                           {"scripts", {{{"name", "main"}, {"path", "scripts/main.py"}}}},
                           {"tools", json::array()},
                           {"models",
                            {{{"name", "local"},
                              {"provider", "openai-chat"},
                              {"base_url", baseUrl.toStdString()},
                              {"model", "fake-1"},
                              {"timeout_seconds", 10},
                              {"retry", {{"max_attempts", 1}}}}}}};
    QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(manifest.dump(2))));
}

/// Sets `name` to `value` for the scope (the toolstudio children inherit it).
[[nodiscard]] auto scopedEnv(const char *name, const QByteArray &value)
{
    qputenv(name, value);
    return qScopeGuard([name] { qunsetenv(name); });
}

} // namespace

class TstOutgoingNetwork : public QObject
{
    Q_OBJECT

    FakeModelServer m_server;
    QProcess m_proxy;
    QProcess m_tls;
    QTemporaryDir m_certDir;
    int m_serverPort = 0;
    int m_proxyPort = 0;

    /// Starts relay.py with `arguments`; its port.
    static int startRelay(QProcess &process, const QStringList &arguments)
    {
        process.start(FakeModelServer::python(),
                      QStringList{sourceTreeDir() + QStringLiteral("/tests/data/net/relay.py")} + arguments);
        if (!process.waitForStarted())
            return 0;
        while (!process.canReadLine())
            if (!process.waitForReadyRead(20000))
                return 0;
        return process.readLine().trimmed().toInt();
    }

    /// The script's stdout of `toolstudio run DIR`.
    static QByteArray runOutput(const QString &dir, CommandResult *result = nullptr)
    {
        const CommandResult run = toolstudio({QStringLiteral("run"), dir, QStringLiteral("--json")});
        if (result)
            *result = run;
        return scriptStdout(run.out);
    }

    /// What the proxy has logged since the last call.
    QByteArray proxyLog()
    {
        m_proxy.waitForReadyRead(200);
        return m_proxy.readAllStandardOutput();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (toolstudioBinary().isEmpty())
            QSKIP("TOOLSTUDIO_BINARY is not set (run this suite through CTest)");
        if (FakeModelServer::python().isEmpty())
            QSKIP("python3 is not installed: the fake model server and the scripts need it");
        const QString why = m_server.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        m_serverPort = QUrl(m_server.base()).port();
        m_proxyPort = startRelay(m_proxy, {QStringLiteral("proxy")});
        QVERIFY(m_proxyPort > 0);
        // A self-signed certificate for 127.0.0.1, made here.
        QVERIFY(m_certDir.isValid());
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (openssl.isEmpty())
            QSKIP("openssl is not installed: the HTTPS endpoint needs a certificate");
        QProcess make;
        make.start(openssl,
                   {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                    QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("2"),
                    QStringLiteral("-subj"), QStringLiteral("/CN=toolstudio-test"), QStringLiteral("-addext"),
                    QStringLiteral("subjectAltName=IP:127.0.0.1"), QStringLiteral("-keyout"),
                    m_certDir.filePath(QStringLiteral("key.pem")), QStringLiteral("-out"),
                    m_certDir.filePath(QStringLiteral("cert.pem"))});
        QVERIFY(make.waitForFinished(60000));
        QCOMPARE(make.exitCode(), 0);
    }

    void cleanupTestCase()
    {
        for (QProcess *process : {&m_proxy, &m_tls}) {
            process->kill();
            process->waitForFinished();
        }
    }

    void loopbackHosts()
    {
        for (const char *host : {"localhost", "LOCALHOST", "models.localhost", "127.0.0.1", "127.3.2.1", "::1", "[::1]",
                                 "::ffff:127.0.0.1"})
            QVERIFY2(LoopbackDirectProxyFactory::isLoopback(QLatin1String(host)), host);
        for (const char *host : {"example.com", "localhost.example.com", "10.0.0.1", "128.0.0.1", "::2", ""})
            QVERIFY2(!LoopbackDirectProxyFactory::isLoopback(QLatin1String(host)), host);
    }

    /// A model endpoint by name goes through `http_proxy`; without it, that name does not
    /// even resolve.
    void aRemoteEndpointGoesThroughTheProxy()
    {
        QTemporaryDir dir;
        const QString url = QStringLiteral("http://models.invalid:%1/ok").arg(m_serverPort);
        writeProject(dir.path(), url);
        proxyLog();
        {
            const auto proxy = scopedEnv("http_proxy", "http://127.0.0.1:" + QByteArray::number(m_proxyPort));
            QCOMPARE(runOutput(dir.path()), QByteArray("1 EUR is 1.08 USD.\n"));
        }
        QCOMPARE(proxyLog(), QByteArray("PROXY POST ") + url.toUtf8() + "/chat/completions\n");
        CommandResult direct;
        const QByteArray out = runOutput(dir.path(), &direct);
        QVERIFY2(
            out.startsWith(QStringLiteral("error model_unreachable model 'local': cannot reach %1/chat/completions")
                               .arg(url)
                               .toUtf8()),
            out.constData());
        QCOMPARE(proxyLog(), QByteArray());
    }

    /// A local model server is reached directly even when a proxy is set.
    void aLoopbackEndpointBypassesTheProxy()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_server.base() + QStringLiteral("/ok"));
        proxyLog();
        const auto proxy = scopedEnv("http_proxy", "http://127.0.0.1:" + QByteArray::number(m_proxyPort));
        const auto all = scopedEnv("all_proxy", "http://127.0.0.1:" + QByteArray::number(m_proxyPort));
        QCOMPARE(runOutput(dir.path()), QByteArray("1 EUR is 1.08 USD.\n"));
        QCOMPARE(proxyLog(), QByteArray());
    }

    /// HTTPS to a self-signed certificate: refused, with the certificate named; trusted
    /// with TOOLSTUDIO_EXTRA_CA_CERTS; a file without a certificate is said, not ignored.
    void extraCaCertificates()
    {
        const int port = startRelay(m_tls,
                                    {QStringLiteral("tls"), m_certDir.filePath(QStringLiteral("cert.pem")),
                                     m_certDir.filePath(QStringLiteral("key.pem")), QString::number(m_serverPort)});
        QVERIFY(port > 0);
        QTemporaryDir dir;
        writeProject(dir.path(), QStringLiteral("https://127.0.0.1:%1/ok").arg(port));

        QByteArray out = runOutput(dir.path());
        QVERIFY2(out.startsWith("error ") && out.contains("certificate"), out.constData());

        {
            const auto ca
                = scopedEnv(OutgoingNetwork::ExtraCaVariable, m_certDir.filePath(QStringLiteral("cert.pem")).toUtf8());
            QCOMPARE(runOutput(dir.path()), QByteArray("1 EUR is 1.08 USD.\n"));
        }

        const QString notPem = dir.filePath(QStringLiteral("scripts/main.py"));
        const auto bad = scopedEnv(OutgoingNetwork::ExtraCaVariable, notPem.toUtf8());
        CommandResult run;
        out = runOutput(dir.path(), &run);
        QVERIFY2(out.startsWith("error ") && out.contains("certificate"), out.constData());
        QVERIFY2(run.err.contains(QStringLiteral("toolstudio: Extra CA certificates not loaded: "
                                                 "TOOLSTUDIO_EXTRA_CA_CERTS=%1: no PEM certificate in it; HTTPS "
                                                 "trusts only the system's certificates")
                                      .arg(notPem)
                                      .toUtf8()),
                 run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TstOutgoingNetwork)
#include "tst_outgoingnetwork.moc"
