// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Signing in to a remote MCP server (issue 21 item 1, MCP 2025-11-25 basic/authorization;
// docs/mcp.md "Signing in"): `toolstudio mcp login` against
// tests/data/mcp/fakeoauthserver.py — a protected Streamable HTTP server and its
// authorization server on loopback — with this suite as the browser (it follows the
// printed authorization URL to the studio's loopback redirect). Discovery from the 401
// and by the well-known fallback, dynamic client registration, PKCE checked by the fake,
// the token used by `mcp list`, an expired token refreshed, a refused refresh, and the
// hostile cases: metadata over the bound, a wrong issuer, no S256, a forged state, a
// refusal at the authorization server, an authorization server over plain http.
#include "fakeoauthserver.h"

#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

#include <memory>
#include <vector>

using nlohmann::json;

class TestMcpOAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void signInThenUse();
    void wellKnownFallback();
    void expiredTokenIsRefreshed();
    void refusedTokenIsRefreshed();
    void refusedRefreshAsksToSignInAgain();
    void hostile_data();
    void hostile();
    void noRedirectInTime();
    void forgedRedirectDoesNotEndTheSignIn();
    void redirectWithAnotherStateIsNotUsed();
    void stepUpAsksForTheScopeNeeded();

private:
    QString project(QTemporaryDir &dir, const QString &mode) { return m_fake.project(dir, mode); }
    static Login login(const QString &projectDir, bool browser, const QStringList &extra = {},
                       const std::function<void(const QUrl &)> &beforeBrowsing = {})
    {
        return FakeOAuthServer::login(projectDir, browser, extra, beforeBrowsing);
    }
    json stats(const QString &mode) { return m_fake.stats(mode); }

    FakeOAuthServer m_fake;
    QString m_base;
};

void TestMcpOAuth::initTestCase()
{
    isolateConfigDir();
    QVERIFY(m_fake.start());
    m_base = m_fake.base();
}

void TestMcpOAuth::signInThenUse()
{
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("good"));
    const QByteArray manifest = fileBytes(dir.filePath(QStringLiteral("toolstudio.json")));

    // Before signing in: the server is named with what to do.
    const CommandResult before = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QCOMPARE(before.exitCode, 1);
    QCOMPARE(before.out,
             QByteArray("remote  failed\n  the server needs you to sign in: run toolstudio mcp login ")
                 + projectDir.toUtf8() + " remote\n");

    const Login first = login(projectDir, true);
    QVERIFY2(first.exitCode == 0, first.out + first.err);
    QVERIFY2(first.page.contains("Signed in. You can close this window"), first.page.constData());
    QVERIFY2(first.out.contains("signed in to remote: its tokens are saved with the project's secrets in "),
             first.out.constData());
    QVERIFY2(first.out.contains("the access token expires in 3600 s; a refresh token is kept to renew it\n"),
             first.out.constData());
    json seen = stats(QStringLiteral("good"));
    QCOMPARE(seen.value("registrations", -1), 1);
    QCOMPARE(seen.value("verifier_checked", -1), 1);
    QCOMPARE(seen.value("tokens", -1), 1);

    // The tokens went to the secrets file, nowhere else.
    const QByteArray savedLine = first.out.mid(first.out.indexOf("secrets in ") + 11);
    const QString secretsFile = QString::fromUtf8(savedLine.left(savedLine.indexOf(" (mode 0600")));
    const QByteArray secrets = fileBytes(secretsFile);
    QVERIFY2(secrets.contains("\"access_token\": \"at-good-1\""), secrets.constData());
    QVERIFY2(secrets.contains("\"refresh_token\": \"rt-good-1\""), secrets.constData());
    QCOMPARE(QFileInfo(secretsFile).permissions() & 0x0077, QFileDevice::Permissions());
    QVERIFY(!(first.out + first.err).contains("at-good-1"));
    QVERIFY(!(first.out + first.err).contains("rt-good-1"));
    QCOMPARE(fileBytes(dir.filePath(QStringLiteral("toolstudio.json"))), manifest);

    // Signed in: the token is used.
    const CommandResult after = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QVERIFY2(after.exitCode == 0, after.out + after.err);
    QCOMPARE(after.out, QByteArray("remote  ready  MCP 2025-06-18  fakeoauth 1  1 tool(s)\n  remote__hello\n"));
    QCOMPARE(stats(QStringLiteral("good")).value("last_token", std::string()), std::string("at-good-1"));
    QVERIFY(!(after.out + after.err).contains("at-good-1"));

    // Signing in again keeps the client it registered (its redirect port is free again).
    const Login second = login(projectDir, true);
    QVERIFY2(second.exitCode == 0, second.out + second.err);
    seen = stats(QStringLiteral("good"));
    QCOMPARE(seen.value("registrations", -1), 1);
    QCOMPARE(seen.value("tokens", -1), 2);
}

void TestMcpOAuth::wellKnownFallback()
{
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("wellknown"));
    const Login done = login(projectDir, true);
    QVERIFY2(done.exitCode == 0, done.out + done.err);
    QCOMPARE(stats(QStringLiteral("wellknown")).value("verifier_checked", -1), 1);
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    QCOMPARE(stats(QStringLiteral("wellknown")).value("last_token", std::string()), std::string("at-wellknown-1"));
}

void TestMcpOAuth::expiredTokenIsRefreshed()
{
    // The first token has expires_in 0: it is refreshed before the first request.
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("expiring"));
    const Login done = login(projectDir, true);
    QVERIFY2(done.exitCode == 0, done.out + done.err);
    QVERIFY2(done.out.contains("the access token expires in 0 s; a refresh token is kept to renew it\n"),
             done.out.constData());
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    const json seen = stats(QStringLiteral("expiring"));
    QCOMPARE(seen.value("refreshes", -1), 1);
    QCOMPARE(seen.value("last_token", std::string()), std::string("at-expiring-2"));
    // The refreshed tokens were saved: the next command uses them without refreshing.
    const CommandResult again = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QVERIFY2(again.exitCode == 0, again.out + again.err);
    QCOMPARE(stats(QStringLiteral("expiring")).value("refreshes", -1), 1);
}

void TestMcpOAuth::refusedTokenIsRefreshed()
{
    // The server answers 401 to the first token: refreshed, and the request sent again.
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("revoked"));
    const Login done = login(projectDir, true);
    QVERIFY2(done.exitCode == 0, done.out + done.err);
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    QCOMPARE(list.out, QByteArray("remote  ready  MCP 2025-06-18  fakeoauth 1  1 tool(s)\n  remote__hello\n"));
    const json seen = stats(QStringLiteral("revoked"));
    QCOMPARE(seen.value("refreshes", -1), 1);
    QCOMPARE(seen.value("last_token", std::string()), std::string("at-revoked-2"));
}

void TestMcpOAuth::refusedRefreshAsksToSignInAgain()
{
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("norefresh"));
    const Login done = login(projectDir, true);
    QVERIFY2(done.exitCode == 0, done.out + done.err);
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QCOMPARE(list.exitCode, 1);
    QCOMPARE(list.out,
             QByteArray("remote  failed\n  the server needs you to sign in again (the refresh of its token was "
                        "refused: HTTP 400: invalid_grant: refresh token revoked): run toolstudio mcp login ")
                 + projectDir.toUtf8() + " remote\n");
    QCOMPARE(stats(QStringLiteral("norefresh")).value("refused_refreshes", -1), 1);
}

void TestMcpOAuth::hostile_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<bool>("browser");
    QTest::addColumn<QString>("step");    // a line of the printed steps
    QTest::addColumn<QString>("failure"); // the last line of stderr; PORT stands for the fake's
    QTest::newRow("metadata over 64 KiB")
        << QStringLiteral("big") << false
        << QStringLiteral("3. authorization server metadata: GET PORT/.well-known/oauth-authorization-server/t/big "
                          "-> HTTP 200")
        << QStringLiteral("toolstudio mcp login: step 3 (authorization server metadata) failed: its body is over "
                          "65536 bytes, more than the studio reads");
    QTest::newRow("wrong issuer")
        << QStringLiteral("wrongissuer") << false
        << QStringLiteral("   WWW-Authenticate: Bearer realm=\"fake\", scope=\"mcp:tools\", "
                          "resource_metadata=\"PORT/.well-known/oauth-protected-resource/t/wrongissuer/mcp\"")
        << QStringLiteral("toolstudio mcp login: step 3 (authorization server metadata) failed: its issuer is "
                          "\"PORT/t/other\", not \"PORT/t/wrongissuer\", the authorization server the MCP server "
                          "names (RFC 8414 §3.3: the metadata is not used)");
    QTest::newRow("no S256")
        << QStringLiteral("nos256") << false
        << QStringLiteral("2. protected resource metadata: GET "
                          "PORT/.well-known/oauth-protected-resource/t/nos256/mcp -> HTTP 200")
        << QStringLiteral("toolstudio mcp login: step 3 (authorization server metadata) failed: its "
                          "code_challenge_methods_supported does not list S256: the authorization server does not "
                          "say it supports PKCE, and MCP clients must refuse it (spec \"Authorization Code "
                          "Protection\")");
    QTest::newRow("plain http authorization server")
        << QStringLiteral("plainhttp") << false << QStringLiteral("   authorization_servers: http://auth.example.com")
        << QStringLiteral("toolstudio mcp login: step 2 (protected resource metadata) failed: its authorization "
                          "server: http://auth.example.com is not an https:// URL (sign-in talks only https, or "
                          "http to this machine's loopback address)");
    QTest::newRow("access denied")
        << QStringLiteral("denied") << true
        << QStringLiteral("4. dynamic client registration: POST PORT/t/denied/register -> HTTP 201")
        << QStringLiteral("toolstudio mcp login: step 5 (authorization in the browser) failed: the authorization "
                          "server answered access_denied: the user said no");
}

void TestMcpOAuth::hostile()
{
    QFETCH(QString, mode);
    QFETCH(bool, browser);
    QFETCH(QString, step);
    QFETCH(QString, failure);
    QTemporaryDir dir;
    const QString projectDir = project(dir, mode);
    const Login done = login(projectDir, browser);
    QCOMPARE(done.exitCode, 1);
    QVERIFY2(done.err.startsWith("toolstudio mcp login: the sign-in to remote failed. Its steps:\n1. MCP server "
                                 "without a token: POST "),
             done.err.constData());
    QVERIFY2(done.err.contains(step.replace(QStringLiteral("PORT"), m_base).toUtf8() + '\n'), done.err.constData());
    QCOMPARE(QString::fromUtf8(lastLine(done.err)), failure.replace(QStringLiteral("PORT"), m_base));
    QCOMPARE(stats(mode).value("tokens", 0), 0);
    // Nothing was saved.
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), projectDir});
    QCOMPARE(list.exitCode, 1);
    QVERIFY2(list.out.contains("the server needs you to sign in: run toolstudio mcp login"), list.out.constData());
}

void TestMcpOAuth::noRedirectInTime()
{
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("good"));
    const Login done = login(projectDir, false, {QStringLiteral("--timeout"), QStringLiteral("1")});
    QCOMPARE(done.exitCode, 1);
    QVERIFY2(done.out.contains("waiting for the browser to come back to http://127.0.0.1:"), done.out.constData());
    QCOMPARE(lastLine(done.err),
             QByteArray("toolstudio mcp login: step 5 (authorization in the browser) failed: no "
                        "redirect came within 1 s (--timeout)"));
}

// Any program on the machine, or a web page the person has open, can send the loopback
// listener a redirect: one whose state is not the one sent is answered 400, its code is
// not used, and the sign-in waits on for the browser (it used to end it: attack31 F8).
void TestMcpOAuth::forgedRedirectDoesNotEndTheSignIn()
{
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("good"));
    const int tokensBefore = stats(QStringLiteral("good")).value("tokens", 0);
    QByteArrayList forgedPages;
    std::vector<std::unique_ptr<QTcpSocket>> idle;
    const Login done = login(projectDir, true, {}, [&forgedPages, &idle](const QUrl &authorize) {
        QUrl forged(QUrlQuery(authorize).queryItemValue(QStringLiteral("redirect_uri"), QUrl::FullyDecoded));
        // Connections held open without a request, as many as the listener keeps …
        for (int i = 0; i < 16; ++i) {
            idle.push_back(std::make_unique<QTcpSocket>());
            idle.back()->connectToHost(forged.host(), quint16(forged.port()));
            idle.back()->waitForConnected(5000);
        }
        // … and more forged redirects than that, each answered (they used to keep their
        // slot: the 17th request, the browser's, was refused — attack32 F1).
        for (int i = 0; i < 10; ++i) {
            forged.setQuery(QStringLiteral("code=stolen&state=forged"));
            forgedPages << browse(forged);
            forged.setQuery(QStringLiteral("code=stolen")); // no state at all
            forgedPages << browse(forged);
        }
    });
    QCOMPARE(forgedPages.size(), 20);
    for (const QByteArray &page : forgedPages)
        QVERIFY2(page.contains("This is not the redirect Tool Studio waits for (its state does not match); the "
                               "sign-in goes on."),
                 page.constData());
    QVERIFY2(done.exitCode == 0, done.out + done.err);
    QVERIFY2(done.page.contains("Signed in. You can close this window"), done.page.constData());
    QCOMPARE(stats(QStringLiteral("good")).value("tokens", 0), tokensBefore + 1);
}

// An authorization server that comes back with another state gets nowhere: the code is
// not exchanged, the wait ends at --timeout, and the steps say what came.
void TestMcpOAuth::redirectWithAnotherStateIsNotUsed()
{
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("badstate"));
    const Login done = login(projectDir, true, {QStringLiteral("--timeout"), QStringLiteral("3")});
    QCOMPARE(done.exitCode, 1);
    QVERIFY2(done.page.contains("This is not the redirect Tool Studio waits for"), done.page.constData());
    // Step 5's notes: what was asked for, then the redirect that was not used.
    QVERIFY2(done.err.contains("5. authorization in the browser: GET " + m_base.toUtf8() + "/t/badstate/authorize\n"),
             done.err.constData());
    QVERIFY2(done.err.contains("\n   a redirect whose state is not the one sent was answered 400 and its code not used "
                               "(a redirect the studio did not ask for); still waiting\n   FAILED: "),
             done.err.constData());
    QCOMPARE(lastLine(done.err),
             QByteArray("toolstudio mcp login: step 5 (authorization in the browser) failed: no redirect came within 3 "
                        "s (--timeout); 1 redirect(s) came with a state that is not the one sent and were not used (an "
                        "authorization server that answers with another state, or a program that is not the browser)"));
    QCOMPARE(stats(QStringLiteral("badstate")).value("tokens", 0), 0);
}

// Step-up (spec "Scope Challenge Handling"): a call the token's scopes do not cover gets
// 403 insufficient_scope naming the scopes needed. The call fails at once (not retried:
// the same token gets the same answer) saying what to run; the next sign-in asks for the
// scopes named, and the call goes through.
void TestMcpOAuth::stepUpAsksForTheScopeNeeded()
{
    QTemporaryDir dir;
    const QString projectDir = project(dir, QStringLiteral("stepup"));
    const Login first = login(projectDir, true);
    QVERIFY2(first.exitCode == 0, first.out + first.err);
    QCOMPARE(stats(QStringLiteral("stepup")).value("last_scope", std::string()), std::string("mcp:tools"));

    const QStringList call{QStringLiteral("mcp"), QStringLiteral("call"), projectDir, QStringLiteral("remote"),
                           QStringLiteral("hello")};
    const CommandResult refused = toolstudio(call);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("the server needs more access for this (insufficient_scope, scope \"mcp:tools "
                                  "mcp:admin\"): run toolstudio mcp login "
                                  + projectDir.toUtf8() + " remote to sign in again asking for it"),
             refused.err.constData());
    QCOMPARE(stats(QStringLiteral("stepup")).value("insufficient", -1), 1);

    const Login again = login(projectDir, true);
    QVERIFY2(again.exitCode == 0, again.out + again.err);
    QCOMPARE(stats(QStringLiteral("stepup")).value("last_scope", std::string()), std::string("mcp:tools mcp:admin"));
    const CommandResult called = toolstudio(call);
    QVERIFY2(called.exitCode == 0, called.out + called.err);
    QVERIFY2(called.out.contains("hello from stepup"), called.out.constData());
    QCOMPARE(stats(QStringLiteral("stepup")).value("insufficient", -1), 1);
}

QTEST_GUILESS_MAIN(TestMcpOAuth)
#include "tst_mcpoauth.moc"
