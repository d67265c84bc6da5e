// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Images and audio in an MCP server's sampling/createMessage (docs/mcp.md "Images and
// audio"): what a person is shown (the transcript, the question's media), what a model
// is given (the neutral parts of model_request) and its notes, and a hostile server's
// blocks — huge, not base64, of a type no model takes, named with control characters,
// thousands of them — bounded and said, never copied whole.
#include "engine/personquestion.h"
#include "llm/modelmessage.h"
#include "llm/samplingmodel.h"
#include "mcp/mcppersonquestion.h"
#include "mcp/samplingmedia.h"
#include "project/jpegscans.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>

using nlohmann::json;

namespace {

/// A 1×1 PNG, as base64.
const std::string Png
    = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/// The first 12 bytes of a WAV file, as base64.
const std::string Wav = "UklGRiQAAABXQVZF";

json block(const char *type, const std::string &data, const std::string &mimeType)
{
    return {{"type", type}, {"data", data}, {"mimeType", mimeType}};
}

json textBlock(const char *text)
{
    return {{"type", "text"}, {"text", text}};
}

/// The question for a sampling request of `messages`.
json questionFor(const json &messages)
{
    QString error;
    const auto question = McpPersonQuestion::question(
        QStringLiteral("s"),
        McpServerRequest{1, QStringLiteral("sampling/createMessage"), json{{"messages", messages}}}, &error);
    return question ? *question : json{{"no question", error.toStdString()}};
}

/// A PNG's signature followed by 'A's: `bytes` characters of base64.
std::string bigPng(std::size_t bytes)
{
    std::string data = Png.substr(0, 12);
    data.resize(bytes, 'A');
    return data;
}

/// The process's peak resident set in KiB since the last resetPeak() (Linux).
long peakKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    status.open(QIODevice::ReadOnly);
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').front().toLong();
    return -1;
}

void resetPeak()
{
    QFile refs(QStringLiteral("/proc/self/clear_refs"));
    if (refs.open(QIODevice::WriteOnly))
        refs.write("5");
}

ModelConfig model(const char *name, const char *provider)
{
    return ModelConfig::parseAll(json::array({json{{"name", name}, {"provider", provider}, {"model", "x"}}}),
                                 RetryPolicy{})
        .front();
}

} // namespace

class TestSamplingMedia : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void imageAudioAndTextReachThePersonAndTheModel()
    {
        const json messages = json::array(
            {json{{"role", "user"},
                  {"content",
                   {textBlock("What is on it?"), block("image", Png, "image/png"), block("audio", Wav, "audio/wav")}}},
             json{{"role", "assistant"}, {"content", textBlock("A cat.")}},
             json{{"role", "user"}, {"content", block("image", "PHN2Zz4=", "image/svg+xml")}}});
        const json question = questionFor(messages);
        // The person: each image and audio named in the transcript by its number below it.
        QCOMPARE(question.value("message", std::string()),
                 std::string("user: What is on it?\n[image 1: image/png]\n[audio 2: audio/wav]\n"
                             "assistant: A cat.\nuser: [image 3: image/svg+xml]"));
        // Those the model is given are found in its request (kept there once), the SVG
        // with its data (the view refuses to decode it).
        QCOMPARE(question["media"].dump(),
                 json::array(
                     {json{{"type", "image"}, {"role", "user"}, {"mimeType", "image/png"}, {"model_part", {0, 1}}},
                      json{{"type", "audio"}, {"role", "user"}, {"mimeType", "audio/wav"}, {"model_part", {0, 2}}},
                      json{{"type", "image"}, {"role", "user"}, {"mimeType", "image/svg+xml"}, {"data", "PHN2Zz4="}}})
                     .dump());
        // The model: the user message's parts, the SVG a note.
        const json &request = question["model_request"];
        QCOMPARE(request.dump(),
                 json({{"messages",
                        {{{"role", "user"},
                          {"content",
                           {{{"type", "text"}, {"text", "What is on it?"}},
                            {{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64," + Png}}}},
                            {{"type", "input_audio"}, {"input_audio", {{"data", Wav}, {"format", "wav"}}}}}}},
                         {{"role", "assistant"}, {"content", "A cat."}},
                         {{"role", "user"}, {"content", "[image not sent]"}}}},
                       {"notes",
                        {"messages[2] image image/svg+xml: a model is given PNG, JPEG, GIF and WebP images only; not "
                         "sent"}},
                       {"omitted", 1}})
                     .dump());
        QCOMPARE(SamplingMedia::blocksFor(question, request).dump(),
                 json::array(
                     {json{{"type", "image"}, {"role", "user"}, {"mimeType", "image/png"}, {"data", Png}},
                      json{{"type", "audio"}, {"role", "user"}, {"mimeType", "audio/wav"}, {"data", Wav}},
                      json{{"type", "image"}, {"role", "user"}, {"mimeType", "image/svg+xml"}, {"data", "PHN2Zz4="}}})
                     .dump());
        // Without the model's request (a question read back alone) no data is invented:
        // the view says "no data at hand".
        QCOMPARE(SamplingMedia::blocksFor(question, std::nullopt)[0].dump(),
                 json({{"type", "image"}, {"role", "user"}, {"mimeType", "image/png"}}).dump());
        // The request is one a model takes (checkMessages), and the notes say what an
        // anthropic model is not given.
        QString error;
        QVERIFY2(SamplingModelCall::request(request, &error), qPrintable(error));
        QCOMPARE(SamplingModelCall::notes(model("claude", "anthropic"), request),
                 QStringList({QStringLiteral("messages[2] image image/svg+xml: a model is given PNG, JPEG, GIF and "
                                             "WebP images only; not sent"),
                              QStringLiteral("1 audio clip(s) not sent: anthropic takes no audio (model 'claude')")}));
        QCOMPARE(SamplingModelCall::notes(model("gpt", "openai-chat"), request).size(), 1);
    }

    void hostileBlocks_data()
    {
        QTest::addColumn<QByteArray>("messages"); // JSON
        QTest::addColumn<QString>("transcript");
        QTest::addColumn<int>("media");
        QTest::addColumn<QString>("model"); // the user message's content as the model gets it
        QTest::addColumn<QStringList>("notes");
        const auto user = [](const json &content) {
            return QByteArray::fromStdString(json::array({json{{"role", "user"}, {"content", content}}}).dump());
        };
        QTest::newRow("50 MiB image") << user(block("image", std::string(50 * 1024 * 1024, 'A'), "image/png"))
                                      << QStringLiteral("user: [image image/png: not shown: 50.0 MiB of base64, more "
                                                        "than the 5.0 MiB of one]")
                                      << 0 << QStringLiteral("\"[image not sent]\"")
                                      << QStringList{QStringLiteral("messages[0] image image/png: 50.0 MiB of base64, "
                                                                    "more than the 5.0 MiB of one; not sent")};
        QTest::newRow("not base64") << user(block("image", "not base64!", "image/png"))
                                    << QStringLiteral("user: [image 1: image/png]") << 1
                                    << QStringLiteral("\"[image not sent]\"")
                                    << QStringList{QStringLiteral(
                                           "messages[0] image image/png: its data is not base64; not sent")};
        QTest::newRow("jpeg named png") << user(block("image", "/9j/4AAQ", "image/png"))
                                        << QStringLiteral("user: [image 1: image/png]") << 1
                                        << QStringLiteral("\"[image not sent]\"")
                                        << QStringList{QStringLiteral("messages[0] image image/png: the data is not a "
                                                                      "PNG image (image/png declared); not sent")};
        QTest::newRow("control characters in mimeType")
            << user(block("image", Png, "image/png\x1b[31m\n"))
            << QStringLiteral("user: [image 1: image/png\\u001b[31m\\n]") << 1 << QStringLiteral("\"[image not sent]\"")
            << QStringList{QStringLiteral("messages[0] image image/png\\u001b[31m\\n: a model is given PNG, JPEG, GIF "
                                          "and WebP images only; not sent")};
        QTest::newRow("mimeType in capitals")
            << user(block("image", Png, "IMAGE/PNG")) << QStringLiteral("user: [image 1: IMAGE/PNG]") << 1
            << QStringLiteral("[image_url]") << QStringList();
        QTest::newRow("no data") << user(json{{"type", "image"}, {"mimeType", "image/png"}})
                                 << QStringLiteral("user: [image image/png: not shown: it has no data]") << 0
                                 << QStringLiteral("\"[image not sent]\"")
                                 << QStringList{
                                        QStringLiteral("messages[0] image image/png: it has no data; not sent")};
        QTest::newRow("ogg audio") << user(block("audio", "T2dnUw==", "audio/ogg"))
                                   << QStringLiteral("user: [audio 1: audio/ogg]") << 1
                                   << QStringLiteral("\"[audio not sent]\"")
                                   << QStringList{
                                          QStringLiteral("messages[0] audio audio/ogg: a model is given WAV and "
                                                         "MP3 audio only; not sent")};
        QTest::newRow("two images over the total")
            << user(json::array(
                   {block("image", bigPng(4'800'000), "image/png"), block("image", bigPng(4'800'000), "image/png")}))
            << QStringLiteral("user: [image 1: image/png]\n[image image/png: not shown: the request's images and audio "
                              "are more than 8.0 MiB together]")
            << 1 << QStringLiteral("[image_url, text]")
            << QStringList{QStringLiteral("messages[0] image image/png: the request's images and audio are more than "
                                          "8.0 MiB together; not sent")};
        QByteArray assistant = QByteArray::fromStdString(
            json::array({json{{"role", "user"}, {"content", textBlock("Draw")}},
                         json{{"role", "assistant"}, {"content", block("image", Png, "image/png")}}})
                .dump());
        QTest::newRow("an assistant's image")
            << assistant << QStringLiteral("user: Draw\nassistant: [image 1: image/png]") << 1
            << QStringLiteral("\"Draw\"")
            << QStringList{QStringLiteral(
                   "messages[1] image image/png: a model takes images and audio in user messages only; not sent")};
    }

    void hostileBlocks()
    {
        QFETCH(QByteArray, messages);
        QFETCH(QString, transcript);
        QFETCH(int, media);
        QFETCH(QString, model);
        QFETCH(QStringList, notes);
        const json question = questionFor(json::parse(messages.toStdString()));
        QCOMPARE(QString::fromStdString(question.value("message", std::string())), transcript);
        QCOMPARE(int(question.value("media", json::array()).size()), media);
        const json &request = question["model_request"];
        const json content = request["messages"][0]["content"];
        QString shown = QString::fromStdString(content.dump());
        if (content.is_array()) { // the parts' types: their data is checked above
            QStringList types;
            for (const json &part : content)
                types << QString::fromStdString(part["type"].get<std::string>());
            shown = u'[' + types.join(QStringLiteral(", ")) + u']';
        }
        QCOMPARE(shown, model);
        QStringList said;
        for (const json &note : request.value("notes", json::array()))
            said << QString::fromStdString(note.get<std::string>());
        QCOMPARE(said, notes);
        QString error;
        QVERIFY2(SamplingModelCall::request(request, &error), qPrintable(error)); // what is sent is valid
        // The data is kept once (the question, its model_request in it, refers to the
        // model's part), whatever the server sent.
        const std::size_t kept = question.dump().size();
        QVERIFY2(kept < SamplingMedia::MaxTotalBytes + 4096, qPrintable(QString::number(kept)));
    }

    void thousandsOfTinyImagesAreCounted()
    {
        json blocks = json::array({textBlock("Which?")});
        for (int i = 0; i < 5000; ++i)
            blocks.push_back(block("image", Png, "image/png"));
        const json question = questionFor(json::array({json{{"role", "user"}, {"content", blocks}}}));
        QCOMPARE(question["media"].size(), SamplingMedia::MaxBlocks);
        const json &request = question["model_request"];
        QCOMPARE(request["messages"][0]["content"].size(), std::size_t(1 + 20 + 1)); // text, 20 images, the notes' text
        QCOMPARE(request["omitted"].get<int>(), 4980);
        QCOMPARE(request["notes"].size(), std::size_t(6));
        QCOMPARE(request["notes"][0].get<std::string>(),
                 std::string("messages[0] image image/png: the request has more than 20 images and audio clips; not "
                             "sent"));
        QCOMPARE(request["notes"][5].get<std::string>(), std::string("4975 more images or audio clips not sent"));
        // The transcript is bounded as any other.
        QVERIFY(question["message"].get<std::string>().size() <= std::size_t(McpPersonQuestion::MaxMessageChars) + 100);
        QVERIFY(request.dump().size() < 20 * Png.size() + 200'000);
    }

    // attack42 B1: a request of millions of image blocks without data (one message of
    // 2 000 000 {"type": "image"}, 34 MB of JSON: within 64 MiB and 8 M values) cost
    // ~1.8 GB and ~12 s, a Block and a note for each. Now SamplingMedia names a bounded
    // number and counts the rest, and the question refuses more than MaxContentBlocks
    // before building anything.
    void millionsOfMediaBlocksAreNotEachKept()
    {
#ifdef __SANITIZE_ADDRESS__
        // AddressSanitizer's quarantine keeps what is freed: the walk's temporaries count.
        constexpr long MaxGrownMiB = 64;
#else
        constexpr long MaxGrownMiB = 16;
#endif
        json blocks = json::array();
        for (int i = 0; i < 2'000'000; ++i)
            blocks.push_back(json{{"type", "image"}});
        const json messages = json::array({json{{"role", "user"}, {"content", std::move(blocks)}}});
        const McpServerRequest request{1, QStringLiteral("sampling/createMessage"), json{{"messages", messages}}};
        resetPeak();
        const long before = peakKiB();
        QElapsedTimer clock;
        clock.start();
        {
            SamplingMedia media(messages);
            QCOMPARE(media.blocks().size(), SamplingMedia::MaxNamedNotKept);
            QCOMPARE(media.notChecked(), std::size_t(2'000'000) - SamplingMedia::MaxNamedNotKept);
            const long grown = (peakKiB() - before) / 1024;
            qInfo("SamplingMedia: %lld ms, peak +%ld MiB", clock.elapsed(), grown);
            QVERIFY2(grown < MaxGrownMiB, qPrintable(QStringLiteral("peak grew %1 MiB").arg(grown)));
        }
        resetPeak();
        const long before2 = peakKiB();
        clock.restart();
        QString error;
        const auto question = McpPersonQuestion::question(QStringLiteral("s"), request, &error);
        const long grown = (peakKiB() - before2) / 1024;
        const qint64 ms = clock.elapsed();
        qInfo("question: %lld ms, peak +%ld MiB", ms, grown);
        QVERIFY(!question);
        QCOMPARE(error,
                 QStringLiteral("the request's messages hold 2000000 content blocks; Tool Studio takes at most "
                                "10000"));
        // The server's message is ~34 MB of JSON; the refusal builds nothing of it.
        QVERIFY2(grown < MaxGrownMiB, qPrintable(QStringLiteral("peak grew %1 MiB").arg(grown)));
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
    }

    void aRequestAtTheLimitOfBlocksIsAskedAndCounted()
    {
        // One text and 9 999 images without data: MaxContentBlocks in all, asked.
        json blocks = json::array({textBlock("Which?")});
        for (std::size_t i = 1; i < McpPersonQuestion::MaxContentBlocks; ++i)
            blocks.push_back(json{{"type", "image"}});
        const json question = questionFor(json::array({json{{"role", "user"}, {"content", blocks}}}));
        QVERIFY2(!question.contains("no question"), question.dump().c_str());
        const std::string &message = question["message"].get_ref<const std::string &>();
        QVERIFY(message.starts_with("user: Which?\n[image no mimeType: not shown: it has no data]\n"));
        // Those past the 20 named are counted in one line.
        QVERIFY2(message.ends_with("\n[image: not shown]\n… (9979 more images and audio clips not shown: past the 20 "
                                   "kept and 20 named)"),
                 message.c_str());
        const json &request = question["model_request"];
        QCOMPARE(request["omitted"].get<int>(), 9999);
        QCOMPARE(request["notes"].size(), std::size_t(6));
        QCOMPARE(request["notes"][5].get<std::string>(), std::string("9994 more images or audio clips not sent"));
        // One block more is refused.
        blocks.push_back(json{{"type", "image"}});
        const json refused = questionFor(json::array({json{{"role", "user"}, {"content", blocks}}}));
        QCOMPARE(refused.value("no question", std::string()),
                 std::string("the request's messages hold 10001 content blocks; Tool Studio takes at most 10000"));
    }

    void aModelRequestStopsAtTheBlockPastItsText()
    {
        // 300 text blocks of 1 KiB: the model's request stops at 256 KiB, a person still asked.
        json blocks = json::array();
        for (int i = 0; i < 300; ++i)
            blocks.push_back(json{{"type", "text"}, {"text", std::string(1024, 'a')}});
        const json question = questionFor(json::array({json{{"role", "user"}, {"content", blocks}}}));
        const json expected = {{"error", "the request's text is more than the 262144 bytes a model is given"}};
        QCOMPARE(question["model_request"].dump(), expected.dump());
    }

    void aJpegOfManyScansIsNotSent()
    {
        // attack42 B3: a scan bomb, counted from its markers: a model is not given it.
        QByteArray jpeg = QByteArray::fromHex("ffd8");
        jpeg += QByteArray::fromHex("ffda000801010000003f001234").repeated(JpegScans::MaxScans + 1);
        jpeg += QByteArray::fromHex("ffd9");
        const json question = questionFor(json::array(
            {json{{"role", "user"}, {"content", block("image", jpeg.toBase64().toStdString(), "image/jpeg")}}}));
        QCOMPARE(question["model_request"]["notes"][0].get<std::string>(),
                 std::string("messages[0] image image/jpeg: the JPEG has 101 scans, more than 100 (a progressive one "
                             "has about 10); not sent"));
        // A person is shown it (the view refuses to decode it and says why).
        QCOMPARE(question["media"].size(), std::size_t(1));
        QCOMPARE(ModelMessage::imageDataProblem("image/jpeg", "/9j/4AAQ"), QString());
    }

    // attack42 B2: PendingCallsPanel::showCurrent runs on every tick of its 1 s ticker
    // while a call waits; it compared the shown question by its whole dump (a sampling
    // question carrying 8 MiB of media: ~150 ms a tick). It compares its identity now.
    void aQuestionWithMediaIsCheapToCompare()
    {
        json question = questionFor(
            json::array({json{{"role", "user"},
                              {"content",
                               json::array({textBlock("Which?"), block("image", bigPng(5 * 1024 * 1024), "image/png"),
                                            block("image", bigPng(3 * 1024 * 1024 - 4096), "image/png")})}}}));
        QCOMPARE(question["media"].size(), std::size_t(2));
        question["serial"] = 1;
        QElapsedTimer clock;
        clock.start();
        const QString shown = PersonQuestion::identity(question); // as showCurrent, per tick
        const qint64 ms = clock.elapsed();
        QCOMPARE(shown, QStringLiteral("1\n\"sampling\"\n\"s\"\n\"sampling/createMessage\"\n1"));
        QVERIFY2(ms < 20, qPrintable(QStringLiteral("%1 ms a second on the GUI thread").arg(ms)));
        // Another question of the attempt (the server withdrew one and asked again) is another.
        question["serial"] = 2;
        QVERIFY(PersonQuestion::identity(question) != shown);
        QCOMPARE(PersonQuestion::identity(json{{"request_id", std::string(300, 'x')}}),
                 QStringLiteral("\n\n\n\n(300 bytes)"));
        QCOMPARE(PersonQuestion::identity(json::array()), QString());
    }
};

QTEST_GUILESS_MAIN(TestSamplingMedia)
#include "tst_samplingmedia.moc"
