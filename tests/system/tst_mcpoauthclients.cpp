// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Which client the sign-in uses (MCP 2026-07-28 "Client Registration", 2025-11-25
// "Authorization"; docs/mcp.md "Signing in"): a pre-registered oauth.client_id first;
// then a client ID metadata document's URL (oauth.client_metadata_url) when the
// authorization server has client_id_metadata_document_supported; then dynamic client
// registration; else a failure naming the ways out. Against
// tests/data/mcp/fakeoauthserver.py, whose "cimd…" tenants take documents the suite hosts
// on it (as the person would on their own site): `toolstudio mcp client-metadata` prints
// the document, the fake checks that the authorization and token requests (and a
// refresh) carry its URL as client_id and that nothing was registered. The sign-in's
// steps are read from McpOAuthFlow in this process, where they are kept even when it
// succeeds.
#include "everythingserver.h"
#include "fakeoauthserver.h"

#include "mcp/mcpoauthflow.h"
#include "project/project.h"

#include <QDeadlineTimer>
#include <QTest>

using nlohmann::json;

namespace {

const QString documentUrl = QStringLiteral("https://client.example/toolstudio-client.json");

/// What a sign-in in this process came to, and its steps (McpOAuthLog::text).
struct SignIn
{
    bool succeeded = false;
    QString failure;
    QString steps;
};

/// Signs in to server "remote" of the project in `projectDir`, the suite as the browser.
SignIn signIn(const QString &projectDir)
{
    ProjectError error;
    const auto project = Project::load(projectDir, &error);
    if (!project)
        return {false, error.toString(), {}};
    QStringList missing;
    McpOAuthFlow flow(McpOAuthFlow::settingsFor(project->mcpServers.front(), project->dir, &missing));
    QNetworkAccessManager browser;
    std::unique_ptr<QNetworkReply> page;
    QObject::connect(&flow, &McpOAuthFlow::authorizationUrl, &flow, [&browser, &page](const QUrl &url) {
        QNetworkRequest request(url);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
        page.reset(browser.get(request));
    });
    QSignalSpy succeeded(&flow, &McpOAuthFlow::succeeded);
    QSignalSpy failed(&flow, &McpOAuthFlow::failed);
    flow.start();
    const QDeadlineTimer deadline(30000);
    while (succeeded.isEmpty() && failed.isEmpty() && !deadline.hasExpired())
        QTest::qWait(20);
    if (succeeded.isEmpty() && failed.isEmpty())
        flow.abort(QStringLiteral("the suite waited 30 s"));
    return {!succeeded.isEmpty(), failed.isEmpty() ? QString() : failed.first().first().toString(), flow.log().text()};
}

/// `toolstudio mcp client-metadata PROJECT remote ARGUMENTS…`, the project not trusted.
CommandResult clientMetadata(const QString &projectDir, const QStringList &arguments = {})
{
    return toolstudioAsGiven(
        QStringList{QStringLiteral("mcp"), QStringLiteral("client-metadata"), projectDir, QStringLiteral("remote")}
        + arguments);
}

} // namespace

class TestMcpOAuthClients : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void clientMetadataCommand_data();
    void clientMetadataCommand();
    void documentUsedWhenAdvertisedAndConfigured();
    void documentWithAnyLoopbackPort();
    void preRegisteredComesFirst();
    void advertisedButNotConfiguredRegisters();
    void noClientToBeHad_data();
    void noClientToBeHad();

private:
    /// Hosts the document `mcp client-metadata` prints for `projectDir` on the fake.
    void hostDocument(const QString &projectDir);

    FakeOAuthServer m_fake;
};

void TestMcpOAuthClients::initTestCase()
{
    isolateConfigDir();
    QVERIFY(m_fake.start());
}

void TestMcpOAuthClients::hostDocument(const QString &projectDir)
{
    const CommandResult printed = clientMetadata(projectDir);
    QVERIFY2(printed.exitCode == 0, printed.out + printed.err);
    const json document = json::parse(printed.out.toStdString(), nullptr, false);
    QVERIFY2(document.is_object(), printed.out + printed.err);
    QCOMPARE(m_fake.post("/host", {{"url", documentUrl.toStdString()}, {"document", document}}).dump(),
             std::string("{}"));
}

void TestMcpOAuthClients::clientMetadataCommand_data()
{
    QTest::addColumn<QString>("oauth");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("redirectUri"); // "" when nothing is printed
    QTest::addColumn<QString>("err");         // DOC stands for documentUrl
    const QString host = QStringLiteral("Host this document at DOC (as application/json, over https): the "
                                        "authorization server fetches it when the studio signs in with that URL as its "
                                        "client_id.\n");
    QTest::newRow("the entry's redirect_port")
        << QStringLiteral("{\"client_metadata_url\": \"DOC\", \"redirect_port\": 48123}") << QStringList() << 0
        << QStringLiteral("http://127.0.0.1:48123/callback")
        << host + QStringLiteral("The studio listens for the redirect on port 48123 (oauth.redirect_port).\n");
    QTest::newRow("the same --port") << QStringLiteral("{\"client_metadata_url\": \"DOC\", \"redirect_port\": 48123}")
                                     << QStringList{QStringLiteral("--port"), QStringLiteral("48123")} << 0
                                     << QStringLiteral("http://127.0.0.1:48123/callback")
                                     << host
            + QStringLiteral("The studio listens for the redirect on port 48123 (oauth.redirect_port).\n");
    QTest::newRow("any port") << QStringLiteral("{\"client_metadata_url\": \"DOC\"}") << QStringList() << 0
                              << QStringLiteral("http://127.0.0.1/callback")
                              << host
            + QStringLiteral("Its redirect URI has no port: the studio listens on a port of the system's choice, which "
                             "an authorization server following RFC 8252 §7.3 accepts. One that compares redirect URIs "
                             "exactly refuses it: then set \"redirect_port\" in the entry's \"oauth\" and host the "
                             "document printed again.\n");
    QTest::newRow("--port without redirect_port") << QStringLiteral("{\"client_metadata_url\": \"DOC\"}")
                                                  << QStringList{QStringLiteral("--port"), QStringLiteral("48200")} << 0
                                                  << QStringLiteral("http://127.0.0.1:48200/callback")
                                                  << host
            + QStringLiteral("Add \"redirect_port\": 48200 to the entry's \"oauth\" so that the studio listens on that "
                             "port.\n");
    QTest::newRow("--port that is not redirect_port")
        << QStringLiteral("{\"client_metadata_url\": \"DOC\", \"redirect_port\": 48123}")
        << QStringList{QStringLiteral("--port"), QStringLiteral("48200")} << 2 << QString()
        << QStringLiteral(
               "toolstudio mcp client-metadata: --port 48200 is not the entry's oauth.redirect_port (48123): "
               "the document must name the port the studio listens on; change redirect_port, or leave "
               "--port out\n");
    QTest::newRow("--port 80") << QStringLiteral("{\"client_metadata_url\": \"DOC\"}")
                               << QStringList{QStringLiteral("--port"), QStringLiteral("80")} << 2 << QString()
                               << QStringLiteral(
                                      "toolstudio mcp client-metadata: --port takes a port, 1024 to 65535\n");
    QTest::newRow("no client_metadata_url")
        << QStringLiteral("{\"scopes\": [\"mcp:tools\"]}") << QStringList() << 2 << QString()
        << QStringLiteral("toolstudio mcp client-metadata: the entry of remote names no oauth.client_metadata_url: "
                          "choose the https URL where you will host the document, add it to the entry as \"oauth\": "
                          "{\"client_metadata_url\": \"https://…\"}, and run this again (the document's client_id "
                          "must be that URL exactly)\n");
}

// The document is printed whole, as the person hosts it: its client_id is the URL exactly.
void TestMcpOAuthClients::clientMetadataCommand()
{
    QFETCH(QString, oauth);
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, redirectUri);
    QFETCH(QString, err);
    QTemporaryDir dir;
    const QString projectDir
        = m_fake.project(dir, QStringLiteral("cimd"), oauth.replace(QStringLiteral("DOC"), documentUrl).toUtf8());
    const CommandResult printed = clientMetadata(projectDir, arguments);
    QCOMPARE(printed.exitCode, exitCode);
    QCOMPARE(QString::fromUtf8(printed.err), err.replace(QStringLiteral("DOC"), documentUrl));
    if (redirectUri.isEmpty()) {
        QCOMPARE(printed.out, QByteArray());
        return;
    }
    QCOMPARE(QString::fromUtf8(printed.out),
             QStringLiteral("{\n"
                            "  \"application_type\": \"native\",\n"
                            "  \"client_id\": \"%1\",\n"
                            "  \"client_name\": \"Tool Studio\",\n"
                            "  \"grant_types\": [\n"
                            "    \"authorization_code\",\n"
                            "    \"refresh_token\"\n"
                            "  ],\n"
                            "  \"redirect_uris\": [\n"
                            "    \"%2\"\n"
                            "  ],\n"
                            "  \"response_types\": [\n"
                            "    \"code\"\n"
                            "  ],\n"
                            "  \"token_endpoint_auth_method\": \"none\"\n"
                            "}\n")
                 .arg(documentUrl, redirectUri));
}

// The document's URL is the client: no registration, the URL as client_id in the
// authorization, the token exchange and the refresh; signing in again uses it again.
void TestMcpOAuthClients::documentUsedWhenAdvertisedAndConfigured()
{
    const QString mode = QStringLiteral("cimdexpiring"); // its first token expires at once
    QTemporaryDir dir;
    const quint16 port = freePort();
    const QString projectDir = m_fake.project(
        dir, mode,
        QStringLiteral("{\"client_metadata_url\": \"%1\", \"redirect_port\": %2}").arg(documentUrl).arg(port).toUtf8());
    hostDocument(projectDir);

    const Login first = FakeOAuthServer::login(projectDir, true);
    QVERIFY2(first.exitCode == 0, first.out + first.err);
    QVERIFY2(first.out.contains("waiting for the browser to come back to http://127.0.0.1:" + QByteArray::number(port)
                                + "/callback"),
             first.out.constData());
    json seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", -1), 0);
    QCOMPARE(seen.value("documents", -1), 1);
    QCOMPARE(seen.value("authorize_client", std::string()), documentUrl.toStdString());
    QCOMPARE(seen.value("token_client", std::string()), documentUrl.toStdString());
    QCOMPARE(seen.value("verifier_checked", -1), 1);
    const QByteArray savedLine = first.out.mid(first.out.indexOf("secrets in ") + 11);
    const QString secrets
        = QString::fromUtf8(fileBytes(QString::fromUtf8(savedLine.left(savedLine.indexOf(" (mode 0600")))));
    QVERIFY2(secrets.contains(QStringLiteral("\"client_id\": \"%1\"").arg(documentUrl)), qPrintable(secrets));
    QVERIFY2(secrets.contains(QStringLiteral("\"registered\": false")), qPrintable(secrets));
    QVERIFY2(!secrets.contains(QStringLiteral("client_secret")), qPrintable(secrets));

    // The expired token is refreshed with the same client_id (the fake refuses another).
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    QCOMPARE(list.out, QByteArray("remote  ready  MCP 2025-06-18  fakeoauth 1  1 tool(s)\n  remote__hello\n"));
    seen = m_fake.stats(mode);
    QCOMPARE(seen.value("refreshes", -1), 1);
    QCOMPARE(seen.value("refused_refreshes", -1), 0);
    QCOMPARE(seen.value("token_client", std::string()), documentUrl.toStdString());
    QCOMPARE(seen.value("last_token", std::string()), std::string("at-cimdexpiring-2"));

    const Login again = FakeOAuthServer::login(projectDir, true);
    QVERIFY2(again.exitCode == 0, again.out + again.err);
    seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", -1), 0);
    QCOMPARE(seen.value("documents", -1), 2);
}

// Without redirect_port the listener's port is the system's choice and the document
// names none: an authorization server that takes any loopback port (RFC 8252 §7.3)
// signs in. The steps say which client and why.
void TestMcpOAuthClients::documentWithAnyLoopbackPort()
{
    const QString mode = QStringLiteral("cimd-anyport");
    QTemporaryDir dir;
    const QString projectDir
        = m_fake.project(dir, mode, QStringLiteral("{\"client_metadata_url\": \"%1\"}").arg(documentUrl).toUtf8());
    hostDocument(projectDir);
    const SignIn done = signIn(projectDir);
    QVERIFY2(done.succeeded, qPrintable(done.failure + u'\n' + done.steps));
    QVERIFY2(done.steps.contains(QStringLiteral("\n   registration_endpoint: %1/t/%2/register\n4. client\n   client "
                                                "ID metadata document: client_id %3 (oauth.client_metadata_url), as "
                                                "the authorization server's metadata has "
                                                "client_id_metadata_document_supported: true; no registration "
                                                "request, no client secret\n   the authorization server fetches the "
                                                "document and checks redirect_uri http://127.0.0.1:")
                                     .arg(m_fake.base(), mode, documentUrl)),
             qPrintable(done.steps));
    QVERIFY2(done.steps.contains(QStringLiteral("/callback against its redirect_uris; the port is the system's choice: "
                                                "if the server refuses it, set oauth.redirect_port and host the "
                                                "document toolstudio mcp client-metadata prints then\n5. authorization "
                                                "in the browser: GET %1/t/%2/authorize -> a code (")
                                     .arg(m_fake.base(), mode)),
             qPrintable(done.steps));
    const json seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", -1), 0);
    QCOMPARE(seen.value("documents", -1), 1);
    QCOMPARE(seen.value("token_client", std::string()), documentUrl.toStdString());
}

// A pre-registered client_id wins over a metadata document the server would take.
void TestMcpOAuthClients::preRegisteredComesFirst()
{
    const QString mode = QStringLiteral("cimd-pre");
    const quint16 port = freePort();
    const json registered = m_fake.post(
        "/preregister", {{"redirect_uri", QStringLiteral("http://127.0.0.1:%1/callback").arg(port).toStdString()}});
    const QString clientId = QString::fromStdString(registered.value("client_id", std::string()));
    QVERIFY(clientId.startsWith(QLatin1String("pre-")));
    QTemporaryDir dir;
    const QString projectDir = m_fake.project(dir, mode,
                                              QStringLiteral("{\"client_id\": \"%1\", \"client_metadata_url\": \"%2\", "
                                                             "\"redirect_port\": %3}")
                                                  .arg(clientId, documentUrl)
                                                  .arg(port)
                                                  .toUtf8());
    hostDocument(projectDir);
    const SignIn done = signIn(projectDir);
    QVERIFY2(done.succeeded, qPrintable(done.failure + u'\n' + done.steps));
    QVERIFY2(done.steps.contains(QStringLiteral("\n4. client\n   client_id from toolstudio.json (oauth.client_id: "
                                                "pre-registered, used first), token endpoint auth none\n   "
                                                "oauth.client_metadata_url is not used: oauth.client_id comes "
                                                "first\n5. authorization in the browser")),
             qPrintable(done.steps));
    const json seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", -1), 0);
    QCOMPARE(seen.value("documents", -1), 0);
    QCOMPARE(seen.value("authorize_client", std::string()), clientId.toStdString());
    QCOMPARE(seen.value("token_client", std::string()), clientId.toStdString());
}

// A server that takes documents, an entry that names none: dynamic client registration,
// and the steps say how to use a document. Naming one then uses it (not the client
// registered before), and leaving it out again registers anew: the document's URL is
// never taken for the registered client, nor the other way round.
void TestMcpOAuthClients::advertisedButNotConfiguredRegisters()
{
    const QString mode = QStringLiteral("cimd-dcr");
    QTemporaryDir dir;
    const QString projectDir = m_fake.project(dir, mode);
    const SignIn registered = signIn(projectDir);
    QVERIFY2(registered.succeeded, qPrintable(registered.failure + u'\n' + registered.steps));
    QVERIFY2(registered.steps.contains(
                 QStringLiteral("\n4. dynamic client registration: POST %1/t/%2/register -> HTTP 201\n   the "
                                "authorization server takes client ID metadata documents "
                                "(client_id_metadata_document_supported: true), but the entry names none: to use "
                                "one, host what toolstudio mcp client-metadata %3 remote prints at an https URL and "
                                "name it as oauth.client_metadata_url\n   redirect_uris: [http://127.0.0.1:")
                     .arg(m_fake.base(), mode, projectDir)),
             qPrintable(registered.steps));
    json seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", -1), 1);
    QCOMPARE(seen.value("documents", -1), 0);
    QVERIFY(QString::fromStdString(seen.value("token_client", std::string())).startsWith(QLatin1String("client-")));

    m_fake.project(dir, mode, QStringLiteral("{\"client_metadata_url\": \"%1\"}").arg(documentUrl).toUtf8());
    hostDocument(projectDir);
    const SignIn document = signIn(projectDir);
    QVERIFY2(document.succeeded, qPrintable(document.failure + u'\n' + document.steps));
    seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", -1), 1);
    QCOMPARE(seen.value("documents", -1), 1);
    QCOMPARE(seen.value("token_client", std::string()), documentUrl.toStdString());

    m_fake.project(dir, mode);
    const SignIn again = signIn(projectDir);
    QVERIFY2(again.succeeded, qPrintable(again.failure + u'\n' + again.steps));
    QVERIFY2(again.steps.contains(QStringLiteral("\n4. dynamic client registration: POST ")), qPrintable(again.steps));
    seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", -1), 2);
    QVERIFY(QString::fromStdString(seen.value("token_client", std::string())).startsWith(QLatin1String("client-")));
}

void TestMcpOAuthClients::noClientToBeHad_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("oauth");
    QTest::addColumn<QString>("why"); // what the failure says the server lacks
    QTest::newRow("neither registration nor documents")
        << QStringLiteral("noreg") << QString()
        << QStringLiteral("it does not take client ID metadata documents (client_id_metadata_document_supported is "
                          "not true)");
    QTest::newRow("documents, none named")
        << QStringLiteral("cimdonly") << QString()
        << QStringLiteral("the entry names no oauth.client_metadata_url for its client ID metadata documents");
    QTest::newRow("a document the server does not take")
        << QStringLiteral("noreg") << QStringLiteral("{\"client_metadata_url\": \"%1\"}").arg(documentUrl)
        << QStringLiteral("it does not take client ID metadata documents (client_id_metadata_document_supported is "
                          "not true)");
}

// Nothing to sign in as: the failure names the three ways out, and nothing was asked.
void TestMcpOAuthClients::noClientToBeHad()
{
    QFETCH(QString, mode);
    QFETCH(QString, oauth);
    QFETCH(QString, why);
    QTemporaryDir dir;
    const QString projectDir = m_fake.project(dir, mode, oauth.toUtf8());
    const Login done = FakeOAuthServer::login(projectDir, false);
    QCOMPARE(done.exitCode, 1);
    QVERIFY2(done.err.contains("\n4. client\n   FAILED: "), done.err.constData());
    QCOMPARE(QString::fromUtf8(lastLine(done.err)),
             QStringLiteral("toolstudio mcp login: step 4 (client) failed: the authorization server offers the studio "
                            "no client: its metadata has no registration_endpoint (no dynamic client registration) and "
                            "%1. Ways out: register a client there and name it in the server's entry of "
                            "toolstudio.json as \"oauth\": {\"client_id\": \"…\"}; or, with an authorization server "
                            "that takes client ID metadata documents, host what toolstudio mcp client-metadata %2 "
                            "remote prints at an https URL and name it as \"oauth\": {\"client_metadata_url\": "
                            "\"https://…\"}; or ask the server's operator for dynamic client registration")
                 .arg(why, projectDir));
    const json seen = m_fake.stats(mode);
    QCOMPARE(seen.value("registrations", 0), 0);
    QCOMPARE(seen.value("codes", 0), 0);
}

QTEST_GUILESS_MAIN(TestMcpOAuthClients)
#include "tst_mcpoauthclients.moc"
