// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// QuestionPrompt (docs/mcp.md "A server's requests", headless): a form's schema printed
// whole, one line per field, bounded with where the rest is; a line typed at the prompt
// is a sampling reply's text, or JSON with a plain-words problem that fits the question.

#include "cli/questionprompt.h"

#include <QTest>

using nlohmann::json;

namespace {

const json Form = json::parse(R"({"type": "object", "required": ["name"],
  "properties": {"name": {"type": "string", "title": "Name", "minLength": 1},
                 "age": {"type": "integer", "minimum": 0},
                 "color": {"type": "string", "enum": ["red", "green"], "description": "Pick \u001b[31mone"}},
  "additionalProperties": false})");

} // namespace

class TstQuestionPrompt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void formIsOneLinePerField()
    {
        QCOMPARE(QuestionPrompt::schemaText(Form),
                 QStringLiteral("  form (requestedSchema), one line per field:\n"
                                "    name: string, required, minLength 1, title \"Name\"\n"
                                "    age: integer, minimum 0\n"
                                "    color: string, description \"Pick \\u001b[31mone\", enum [\"red\",\"green\"]\n"
                                "    and the form's own: additionalProperties false"));
    }

    void aLongFormSaysWhereTheRestIs()
    {
        json schema = {{"type", "object"}, {"properties", json::object()}};
        for (int i = 0; i < 700; ++i)
            schema["properties"][QStringLiteral("field%1").arg(i, 4, 10, QLatin1Char('0')).toStdString()]
                = {{"type", "string"}, {"description", std::string(40, 'x')}};
        QVERIFY(schema.dump().size() < 64 * 1024); // what the studio asks a person at most
        const QString text = QuestionPrompt::schemaText(schema);
        const QStringList lines = text.split(u'\n');
        QVERIFY(text.toUtf8().size() - lines.last().toUtf8().size() <= QuestionPrompt::MaxSchemaTextBytes);
        // 46 bytes of heading, then 78 per field: 209 fit in 16 KiB.
        QCOMPARE(lines.size(), 211); // the heading, 209 fields, the count
        QCOMPARE(lines[209], QStringLiteral("    field0208: string, description \"") + QString(40, u'x') + u'"');
        QCOMPARE(lines.last(),
                 QStringLiteral("    … 491 more field(s) not shown; the whole schema is in the run's "
                                "trace: toolstudio trace export PROJECT RUN (the call's person_asked "
                                "event), or the window's Pending Calls dock"));
    }

    void questionTextShowsTheFormAndAnExample()
    {
        const json question
            = {{"kind", "elicitation"}, {"server", "fake"}, {"message", "Who are you?"}, {"schema", Form}};
        QVERIFY(QuestionPrompt::questionText(QStringLiteral("run"), question)
                    .endsWith(QStringLiteral("additionalProperties false\n  answer: {\"action\": \"accept\", "
                                             "\"content\": {…}}, e.g. {\"action\":\"accept\",\"content\":{\"name\":"
                                             "\"…\"}}; {\"action\": \"decline\"} or {\"action\": \"cancel\"}; an "
                                             "error refuses it")));
    }

    void typedLines_data()
    {
        QTest::addColumn<QByteArray>("question"); // JSON; empty: a manual tool's result
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QByteArray>("result"); // JSON of the answer's result; empty: refused
        QTest::addColumn<QString>("problem");
        const QByteArray sampling = R"({"kind": "sampling", "server": "s"})";
        QTest::newRow("sampling: plain text")
            << sampling << QByteArray("  Bonjour  ") << QByteArray("\"Bonjour\"") << QString();
        QTest::newRow("sampling: a JSON string")
            << sampling << QByteArray("\"Hi\"") << QByteArray("\"Hi\"") << QString();
        QTest::newRow("sampling: the result object") << sampling << QByteArray(R"({"text": "Hi", "model": "m"})")
                                                     << QByteArray(R"({"model":"m","text":"Hi"})") << QString();
        QTest::newRow("sampling: a number is text")
            << sampling << QByteArray("42") << QByteArray("\"42\"") << QString();
        QTest::newRow("sampling: braces are text")
            << sampling << QByteArray("{not json}") << QByteArray("\"{not json}\"") << QString();
        QTest::newRow("form: not JSON")
            << QByteArray(R"({"kind": "elicitation", "schema": )") + QByteArray::fromStdString(Form.dump()) + "}"
            << QByteArray("Ada") << QByteArray()
            << QStringLiteral("That is not JSON (it stops being JSON at character 1). An answer here is JSON, e.g. "
                              "{\"action\":\"accept\",\"content\":{\"name\":\"…\"}}, or {\"action\": \"decline\"}");
        QTest::newRow("url: not JSON")
            << QByteArray(R"({"kind": "elicitation", "mode": "url"})") << QByteArray("done") << QByteArray()
            << QStringLiteral("That is not JSON (it stops being JSON at character 1). An answer here is JSON, e.g. "
                              "{\"action\": \"accept\"} once done in the browser, or {\"action\": \"decline\"}");
        QTest::newRow("tool change: not JSON")
            << QByteArray(R"({"kind": "tool_change"})") << QByteArray("yes") << QByteArray()
            << QStringLiteral("That is not JSON (it stops being JSON at character 1). An answer here is JSON, e.g. "
                              "{\"action\": \"accept\"} or {\"action\": \"reject\"}");
        QTest::newRow("tool result: not JSON")
            << QByteArray() << QByteArray("{\"rate\": x}") << QByteArray()
            << QStringLiteral("That is not JSON (it stops being JSON at character 10). An answer here is JSON, e.g. "
                              "{\"key\": \"value\"}, or \"text in double quotes\", or a number");
        QTest::newRow("tool result: too large a number")
            << QByteArray() << QByteArray("1e999") << QByteArray()
            << QStringLiteral("That holds a number too large to keep. An answer here is JSON, e.g. {\"key\": "
                              "\"value\"}, or \"text in double quotes\", or a number");
        QTest::newRow("tool result: JSON")
            << QByteArray() << QByteArray("{\"rate\": 1.5}") << QByteArray("{\"rate\":1.5}") << QString();
    }

    void typedLines()
    {
        QFETCH(QByteArray, question);
        QFETCH(QByteArray, line);
        QFETCH(QByteArray, result);
        QFETCH(QString, problem);
        const json asked = question.isEmpty() ? json() : json::parse(question.toStdString());
        QString got;
        const auto answer
            = QuestionPrompt::typedAnswer(line.toStdString(), question.isEmpty() ? nullptr : &asked, &got);
        QCOMPARE(got, problem);
        QCOMPARE(answer.has_value(), !result.isEmpty());
        if (answer) {
            QVERIFY(!answer->isError);
            QCOMPARE(QByteArray::fromStdString(answer->result.dump()), result);
        }
    }

    void errorsRefuse()
    {
        const json sampling = {{"kind", "sampling"}};
        QString problem;
        const auto answer = QuestionPrompt::typedAnswer("!retry busy now", &sampling, &problem);
        QVERIFY(answer && answer->isError && answer->retryable);
        QCOMPARE(answer->message, QStringLiteral("busy now"));
        QCOMPARE(QuestionPrompt::promptLabel(&sampling), QStringLiteral("Reply text (or: !error MESSAGE to refuse): "));
        QCOMPARE(QuestionPrompt::promptLabel(nullptr),
                 QStringLiteral("Result as JSON (or: !error MESSAGE, !retry MESSAGE): "));
    }
};

QTEST_GUILESS_MAIN(TstQuestionPrompt)
#include "tst_questionprompt.moc"
