// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Hostile bodies of `POST /v1/exec/programmatic` and `POST /v1/exec` (attack7): what
// ProgrammaticRequest::parse, run on `toolstudio serve`'s Qt thread, does with bodies
// built to make it slow or wrong within the 4 MiB body cap. Each test names the
// input; the refusals are checked word for word.

#include "answerbody.h"
#include "programmaticrequest.h"

#include <QTest>

#include <string>

class TstProgrammaticRequest : public QObject
{
    Q_OBJECT

    static std::optional<ProgrammaticRequest> parse(const std::string &body, ProgrammaticRequest::Problem *problem,
                                                    bool withTools = true)
    {
        return ProgrammaticRequest::parse(body, withTools, problem);
    }

private Q_SLOTS:
    // An object of 300 000 members, parsed into ordered_json (its members kept in
    // order for `parameters.properties`): nlohmann's ordered_map inserts by a linear
    // search, ~n²/2 comparisons — before, this body kept the Qt thread busy for tens of
    // minutes. Now refused at once, naming the bound and where it was passed.
    void anObjectOfManyMembersIsRefusedBeforeParsing()
    {
        std::string body
            = "{\"code\": \"x\", \"tools\": [{\"name\": \"t\", \"parameters\": {\"type\": \"object\", \"properties\": {";
        for (int i = 0; i < 300000; ++i)
            body += (i ? ",\"" : "\"") + std::to_string(i) + "\":{}";
        body += "}}}]}";
        QVERIFY(body.size() < 4u * 1024 * 1024);
        ProgrammaticRequest::Problem problem;
        QVERIFY(!parse(body, &problem));
        QCOMPARE(problem.status, 400);
        QCOMPARE(problem.code, "invalid_json");
        const std::size_t offset = body.find(",\"1024\":");
        QCOMPARE(problem.message,
                 QStringLiteral("the body has an object with more than 1024 members (byte offset %1); the studio "
                                "keeps the order of at most 1024 members of one object here")
                     .arg(offset));
    }

    // Up to the bound a tool's properties keep their order (the positional order).
    void propertiesUpToTheBoundKeepTheirOrder()
    {
        std::string body
            = "{\"code\": \"x\", \"tools\": [{\"name\": \"t\", \"parameters\": {\"type\": \"object\", \"properties\": {";
        for (int i = 1023; i >= 0; --i)
            body += (i != 1023 ? ",\"p" : "\"p") + std::to_string(i) + "\":{}";
        body += "}}}]}";
        ProgrammaticRequest::Problem problem;
        const auto request = parse(body, &problem);
        QVERIFY2(request, qPrintable(problem.message));
        QCOMPARE(request->tools.size(), std::size_t(1));
        QCOMPARE(request->tools[0].parameterOrder.size(), 1024);
        QCOMPARE(request->tools[0].parameterOrder.first(), QStringLiteral("p1023"));
        QCOMPARE(request->tools[0].parameterOrder.last(), QStringLiteral("p0"));
    }

    // Many members spread over many small objects are fine (the bound is per object).
    void manySmallObjectsParse()
    {
        std::string body = "{\"session_id\": \"s\", \"continuation_token\": \"t\", \"tool_results\": [";
        for (int i = 0; i < 2000; ++i)
            body += std::string(i ? "," : "") + "{\"call_id\": \"c" + std::to_string(i) + "\", \"result\": {\"a\": 1}}";
        body += "]}";
        ProgrammaticRequest::Problem problem;
        const auto request = parse(body, &problem);
        QVERIFY2(request, qPrintable(problem.message));
        QCOMPARE(request->results.size(), std::size_t(2000));
    }

    // 120 000 results (a 4 MiB body) with one duplicate at the end: each result was
    // compared with every earlier one (~7·10⁹ comparisons, minutes on the Qt thread).
    // Now a set: the duplicate is named.
    void aDuplicateResultAmongManyIsNamed()
    {
        std::string body = "{\"session_id\": \"s\", \"continuation_token\": \"t\", \"tool_results\": [";
        const int count = 120000;
        for (int i = 0; i < count; ++i)
            body += std::string(i ? "," : "") + "{\"call_id\":\"c" + std::to_string(i) + "\",\"result\":0}";
        body += ",{\"call_id\":\"c7\",\"result\":1}]}";
        QVERIFY(body.size() < 4u * 1024 * 1024);
        ProgrammaticRequest::Problem problem;
        QVERIFY(!parse(body, &problem));
        QCOMPARE(problem.status, 400);
        QCOMPARE(problem.message,
                 QStringLiteral("tool_results[%1]: call 'c7' has two results in this request").arg(count));
    }

    // Inputs that must give a clear 400, never a crash: invalid UTF-8, a NUL in a
    // name, a number beyond a double, duplicate keys (the last one counts), 2^64.
    void hostileScalars_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("invalid UTF-8 in code")
            << QByteArray("{\"code\": \"\xff\xfe\"}")
            << QString::fromUtf8("the body is not valid JSON: syntax error while parsing value - invalid string: "
                                 "ill-formed UTF-8 byte; last read: '\"\xef\xbf\xbd' (byte offset 10)");
        QTest::newRow("NUL in a tool name")
            << QByteArray("{\"code\": \"x\", \"tools\": [{\"name\": \"a\\u0000b\"}]}") << QString();
        QTest::newRow("timeout 1e999") << QByteArray("{\"code\": \"x\", \"timeout\": 1e999}") << QString();
        QTest::newRow("timeout 2^64") << QByteArray("{\"code\": \"x\", \"timeout\": 18446744073709551616}")
                                      << QStringLiteral(
                                             "'timeout' must be a number of seconds above 0 and at most 3600");
        QTest::newRow("timeout -2^63") << QByteArray("{\"code\": \"x\", \"timeout\": -9223372036854775808}")
                                       << QStringLiteral(
                                              "'timeout' must be a number of seconds above 0 and at most 3600");
    }
    void hostileScalars()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        ProgrammaticRequest::Problem problem;
        QVERIFY(!parse(body.toStdString(), &problem));
        QCOMPARE(problem.status, 400);
        if (!message.isEmpty())
            QCOMPARE(problem.message, message);
        QVERIFY(!problem.message.isEmpty());
        QVERIFY(problem.message.size() < 600);
    }

    // attack9: the answer body of POST /v1/runs/{run}/calls/{call_id}. A 1 MiB member
    // name or call id was echoed whole (and raw) into the 400's message; now the start
    // of it, elided and printable. 2^64 - 1 and 2^63 as `attempt` are refused, not
    // wrapped into an attempt; duplicate keys: the last counts.
    void answerBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("attempt");
        const QByteArray big(1 << 20, 'k');
        QTest::newRow("1 MiB member name")
            << QByteArray("{\"type\": \"tool.result\", \"id\": \"c1\", \"" + big + "\": 1}")
            << QStringLiteral("unknown member \"%1\u2026 (%2 bytes dropped)\" in a tool.result (members: type, id, "
                              "attempt, question, result)")
                   .arg(QString(AnswerBody::QuotedChars, u'k'))
                   .arg((1 << 20) - AnswerBody::QuotedChars)
            << 0;
        QTest::newRow("1 MiB id with a control character")
            << QByteArray("{\"type\": \"tool.result\", \"id\": \"\\u001b[2J" + big + "\", \"result\": 1}")
            << QStringLiteral("\"id\" is '\\u001b[2J%1\u2026 (%2 bytes dropped)' but the path names call 'c1'")
                   .arg(QString(AnswerBody::QuotedChars - 4, u'k'))
                   .arg((1 << 20) - AnswerBody::QuotedChars + 4)
            << 0;
        QTest::newRow("attempt 2^64-1") << QByteArray(
            "{\"type\": \"tool.result\", \"id\": \"c1\", \"attempt\": 18446744073709551615, "
            "\"result\": 1}") << QStringLiteral("\"attempt\" must be a whole number from 1 (the attempt answered)")
                                        << 0;
        QTest::newRow("attempt 2^63") << QByteArray(
            "{\"type\": \"tool.result\", \"id\": \"c1\", \"attempt\": 9223372036854775808, "
            "\"result\": 1}") << QStringLiteral("\"attempt\" must be a whole number from 1 (the attempt answered)")
                                      << 0;
        QTest::newRow("attempt 1.0")
            << QByteArray("{\"type\": \"tool.result\", \"id\": \"c1\", \"attempt\": 1.0, \"result\": 1}")
            << QStringLiteral("\"attempt\" must be a whole number from 1 (the attempt answered)") << 0;
        QTest::newRow("duplicate keys: the last counts")
            << QByteArray("{\"type\": \"tool.result\", \"id\": \"c2\", \"id\": \"c1\", \"attempt\": 7, \"attempt\": "
                          "2, \"result\": 1}")
            << QString() << 2;
        QTest::newRow("nested 200 deep") << QByteArray(
            "{\"type\": \"tool.result\", \"id\": \"c1\", \"result\": " + QByteArray(200, '[') + QByteArray(200, ']')
            + "}") << QStringLiteral("the body is not valid JSON: nested deeper than 128 levels (byte offset 173)")
                                         << 0;
    }
    void answerBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QFETCH(int, attempt);
        QString problem;
        int given = -1;
        const auto answer = AnswerBody::read(body.toStdString(), QStringLiteral("c1"), &given, &problem);
        QCOMPARE(problem, message);
        QCOMPARE(answer.has_value(), message.isEmpty());
        if (answer)
            QCOMPARE(given, attempt);
    }
};

QTEST_GUILESS_MAIN(TstProgrammaticRequest)
#include "tst_programmaticrequest.moc"
