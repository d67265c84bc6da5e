// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A server's resources and prompts (issue 21 §5, McpServerFeatures): against the MCP
// reference server "everything" from npm (installed by ./toolstudio.sh test into
// TOOLSTUDIO_MCP_SERVERS_DIR; skipped when it is not there) and against
// tests/data/mcp/fakeresources.py, a server that attacks the client one way per mode;
// and `toolstudio mcp resources|prompts`.
#include "clirunner.h"
#include "mcp/mcpserverfeatures.h"
#include "mcpstdiofixtures.h"
#include "testfiles.h"

#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

/// A session with `launch`, ready (or a failed QVERIFY in the caller: check state()).
std::unique_ptr<McpClientSession> openSession(const McpStdioTransport::Launch &launch)
{
    auto session = std::make_unique<McpClientSession>();
    session->open(launch);
    (void)QTest::qWaitFor([&] { return session->state() != McpClientSession::State::Initializing; }, 60000);
    return session;
}

template<typename Entry>
struct Listed
{
    McpListing<Entry> listing;
    McpReply reply;
};

template<typename Entry>
Listed<Entry> awaitList(void (*list)(McpClientSession *, McpServerFeatures::ListDone<Entry>), McpClientSession *session,
                        int timeoutMs = 120000)
{
    std::optional<Listed<Entry>> listed;
    list(session, [&](const McpListing<Entry> &listing, const McpReply &reply) { listed = {listing, reply}; });
    (void)QTest::qWaitFor([&] { return listed.has_value(); }, timeoutMs);
    return listed.value_or(Listed<Entry>{{}, McpReply{{}, {}, QStringLiteral("no answer in time")}});
}

struct Read
{
    std::vector<McpResourceContents> contents;
    McpReply reply;
};

Read awaitRead(McpClientSession *session, const QString &uri, int timeoutMs = McpClientSession::DefaultTimeoutMs)
{
    std::optional<Read> read;
    McpServerFeatures::readResource(
        session, uri,
        [&](const std::vector<McpResourceContents> &contents, const McpReply &reply) {
            read = Read{contents, reply};
        },
        timeoutMs);
    (void)QTest::qWaitFor([&] { return read.has_value(); }, timeoutMs + 10000);
    return read.value_or(Read{{}, McpReply{{}, {}, QStringLiteral("no answer in time")}});
}

struct Got
{
    McpPromptResult prompt;
    McpReply reply;
};

Got awaitPrompt(McpClientSession *session, const QString &name, const QMap<QString, QString> &arguments)
{
    std::optional<Got> got;
    McpServerFeatures::getPrompt(session, name, arguments, [&](const McpPromptResult &prompt, const McpReply &reply) {
        got = Got{prompt, reply};
    });
    (void)QTest::qWaitFor([&] { return got.has_value(); }, 60000);
    return got.value_or(Got{{}, McpReply{{}, {}, QStringLiteral("no answer in time")}});
}

McpReply awaitSubscribe(McpClientSession *session, const QString &uri)
{
    std::optional<McpReply> got;
    McpServerFeatures::subscribe(session, uri, true, [&](const McpReply &reply) { got = reply; });
    (void)QTest::qWaitFor([&] { return got.has_value(); }, 60000);
    return got.value_or(McpReply{{}, {}, QStringLiteral("no answer in time")});
}

QString textOf(const json &block)
{
    return QString::fromStdString(block.value("text", std::string()));
}

template<typename Entry>
QStringList namesOf(const std::vector<Entry> &entries)
{
    QStringList names;
    for (const Entry &entry : entries)
        names << entry.name;
    return names;
}

/// The methods the fake server was asked, by count (its tool "counts").
json methodCounts(McpClientSession &session)
{
    std::optional<McpReply> reply;
    session.callTool(QStringLiteral("counts"), json::object(), json::object(),
                     [&](const McpReply &answer) { reply = answer; });
    (void)QTest::qWaitFor([&] { return reply.has_value(); }, 60000);
    if (!reply || !reply->ok())
        return nullptr;
    return json::parse(reply->result["content"][0]["text"].get<std::string>());
}

} // namespace

class TestMcpResources : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void uriTemplates_data();
    void uriTemplates();
    void referenceServerResources();
    void referenceServerPrompts();
    void referenceServerSubscription();
    void fakeResourcesAndWhatIsLeftOut();
    void fakeReadsAreShownNotOpened();
    void fakePrompts();
    void fakeSubscription();
    void serverWithoutTheCapabilityIsNotAsked();
    void millionEntriesAreCut();
    void endlessCursorsStop();
    void repeatedCursorFails();
    void hugeTextFailsItsRead();
    void malformedRepliesFail();
    void resourcesCommand();
    void promptsCommand();
};

void TestMcpResources::uriTemplates_data()
{
    QTest::addColumn<QString>("uriTemplate");
    QTest::addColumn<QString>("variables");
    QTest::addColumn<QString>("expanded");
    QTest::addColumn<QString>("error");
    QTest::newRow("two") << QStringLiteral("file:///notes/{folder}/{name}") << QStringLiteral("folder,name")
                         << QStringLiteral("file:///notes/a%2Fb/x%20y%C3%A9") << QString();
    QTest::newRow("twice") << QStringLiteral("x://{id}/{id}") << QStringLiteral("id")
                           << QStringLiteral("x://a%2Fb/a%2Fb") << QString();
    QTest::newRow("none") << QStringLiteral("demo://plain") << QString() << QStringLiteral("demo://plain") << QString();
    QTest::newRow("missing value") << QStringLiteral("x://{other}") << QStringLiteral("other") << QStringLiteral("x://")
                                   << QString();
    QTest::newRow("query operator") << QStringLiteral("https://e.com/s{?q}") << QString() << QString()
                                    << QStringLiteral("the URI template's expression {?q} is beyond RFC 6570 level 1 "
                                                      "(only {name} is filled in here): type the URI instead");
    QTest::newRow("list") << QStringLiteral("x://{a,b}") << QString() << QString()
                          << QStringLiteral("the URI template's expression {a,b} is beyond RFC 6570 level 1 (only "
                                            "{name} is filled in here): type the URI instead");
    QTest::newRow("unclosed") << QStringLiteral("x://{id") << QString() << QString()
                              << QStringLiteral("the URI template has a '{' without '}' at character 5");
    QTest::newRow("stray") << QStringLiteral("x://id}") << QString() << QString()
                           << QStringLiteral("the URI template has a '}' without '{' at character 7");
}

void TestMcpResources::uriTemplates()
{
    QFETCH(QString, uriTemplate);
    QFETCH(QString, variables);
    QFETCH(QString, expanded);
    QFETCH(QString, error);
    QString why;
    QCOMPARE(McpServerFeatures::uriTemplateVariables(uriTemplate, &why).join(u','), variables);
    QCOMPARE(why, error);
    const QMap<QString, QString> values{{QStringLiteral("folder"), QStringLiteral("a/b")},
                                        {QStringLiteral("name"), QStringLiteral("x yé")},
                                        {QStringLiteral("id"), QStringLiteral("a/b")}};
    why.clear();
    QCOMPARE(McpServerFeatures::expandUriTemplate(uriTemplate, values, &why), expanded);
    QCOMPARE(why, error);
}

void TestMcpResources::referenceServerResources()
{
    const QString modules = referenceServerModules();
    if (modules.isEmpty())
        QSKIP(ReferenceServerMissing);
    const McpStdioTransport::Launch launch = everythingOverStdio(modules);
    auto session = openSession(launch);
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    QVERIFY(McpServerFeatures::missingCapability(*session, "resources").isEmpty());
    QVERIFY(McpServerFeatures::canSubscribe(*session));

    const auto resources = awaitList(&McpServerFeatures::listResources, session.get());
    QVERIFY2(resources.reply.ok(), qPrintable(resources.reply.errorText()));
    QCOMPARE(namesOf(resources.listing.entries).join(u' '),
             QStringLiteral("architecture.md extension.md features.md how-it-works.md instructions.md startup.md "
                            "structure.md"));
    QCOMPARE(resources.listing.dropped, 0);
    QVERIFY(!resources.listing.truncated);
    QCOMPARE(resources.listing.entries.front().uri, QStringLiteral("demo://resource/static/document/architecture.md"));
    QCOMPARE(resources.listing.entries.front().mimeType, QStringLiteral("text/markdown"));

    const auto templates = awaitList(&McpServerFeatures::listResourceTemplates, session.get());
    QVERIFY2(templates.reply.ok(), qPrintable(templates.reply.errorText()));
    QCOMPARE(templates.listing.entries.size(), 2u);
    QCOMPARE(templates.listing.entries[0].name, QStringLiteral("Dynamic Text Resource"));
    QCOMPARE(templates.listing.entries[0].uriTemplate, QStringLiteral("demo://resource/dynamic/text/{resourceId}"));
    QCOMPARE(templates.listing.entries[1].name, QStringLiteral("Dynamic Blob Resource"));

    // A template filled in, read: text; the blob template: base64, decoded here.
    QString why;
    const QString textUri = McpServerFeatures::expandUriTemplate(
        templates.listing.entries[0].uriTemplate, {{QStringLiteral("resourceId"), QStringLiteral("1")}}, &why);
    QCOMPARE(textUri, QStringLiteral("demo://resource/dynamic/text/1"));
    const Read text = awaitRead(session.get(), textUri);
    QVERIFY2(text.reply.ok(), qPrintable(text.reply.errorText()));
    QCOMPARE(text.contents.size(), 1u);
    QVERIFY(!text.contents[0].isBlob);
    QCOMPARE(text.contents[0].mimeType, QStringLiteral("text/plain"));
    QVERIFY2(text.contents[0].text.startsWith(QStringLiteral("Resource 1: This is a plaintext resource created at ")),
             qPrintable(text.contents[0].text));
    const Read blob = awaitRead(session.get(), QStringLiteral("demo://resource/dynamic/blob/2"));
    QVERIFY2(blob.reply.ok(), qPrintable(blob.reply.errorText()));
    QVERIFY(blob.contents[0].isBlob);
    QVERIFY(blob.contents[0].problem.isEmpty());
    QVERIFY2(blob.contents[0].blob.startsWith("Resource 2: This is a base64 blob created at "),
             blob.contents[0].blob.constData());
    const Read document = awaitRead(session.get(), resources.listing.entries[5].uri);
    QVERIFY2(document.contents[0].text.startsWith(QStringLiteral("# Everything Server - Startup Process")),
             qPrintable(document.contents[0].text.left(200)));

    // A resource it does not have: its error, in words.
    const Read missing = awaitRead(session.get(), QStringLiteral("demo://nope"));
    QVERIFY(!missing.reply.ok());
    QCOMPARE(missing.reply.errorText(), QStringLiteral("-32602: MCP error -32602: Resource demo://nope not found"));
}

void TestMcpResources::referenceServerPrompts()
{
    const QString modules = referenceServerModules();
    if (modules.isEmpty())
        QSKIP(ReferenceServerMissing);
    const McpStdioTransport::Launch launch = everythingOverStdio(modules);
    auto session = openSession(launch);
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));

    const auto prompts = awaitList(&McpServerFeatures::listPrompts, session.get());
    QVERIFY2(prompts.reply.ok(), qPrintable(prompts.reply.errorText()));
    QCOMPARE(namesOf(prompts.listing.entries).join(u' '),
             QStringLiteral("simple-prompt args-prompt completable-prompt resource-prompt"));
    const McpPrompt &args = prompts.listing.entries[1];
    QCOMPARE(args.title, QStringLiteral("Arguments Prompt"));
    QCOMPARE(args.arguments.size(), 2u);
    QCOMPARE(args.arguments[0].name, QStringLiteral("city"));
    QVERIFY(args.arguments[0].required);
    QCOMPARE(args.arguments[0].description, QStringLiteral("Name of the city"));
    QCOMPARE(args.arguments[1].name, QStringLiteral("state"));
    QVERIFY(!args.arguments[1].required);

    const Got simple = awaitPrompt(session.get(), QStringLiteral("simple-prompt"), {});
    QVERIFY2(simple.reply.ok(), qPrintable(simple.reply.errorText()));
    QCOMPARE(simple.prompt.messages.size(), 1u);
    QCOMPARE(textOf(simple.prompt.messages[0].content), QStringLiteral("This is a simple prompt without arguments."));

    const Got paris = awaitPrompt(
        session.get(), QStringLiteral("args-prompt"),
        {{QStringLiteral("city"), QStringLiteral("Paris")}, {QStringLiteral("state"), QStringLiteral("TX")}});
    QVERIFY2(paris.reply.ok(), qPrintable(paris.reply.errorText()));
    QCOMPARE(paris.prompt.messages[0].role, QStringLiteral("user"));
    QCOMPARE(textOf(paris.prompt.messages[0].content), QStringLiteral("What's weather in Paris, TX?"));

    // The required argument left out: the server's error.
    const Got without = awaitPrompt(session.get(), QStringLiteral("args-prompt"), {});
    QVERIFY(!without.reply.ok());
    QVERIFY2(without.reply.errorText().startsWith(
                 QStringLiteral("-32602: MCP error -32602: Invalid arguments for prompt args-prompt")),
             qPrintable(without.reply.errorText()));

    // An embedded resource in a message.
    const Got resource = awaitPrompt(session.get(), QStringLiteral("resource-prompt"),
                                     {{QStringLiteral("resourceType"), QStringLiteral("Blob")},
                                      {QStringLiteral("resourceId"), QStringLiteral("3")}});
    QVERIFY2(resource.reply.ok(), qPrintable(resource.reply.errorText()));
    QCOMPARE(resource.prompt.messages.size(), 2u);
    QCOMPARE(textOf(resource.prompt.messages[0].content),
             QStringLiteral("This prompt includes the Blob resource with id: 3. Please analyze the following "
                            "resource:"));
    QCOMPARE(resource.prompt.messages[1].content["type"].dump(), std::string("\"resource\""));
    QCOMPARE(resource.prompt.messages[1].content["resource"]["uri"].dump(),
             std::string("\"demo://resource/dynamic/blob/3\""));
}

void TestMcpResources::referenceServerSubscription()
{
    const QString modules = referenceServerModules();
    if (modules.isEmpty())
        QSKIP(ReferenceServerMissing);
    const McpStdioTransport::Launch launch = everythingOverStdio(modules);
    auto session = openSession(launch);
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    QSignalSpy notifications(session.get(), &McpClientSession::notificationReceived);
    const McpReply subscribed = awaitSubscribe(session.get(), QStringLiteral("demo://resource/dynamic/text/1"));
    QVERIFY2(subscribed.ok(), qPrintable(subscribed.errorText()));
    // The server sends updates for subscribed resources once this tool turns them on.
    std::optional<McpReply> toggled;
    session->callTool(QStringLiteral("toggle-subscriber-updates"), json::object(), json::object(),
                      [&](const McpReply &reply) { toggled = reply; });
    const auto updated = [&] {
        for (const QList<QVariant> &signal : notifications)
            if (signal.at(0).toString() == QLatin1String("notifications/resources/updated")
                && signal.at(1).value<json>().value("uri", std::string()) == "demo://resource/dynamic/text/1")
                return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(updated(), 30000);
}

void TestMcpResources::fakeResourcesAndWhatIsLeftOut()
{
    auto session = openSession(fakeResources(QStringLiteral("good")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const auto resources = awaitList(&McpServerFeatures::listResources, session.get());
    QVERIFY2(resources.reply.ok(), qPrintable(resources.reply.errorText()));
    // Two pages; a number, no uri, no name, control characters in the uri, a uri of 9000
    // characters: left out and counted.
    QCOMPARE(namesOf(resources.listing.entries).join(u','),
             QStringLiteral("notes.txt,pixel.png,broken.bin,empty,script,passwd"));
    QCOMPARE(resources.listing.dropped, 5);
    QVERIFY(!resources.listing.truncated);
    const McpResource &notes = resources.listing.entries[0];
    QCOMPARE(notes.title, QStringLiteral("Notes"));
    QCOMPARE(notes.description, QStringLiteral("Some notes"));
    QCOMPARE(notes.size, 11);
    QCOMPARE(resources.listing.entries[1].size, -1);
    QCOMPARE(resources.listing.entries[4].uri, QStringLiteral("javascript:alert(1)"));

    const auto templates = awaitList(&McpServerFeatures::listResourceTemplates, session.get());
    QCOMPARE(templates.listing.entries.size(), 2u);
    QCOMPARE(templates.listing.entries[0].uriTemplate, QStringLiteral("file:///notes/{folder}/{name}"));
}

void TestMcpResources::fakeReadsAreShownNotOpened()
{
    auto session = openSession(fakeResources(QStringLiteral("good")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const Read notes = awaitRead(session.get(), QStringLiteral("file:///notes.txt"));
    QVERIFY(notes.reply.ok());
    QCOMPARE(notes.contents[0].text, QStringLiteral("hello notes"));
    const Read pixel = awaitRead(session.get(), QStringLiteral("file:///pixel.png"));
    QVERIFY(pixel.contents[0].isBlob);
    QCOMPARE(pixel.contents[0].blob.size(), 70);
    QVERIFY(pixel.contents[0].blob.startsWith("\x89PNG"));
    // Not base64, neither text nor blob: said per part, the read itself answered.
    const Read broken = awaitRead(session.get(), QStringLiteral("file:///broken.bin"));
    QVERIFY(broken.reply.ok());
    QCOMPARE(broken.contents[0].problem, QStringLiteral("its blob is not valid base64 (11 characters)"));
    QVERIFY(broken.contents[0].blob.isEmpty());
    const Read empty = awaitRead(session.get(), QStringLiteral("demo://empty"));
    QCOMPARE(empty.contents[0].problem, QStringLiteral("it has neither a \"text\" nor a \"blob\" string"));
    // file:///etc/passwd is the server's resource: what it says is shown; the studio
    // never opens a URI itself.
    const Read passwd = awaitRead(session.get(), QStringLiteral("file:///etc/passwd"));
    QCOMPARE(passwd.contents[0].text, QStringLiteral("made up by the server, not /etc/passwd"));
    const Read script = awaitRead(session.get(), QStringLiteral("javascript:alert(1)"));
    QCOMPARE(script.contents[0].text, QStringLiteral("<script>alert(1)</script><b>bold</b>"));
    const Read unknown = awaitRead(session.get(), QStringLiteral("file:///nothing"));
    QCOMPARE(unknown.reply.errorText(), QStringLiteral("-32002: Resource not found: file:///nothing"));
}

void TestMcpResources::fakePrompts()
{
    auto session = openSession(fakeResources(QStringLiteral("good")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const auto prompts = awaitList(&McpServerFeatures::listPrompts, session.get());
    QVERIFY2(prompts.reply.ok(), qPrintable(prompts.reply.errorText()));
    QCOMPARE(namesOf(prompts.listing.entries).join(u','), QStringLiteral("greet,odd"));
    QCOMPARE(prompts.listing.dropped, 2); // no name; arguments not an array
    QCOMPARE(prompts.listing.entries[0].arguments.size(), 2u);
    QVERIFY(prompts.listing.entries[0].arguments[0].required);
    QVERIFY(!prompts.listing.entries[0].arguments[1].required);

    const Got greet = awaitPrompt(
        session.get(), QStringLiteral("greet"),
        {{QStringLiteral("name"), QStringLiteral("Ada")}, {QStringLiteral("style"), QStringLiteral("warm")}});
    QVERIFY2(greet.reply.ok(), qPrintable(greet.reply.errorText()));
    QCOMPARE(greet.prompt.description, QStringLiteral("a greeting"));
    QCOMPARE(greet.prompt.messages.size(), 2u);
    QCOMPARE(textOf(greet.prompt.messages[0].content), QStringLiteral("Hello, Ada! (warm)"));
    QCOMPARE(greet.prompt.messages[1].role, QStringLiteral("assistant"));

    // Unknown content types are kept for a view to name; a role with an escape is
    // printable; a message that is not an object, or whose content is a string, is
    // left out and counted.
    const Got odd = awaitPrompt(session.get(), QStringLiteral("odd"), {});
    QVERIFY2(odd.reply.ok(), qPrintable(odd.reply.errorText()));
    QCOMPARE(odd.prompt.messages.size(), 3u);
    QCOMPARE(odd.prompt.dropped, 2);
    QCOMPARE(odd.prompt.messages[0].content["type"].dump(), std::string("\"hologram\""));
    QCOMPARE(odd.prompt.messages[1].role, QStringLiteral("\\u001b[2Jsystem"));
}

void TestMcpResources::fakeSubscription()
{
    auto session = openSession(fakeResources(QStringLiteral("good")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    QSignalSpy notifications(session.get(), &McpClientSession::notificationReceived);
    QVERIFY(awaitSubscribe(session.get(), QStringLiteral("file:///notes.txt")).ok());
    QTRY_COMPARE_WITH_TIMEOUT(notifications.count(), 1, 10000);
    QCOMPARE(notifications.at(0).at(0).toString(), QStringLiteral("notifications/resources/updated"));
}

void TestMcpResources::serverWithoutTheCapabilityIsNotAsked()
{
    auto session = openSession(fakeResources(QStringLiteral("tools-only")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const QString noResources = QStringLiteral("the server declares no \"resources\" capability in its initialize "
                                               "result: it offers none, so the studio does not ask");
    const auto resources = awaitList(&McpServerFeatures::listResources, session.get());
    QCOMPARE(resources.reply.errorText(), noResources);
    QCOMPARE(awaitList(&McpServerFeatures::listResourceTemplates, session.get()).reply.errorText(), noResources);
    QCOMPARE(awaitRead(session.get(), QStringLiteral("file:///notes.txt")).reply.errorText(), noResources);
    QCOMPARE(awaitSubscribe(session.get(), QStringLiteral("file:///notes.txt")).errorText(), noResources);
    QCOMPARE(awaitList(&McpServerFeatures::listPrompts, session.get()).reply.errorText(),
             QStringLiteral("the server declares no \"prompts\" capability in its initialize result: it offers "
                            "none, so the studio does not ask"));
    QVERIFY(!awaitPrompt(session.get(), QStringLiteral("greet"), {}).reply.ok());
    // Not one of those requests reached the server.
    QCOMPARE(methodCounts(*session).dump(), std::string("{\"tools/call\":1}"));

    // Answered on the next turn, never from inside the call.
    bool called = false;
    McpServerFeatures::listPrompts(session.get(),
                                   [&](const McpListing<McpPrompt> &, const McpReply &) { called = true; });
    QVERIFY(!called);
    QTRY_VERIFY(called);
}

void TestMcpResources::millionEntriesAreCut()
{
    auto session = openSession(fakeResources(QStringLiteral("many")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const auto resources = awaitList(&McpServerFeatures::listResources, session.get(), 300000);
    QVERIFY2(resources.reply.ok(), qPrintable(resources.reply.errorText()));
    QCOMPARE(resources.listing.entries.size(), McpServerFeatures::MaxListEntries);
    QVERIFY(resources.listing.truncated);
    QCOMPARE(resources.listing.truncatedWhy,
             QStringLiteral("the server lists more than 10000 entries; the studio keeps the first 10000"));
    QCOMPARE(resources.listing.entries.back().uri, QStringLiteral("r:9999"));
}

void TestMcpResources::endlessCursorsStop()
{
    auto session = openSession(fakeResources(QStringLiteral("endless")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const auto resources = awaitList(&McpServerFeatures::listResources, session.get());
    QVERIFY2(resources.reply.ok(), qPrintable(resources.reply.errorText()));
    QCOMPARE(resources.listing.entries.size(), std::size_t(McpServerFeatures::MaxListPages));
    QVERIFY(resources.listing.truncated);
    QCOMPARE(resources.listing.truncatedWhy,
             QStringLiteral("the server's list goes on past 100 pages; the studio keeps those"));
    QCOMPARE(methodCounts(*session)["resources/list"].dump(), std::string("100"));
}

void TestMcpResources::repeatedCursorFails()
{
    auto session = openSession(fakeResources(QStringLiteral("loop")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const auto resources = awaitList(&McpServerFeatures::listResources, session.get());
    QCOMPARE(resources.reply.errorText(),
             QStringLiteral("the server's resources/list gave the same nextCursor twice "
                            "(at page 2): the list would not end"));
    QVERIFY(resources.listing.entries.empty());
    QCOMPARE(methodCounts(*session)["resources/list"].dump(), std::string("2"));
}

void TestMcpResources::hugeTextFailsItsRead()
{
    // 100 MiB of text in one reply: over the transport's 64 MiB, skipped without being
    // buffered whole; its id is read from the line's first bytes, so the read fails as
    // soon as the line ended (not at its timeout), and the session goes on.
    auto session = openSession(fakeResources(QStringLiteral("huge")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    const Read huge = awaitRead(session.get(), QStringLiteral("big"), 120000);
    QVERIFY(!huge.reply.ok());
    QCOMPARE(huge.reply.errorText(),
             QStringLiteral("the server's reply to request 2 could not be read: a message of 104857672 bytes is over "
                            "the limit of 67108864 bytes; it was skipped"));
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    QCOMPARE(session->refusedMessages(), 1);
    const Read after = awaitRead(session.get(), QStringLiteral("file:///notes.txt"));
    QVERIFY2(after.reply.ok(), qPrintable(after.reply.errorText()));
    QCOMPARE(after.contents.at(0).text, QStringLiteral("hello notes"));
}

void TestMcpResources::malformedRepliesFail()
{
    auto session = openSession(fakeResources(QStringLiteral("malformed")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    QCOMPARE(awaitList(&McpServerFeatures::listResources, session.get()).reply.errorText(),
             QStringLiteral("the server's resources/list result has no \"resources\" array"));
    QCOMPARE(awaitList(&McpServerFeatures::listResourceTemplates, session.get()).reply.errorText(),
             QStringLiteral("the server's resources/templates/list result has no \"resourceTemplates\" array"));
    QCOMPARE(awaitRead(session.get(), QStringLiteral("x")).reply.errorText(),
             QStringLiteral("the server's resources/read result has no \"contents\" array"));
    const auto prompts = awaitList(&McpServerFeatures::listPrompts, session.get());
    QVERIFY(prompts.reply.ok());
    QCOMPARE(prompts.listing.dropped, 2);
    QVERIFY(prompts.listing.entries.empty());
    QCOMPARE(awaitPrompt(session.get(), QStringLiteral("x"), {}).reply.errorText(),
             QStringLiteral("the server's prompts/get result has no \"messages\" array"));

    // The parsers on their own: contents with no object in them.
    QString error;
    QVERIFY(McpServerFeatures::parseContents(json::parse("{\"contents\": [1, \"x\"]}"), &error).empty());
    QCOMPARE(error, QStringLiteral("the server's resources/read result has no contents (no object in \"contents\")"));
}

void TestMcpResources::resourcesCommand()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeresources.py")), fileBytes(mcpFixture("fakeresources.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "r", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeresources.py", "good"]},
  "bare": {"command": "python3", "args": ["srv/fakeresources.py", "tools-only"]}}})"));
    const QString project = dir.path();
    const CommandResult list
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("fake")});
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(QString::fromUtf8(list.out),
             QStringLiteral("resources (6):\n"
                            "  file:///notes.txt  notes.txt  text/plain  11 bytes\n"
                            "  file:///pixel.png  pixel.png  image/png\n"
                            "  file:///broken.bin  broken.bin  application/octet-stream\n"
                            "  demo://empty  empty\n"
                            "  javascript:alert(1)  script\n"
                            "  file:///etc/passwd  passwd\n"
                            "templates (2):\n"
                            "  file:///notes/{folder}/{name}  note  text/plain\n"
                            "  https://example.com/search{?q}  search\n"));
    QVERIFY2(list.err.contains("5 entries of its resources/list are not what the spec says"), list.err.constData());

    const CommandResult asJson = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project,
                                             QStringLiteral("fake"), QStringLiteral("--json")});
    QCOMPARE(asJson.exitCode, 0);
    const nlohmann::json listed = nlohmann::json::parse(asJson.out.toStdString());
    QCOMPARE(listed["resources"].size(), 6u);
    QCOMPARE(
        listed["resources"][0].dump(),
        std::string("{\"description\":\"Some notes\",\"mimeType\":\"text/plain\",\"name\":\"notes.txt\",\"size\":11,"
                    "\"title\":\"Notes\",\"uri\":\"file:///notes.txt\"}"));
    QCOMPARE(listed["resourceTemplates"][1]["uriTemplate"].dump(), std::string("\"https://example.com/search{?q}\""));

    const CommandResult read
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("fake"),
                      QStringLiteral("--read"), QStringLiteral("file:///notes.txt")});
    QCOMPARE(read.exitCode, 0);
    QCOMPARE(read.out, QByteArray("hello notes\n"));
    const CommandResult blob
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("fake"),
                      QStringLiteral("--read"), QStringLiteral("file:///pixel.png")});
    QCOMPARE(blob.exitCode, 0);
    QCOMPARE(blob.out,
             QByteArray("── file:///pixel.png (image/png) ──\n(a blob of 70 bytes: --json prints its base64)\n"));
    const CommandResult broken
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("fake"),
                      QStringLiteral("--read"), QStringLiteral("file:///broken.bin")});
    QCOMPARE(broken.exitCode, 1);
    QVERIFY2(broken.out.contains("(not shown: its blob is not valid base64 (11 characters))"), broken.out.constData());
    const CommandResult missing
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("fake"),
                      QStringLiteral("--read"), QStringLiteral("file:///nothing")});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(missing.err,
             QByteArray("toolstudio mcp resources: resources/read of file:///nothing failed: -32002: "
                        "Resource not found: file:///nothing\n"));

    const CommandResult bare
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("bare")});
    QCOMPARE(bare.exitCode, 1);
    QCOMPARE(bare.err,
             QByteArray("toolstudio mcp resources: MCP server 'bare': the server declares no \"resources\" "
                        "capability in its initialize result: it offers none, so the studio does not ask\n"));
    const CommandResult unknown
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("nope")});
    QCOMPARE(unknown.exitCode, 2);
    QCOMPARE(unknown.err,
             QByteArray("toolstudio mcp resources: the project has no MCP server \"nope\" (it has: bare, fake)\n"));
}

void TestMcpResources::promptsCommand()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeresources.py")), fileBytes(mcpFixture("fakeresources.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "r", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeresources.py", "good"]}}})"));
    const QString project = dir.path();
    const CommandResult list
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("prompts"), project, QStringLiteral("fake")});
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(QString::fromUtf8(list.out),
             QStringLiteral("greet  Greeting  Greets someone\n"
                            "  name (required)  Who\n"
                            "  style\n"
                            "odd  Content types the studio does not know\n"));
    const CommandResult get = toolstudio({QStringLiteral("mcp"), QStringLiteral("prompts"), project,
                                          QStringLiteral("fake"), QStringLiteral("--get"), QStringLiteral("greet"),
                                          QStringLiteral("--args"), QStringLiteral("{\"name\": \"Ada\"}")});
    QCOMPARE(get.exitCode, 0);
    QCOMPARE(get.out, QByteArray("description: a greeting\nuser: Hello, Ada!\nassistant: Hi!\n"));
    const CommandResult odd = toolstudio({QStringLiteral("mcp"), QStringLiteral("prompts"), project,
                                          QStringLiteral("fake"), QStringLiteral("--get"), QStringLiteral("odd")});
    QCOMPARE(odd.exitCode, 0);
    QCOMPARE(odd.out,
             QByteArray("user: [content of type \"hologram\", not shown here: --json prints it]\n"
                        "\\u001b[2Jsystem: role with an escape\n"
                        "user: [image image/png, 3 bytes of base64]\n"));
    QCOMPARE(odd.err,
             QByteArray("toolstudio mcp prompts: 2 messages are not messages (no content object): left out\n"));
    const CommandResult missing
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("prompts"), project, QStringLiteral("fake"),
                      QStringLiteral("--get"), QStringLiteral("greet")});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(missing.err,
             QByteArray("toolstudio mcp prompts: prompts/get of greet failed: -32602: missing argument: "
                        "name\n"));
    const CommandResult notStrings = toolstudio(
        {QStringLiteral("mcp"), QStringLiteral("prompts"), project, QStringLiteral("fake"), QStringLiteral("--get"),
         QStringLiteral("greet"), QStringLiteral("--args"), QStringLiteral("{\"name\": 1}")});
    QCOMPARE(notStrings.exitCode, 2);
    QVERIFY2(notStrings.err.contains("--args must be a JSON object of strings"), notStrings.err.constData());
}

QTEST_GUILESS_MAIN(TestMcpResources)
#include "tst_mcpresources.moc"
