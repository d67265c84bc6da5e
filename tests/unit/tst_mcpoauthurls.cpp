// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Where sign-in may send its requests (McpOAuthHttp::refusedUrl, docs/mcp.md "Signing
// in"): https anywhere; plain http only to this machine's loopback and only when the MCP
// server itself is not https — a remote server's metadata must not steer the sign-in
// (its client secret, its code) to a local service over plain http (attack31 F9).
#include "mcp/mcpoauthhttp.h"
#include "mcp/mcpoauthmetadata.h"

#include <QTest>

class TestMcpOAuthUrls : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusedUrl_data();
    void refusedUrl();
    void endpointsOfAnHttpsServerAreHttps();
    void resourceMetadataMustNameTheServer_data();
    void resourceMetadataMustNameTheServer();
};

void TestMcpOAuthUrls::refusedUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("refusal"); // "" = allowed
    const QString remote = QStringLiteral("https://mcp.example.com/mcp");
    const QString local = QStringLiteral("http://127.0.0.1:8931/mcp");
    QTest::newRow("https, remote server") << QStringLiteral("https://auth.example.com/token") << remote << QString();
    QTest::newRow("https, local server") << QStringLiteral("https://auth.example.com/token") << local << QString();
    QTest::newRow("http loopback, local server") << QStringLiteral("http://127.0.0.1:9000/token") << local << QString();
    QTest::newRow("http ::1, local server") << QStringLiteral("http://[::1]:9000/token") << local << QString();
    QTest::newRow("http localhost, no server")
        << QStringLiteral("http://localhost:9000/token") << QString() << QString();
    QTest::newRow("http loopback, remote server")
        << QStringLiteral("http://127.0.0.1:9000/token") << remote
        << QStringLiteral("http://127.0.0.1:9000/token is plain http to this machine while the MCP server is https "
                          "(https://mcp.example.com/mcp): a remote server's sign-in goes only to https URLs");
    QTest::newRow("http localhost, remote server")
        << QStringLiteral("http://LOCALHOST:6379/") << remote
        << QStringLiteral("http://localhost:6379/ is plain http to this machine while the MCP server is https "
                          "(https://mcp.example.com/mcp): a remote server's sign-in goes only to https URLs");
    QTest::newRow("http elsewhere")
        << QStringLiteral("http://auth.example.com/token") << local
        << QStringLiteral("http://auth.example.com/token is not an https:// URL (sign-in talks only https, or http to "
                          "this machine's loopback address)");
    QTest::newRow("no host") << QStringLiteral("https:///token") << remote
                             << QStringLiteral("\"https:///token\" is not a URL with a host");
}

void TestMcpOAuthUrls::refusedUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, server);
    QFETCH(QString, refusal);
    QCOMPARE(McpOAuthHttp::refusedUrl(QUrl(url), QUrl(server)), refusal);
}

// An https server's authorization server may not name a loopback http token endpoint.
void TestMcpOAuthUrls::endpointsOfAnHttpsServerAreHttps()
{
    const QByteArray body = "{\"issuer\": \"https://auth.example.com\", \"authorization_endpoint\": "
                            "\"https://auth.example.com/authorize\", \"token_endpoint\": "
                            "\"http://127.0.0.1:8080/token\", \"code_challenge_methods_supported\": [\"S256\"]}";
    QString why;
    QVERIFY(!McpOAuthMetadata::readServer(body, QStringLiteral("https://auth.example.com"),
                                          QUrl(QStringLiteral("https://mcp.example.com/mcp")), &why));
    QCOMPARE(why,
             QStringLiteral("its token_endpoint: http://127.0.0.1:8080/token is plain http to this machine while "
                            "the MCP server is https (https://mcp.example.com/mcp): a remote server's sign-in "
                            "goes only to https URLs"));
    // The same metadata for a server on this machine (a test or local server) is taken.
    why.clear();
    const auto local = McpOAuthMetadata::readServer(body, QStringLiteral("https://auth.example.com"),
                                                    QUrl(QStringLiteral("http://127.0.0.1:8931/mcp")), &why);
    QVERIFY2(local, qPrintable(why));
    QCOMPARE(local->tokenEndpoint, QUrl(QStringLiteral("http://127.0.0.1:8080/token")));
}

// RFC 9728: the protected resource metadata names the resource it is for; metadata for
// another resource, or for none, is not used.
void TestMcpOAuthUrls::resourceMetadataMustNameTheServer_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("why"); // "" = taken
    const QByteArray servers = "\"authorization_servers\": [\"https://auth.example.com\"]";
    QTest::newRow("the endpoint") << QByteArray("{\"resource\": \"https://mcp.example.com/mcp\", " + servers + "}")
                                  << QString();
    QTest::newRow("its root") << QByteArray("{\"resource\": \"https://mcp.example.com\", " + servers + "}")
                              << QString();
    QTest::newRow("no resource")
        << QByteArray("{" + servers + "}")
        << QStringLiteral("the protected resource metadata names no resource (RFC 9728 §2: it must, and it must be "
                          "the MCP server's URL)");
    QTest::newRow("another host") << QByteArray("{\"resource\": \"https://evil.example/mcp\", " + servers + "}")
                                  << QStringLiteral(
                                         "the protected resource metadata is for \"https://evil.example/mcp\", not for "
                                         "\"https://mcp.example.com/mcp\"");
    QTest::newRow("no authorization server")
        << QByteArray("{\"resource\": \"https://mcp.example.com/mcp\"}")
        << QStringLiteral("the protected resource metadata lists no authorization_servers");
}

void TestMcpOAuthUrls::resourceMetadataMustNameTheServer()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, why);
    QString problem;
    const auto metadata
        = McpOAuthMetadata::readResource(body, QUrl(QStringLiteral("https://mcp.example.com/mcp")), &problem);
    QCOMPARE(problem, why);
    QCOMPARE(bool(metadata), why.isEmpty());
}

QTEST_GUILESS_MAIN(TestMcpOAuthUrls)
#include "tst_mcpoauthurls.moc"
