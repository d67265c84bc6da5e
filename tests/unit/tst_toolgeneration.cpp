// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Generate Tool with AI's core (llm/toolgeneration.h, llm/toolgenerator.h): the exact
// prompt, the code taken out of a reply — an untrusted text: fences that never close,
// several blocks, NUL characters, text-direction characters, a reply over the cap — and
// the request through a `mock` model, its retries and Stop.

#include "llm/toolgeneration.h"
#include "llm/toolgenerator.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using json = nlohmann::json;
using namespace Qt::StringLiterals;

namespace {

const QString ToolFile = QStringLiteral("class Tools:\n    def add(self, a: int, b: int) -> int:\n"
                                        "        \"\"\"Add two numbers.\n\n        :param a: The first.\n"
                                        "        :param b: The second.\n        \"\"\"\n        return a + b\n");

ModelConfig mockModel(const json &turns)
{
    ModelConfig model;
    model.name = QStringLiteral("scripted");
    model.provider = ModelConfig::Provider::Mock;
    for (std::size_t i = 0; i < turns.size(); ++i)
        model.turns.push_back(ModelConfig::parseTurn(turns[i], QStringLiteral("turns"), int(i)));
    model.retry.initialBackoffMs = 10;
    model.retry.jitter = 0;
    return model;
}

} // namespace

class TstToolGeneration : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_project;
    QNetworkAccessManager m_network;

    ToolGenerator::Outcome generate(ToolGenerator &generator, const QString &description = QStringLiteral("add"))
    {
        QSignalSpy finished(&generator, &ToolGenerator::finished);
        generator.generate(description, QStringLiteral("tools/adder.py"), QString());
        if (!finished.wait(10000))
            return {};
        return finished.takeFirst().at(0).value<ToolGenerator::Outcome>();
    }

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<ToolGenerator::Outcome>(); }

    /// What the model is asked for: the exact system prompt and a user message.
    void messagesForANewFile()
    {
        const json messages = ToolGeneration::messages(QStringLiteral("  Add two numbers.\n"),
                                                       QStringLiteral("tools/adder.py"), QString());
        QCOMPARE(messages.size(), 2u);
        QVERIFY(messages[0]["role"] == "system");
        QCOMPARE(QString::fromStdString(messages[0]["content"].get<std::string>()), ToolGeneration::systemPrompt());
        QVERIFY(messages[1]["role"] == "user");
        QCOMPARE(QString::fromStdString(messages[1]["content"].get<std::string>()),
                 u"Write the tool file tools/adder.py.\n\nAdd two numbers."_s);
        const QString prompt = ToolGeneration::systemPrompt();
        QVERIFY(prompt.startsWith(QStringLiteral("You write tool files for Tool Studio: Python files in the Open "
                                                 "WebUI style, whose tools a language model calls.\nAnswer with "
                                                 "exactly one complete Python file in one ```python fenced code "
                                                 "block, and nothing after it.\n")));
        QVERIFY(prompt.contains(QStringLiteral("- defines `class Tools:`; each public method is a tool")));
        QVERIFY(prompt.contains(QStringLiteral("then one `:param name: description` line per parameter;\n")));
        QVERIFY(prompt.endsWith(QStringLiteral("keeping what the request does not change.")));
    }

    /// The current file goes in a fence longer than any backtick run in it, so a file
    /// holding ``` cannot close the fence and smuggle text out of it.
    void currentFileIsFencedSafely()
    {
        QCOMPARE(ToolGeneration::userPrompt(QStringLiteral("Rename add to plus."), QStringLiteral("tools/adder.py"),
                                            QStringLiteral("class Tools:\n    pass")),
                 QStringLiteral("This is the tool file tools/adder.py now:\n\n```python\nclass Tools:\n    pass\n"
                                "```\n\nChange it: Rename add to plus."));
        QCOMPARE(ToolGeneration::userPrompt(QStringLiteral("x"), QStringLiteral("tools/a.py"),
                                            QStringLiteral("doc = \"\"\"````\"\"\"\n")),
                 QStringLiteral("This is the tool file tools/a.py now:\n\n`````python\ndoc = \"\"\"````\"\"\"\n"
                                "`````\n\nChange it: x"));
    }

    void extraction_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QString>("stopReason");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("error");
        const QString code = ToolFile;
        QTest::newRow("python fence") << u"Here it is:\n\n```python\n"_s + code + u"```\nEnjoy."_s << u"stop"_s << code
                                      << u""_s;
        QTest::newRow("py fence, CRLF") << QString(u"```py\n"_s + code + u"```\n"_s).replace(u"\n"_s, u"\r\n"_s)
                                        << u"stop"_s << code << u""_s;
        QTest::newRow("no fence: the whole text") << u"\n\n"_s + code + u"\n\n"_s << u"stop"_s << code << u""_s;
        QTest::newRow("first python block of several") << u"```bash\npip install x\n```\n```python\n"_s + code
                + u"```\n```python\nclass Tools:\n    other = 1\n```\n"_s
                                                       << u"stop"_s << code << u""_s;
        QTest::newRow("an unmarked block when none is python")
            << u"```json\n{}\n```\n```\n"_s + code + u"```\n"_s << u"stop"_s << code << u""_s;
        QTest::newRow("tildes, a longer fence, indented")
            << u"  ~~~~ python title=\"x\"\n"_s + code + u"~~~~~\n"_s << u"stop"_s << code << u""_s;
        QTest::newRow("a shorter fence inside does not close")
            << u"````python\n"_s + code + u"```\n````\n"_s << u"stop"_s << code + u"```\n"_s << u""_s;
        QTest::newRow("a fence that never closes runs to the end")
            << u"```python\n"_s + code << u"stop"_s << code << u""_s;
        QTest::newRow("a fence that never closes, cut at the token limit")
            << u"```python\n"_s + code << u"length"_s << u""_s
            << u"The model stopped at its token limit before the file was complete (its code block never closes). "_s
               u"Raise max_tokens in the model's params, or ask for a smaller tool."_s;
        QTest::newRow("no fence, cut at the token limit")
            << code << u"length"_s << u""_s
            << u"The model stopped at its token limit before the file was complete. Raise max_tokens in the "_s
               u"model's params, or ask for a smaller tool."_s;
        QTest::newRow("empty") << u"  \n "_s << u"stop"_s << u""_s
                               << u"The model's reply is empty: there is no code in it."_s;
        QTest::newRow("prose, no class Tools")
            << u"I'm sorry, I can't write that tool."_s << u"stop"_s << u""_s
            << u"The model's reply has no Python file with a class Tools in it. It starts: I'm sorry, I can't "_s
               u"write that tool."_s;
        QTest::newRow("a python block without class Tools")
            << u"```python\nprint('hi')\n```\n"_s << u"stop"_s << u""_s
            << u"The model's reply has no Python file with a class Tools in it. It starts: ```python\\nprint('hi')"_s
               u"\\n```"_s;
        QTest::newRow("only other languages")
            << u"```json\n{}\n```\n```bash\nls\n```\n"_s << u"stop"_s << u""_s
            << u"The model's reply has code only in other languages (json, bash), no Python. It starts: "_s
               u"```json\\n{}\\n```\\n```bash\\nls\\n```"_s;
        QTest::newRow("class Tools only in a string is not a file")
            << u"x = 'class Tools'\n"_s << u"stop"_s << u""_s
            << u"The model's reply has no Python file with a class Tools in it. It starts: x = 'class Tools'"_s;
        QTest::newRow("a NUL character")
            << u"```python\n"_s + code.left(12) + QChar(0) + code.mid(12) + u"```\n"_s << u"stop"_s << u""_s
            << u"The model's code holds a NUL character, which no Python file may hold; it was not taken."_s;
    }

    void extraction()
    {
        QFETCH(QString, reply);
        QFETCH(QString, stopReason);
        QFETCH(QString, code);
        QFETCH(QString, error);
        const ToolGeneration::Extraction extraction = ToolGeneration::extractCode(reply, stopReason);
        QCOMPARE(extraction.error, error);
        QCOMPARE(extraction.code, code);
    }

    /// The start of a long reply is quoted cut, and made printable (no terminal escapes,
    /// no text-direction characters in the error a person reads).
    void errorQuotesTheStartPrintable()
    {
        const QString reply = QStringLiteral("\u202Eevil\u001b[2J ") + QString(500, u'x');
        const QString error = ToolGeneration::extractCode(reply, QStringLiteral("stop")).error;
        QVERIFY2(error.startsWith(QStringLiteral("The model's reply has no Python file with a class Tools in it. "
                                                 "It starts: \\u202eevil\\u001b[2J xxx")),
                 qPrintable(error));
        QVERIFY(!error.contains(QChar(0x202E)));
        QVERIFY(error.size() < 400);
    }

    /// A code over the cap is refused (a `mock` turn has no HTTP cap).
    void codeOverTheCapIsRefused()
    {
        const QString big = ToolFile + QStringLiteral("# ") + QString(ToolGeneration::CodeCapBytes, u'x') + u'\n';
        const ToolGeneration::Extraction extraction = ToolGeneration::extractCode(big, QStringLiteral("stop"));
        QCOMPARE(extraction.code, QString());
        QCOMPARE(big.size(), 524467); // ASCII: as many bytes
        QCOMPARE(extraction.error,
                 u"The model's code is 524467 bytes, more than the 524288 bytes a generated tool "_s
                 u"file may have; it was not taken."_s);
    }

    void hiddenCharacters()
    {
        QVERIFY(!ToolGeneration::hasHiddenCharacters(ToolFile + QStringLiteral("\tx = 'café'\n")));
        QVERIFY(ToolGeneration::hasHiddenCharacters(QStringLiteral("x = 1 # \u202E } \u2066 {\n")));
        QVERIFY(ToolGeneration::hasHiddenCharacters(QStringLiteral("x = '\u001b[2J'\n")));
    }

    /// Through a mock model: the fenced file of its turn.
    void generatesThroughAMockModel()
    {
        ToolGenerator generator(
            mockModel(json::array({{{"content", (u"Sure:\n```python\n"_s + ToolFile + u"```"_s).toStdString()}}})),
            Secrets::load(m_project.path()), &m_network);
        const ToolGenerator::Outcome outcome = generate(generator);
        QCOMPARE(outcome.error, QString());
        QCOMPARE(outcome.code, ToolFile);
        QCOMPARE(outcome.attempts, 1);
    }

    /// A retryable failure is tried again per the model's retry; a reply with tool calls
    /// only has no code; the mock's turn counter carries over to the next Generate.
    void retriesThenNoCode()
    {
        ToolGenerator generator(mockModel(json::array({
                                    {{"error", "overloaded"}, {"retryable", true}},
                                    {{"tool_calls", json::array({{{"name", "t"}, {"arguments", json::object()}}})}},
                                    {{"error", "quota"}, {"retryable", false}},
                                })),
                                Secrets::load(m_project.path()), &m_network);
        QSignalSpy retrying(&generator, &ToolGenerator::retrying);
        ToolGenerator::Outcome outcome = generate(generator);
        QCOMPARE(retrying.size(), 1);
        QCOMPARE(retrying.at(0).at(0).toInt(), 2);
        QCOMPARE(outcome.attempts, 2);
        QCOMPARE(outcome.errorCode, QStringLiteral("no_code"));
        QCOMPARE(outcome.error,
                 QStringLiteral("The model answered with tool calls instead of a file; generate again."));
        outcome = generate(generator);
        QCOMPARE(outcome.errorCode, QStringLiteral("model_failed"));
        QCOMPARE(outcome.error, QStringLiteral("model 'scripted': quota"));
        QCOMPARE(outcome.attempts, 1);
    }

    /// The attempts stop at retry.max_attempts with the last error.
    void retriesStopAtMaxAttempts()
    {
        ModelConfig model = mockModel(json::array({{{"error", "overloaded"}, {"retryable", true}}}));
        model.retry.maxAttempts = 2;
        ToolGenerator generator(model, Secrets::load(m_project.path()), &m_network);
        const ToolGenerator::Outcome outcome = generate(generator);
        QCOMPARE(outcome.attempts, 2);
        QCOMPARE(outcome.error, QStringLiteral("model 'scripted': overloaded"));
    }

    /// Stop: no outcome for the generation; the next one runs.
    void cancelDropsTheOutcome()
    {
        json turn = {{"content", ToolFile.toStdString()}, {"delay_seconds", 0.3}};
        ModelConfig model = mockModel(json::array({turn}));
        ToolGenerator generator(model, Secrets::load(m_project.path()), &m_network);
        QSignalSpy finished(&generator, &ToolGenerator::finished);
        generator.generate(QStringLiteral("x"), QStringLiteral("tools/x.py"), QString());
        QVERIFY(generator.isRunning());
        generator.cancel();
        QVERIFY(!generator.isRunning());
        QVERIFY(!finished.wait(600));
        QCOMPARE(generate(generator).code, ToolFile);
    }
};

QTEST_GUILESS_MAIN(TstToolGeneration)
#include "tst_toolgeneration.moc"
