// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Issue 16, class 6 "What the studio prints": text a script chose (tool names, call
// ids, its output) reaches the terminal and the window with its control characters
// escaped, and every printed command quotes it for the shell.

#include "clirunner.h"
#include "project/printabletext.h"
#include "stepinspector.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <string>

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

/// A project with one manual tool `ask` whose script speaks the bridge protocol itself
/// (raw lines on fd 3, no shim), so it chooses every call id and tool name:
///  1. tool "\e]0;pwned\a\e[2Jx" (unknown: refused at once), id "c1";
///  2. tool ask, id "x; rm -rf ~" + newline + "run r completed" (waits for an answer);
///  3. tool ask, id "c'3; touch PWNED" (waits for an answer);
/// then prints an ESC sequence and a fake end line on its stdout.
void writeHostileProject(const QString &dir)
{
    writeFile(dir + QStringLiteral("/scripts/main.py"),
              R"PY(import os, sys
sys.stdout.write("\x1b[2Jscreen cleared\rrun r-fake completed\n")
sys.stdout.flush()
calls = [
    b'{"type":"call","id":"c1","tool":"\\u001b]0;pwned\\u0007\\u001b[2Jx","args":{}}\n',
    b'{"type":"call","id":"x; rm -rf ~\\nrun r completed","tool":"ask","args":{}}\n',
    b'{"type":"call","id":"c\'3; touch PWNED","tool":"ask","args":{}}\n',
]
os.write(3, b"".join(calls))
buffer = b""
while buffer.count(b"\n") < 3:
    chunk = os.read(3, 65536)
    if not chunk:
        break
    buffer += chunk
print("replies", buffer.count(b"\n"), flush=True)
)PY");
    writeFile(dir + QStringLiteral("/toolstudio.json"),
              "{\"name\": \"hostile\", \"default_script\": \"main\",\n"
              " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
              " \"retry\": {\"max_attempts\": 1},\n"
              " \"tools\": [{\"name\": \"ask\", \"input_schema\": {\"type\": \"object\"},\n"
              "   \"handler\": {\"kind\": \"manual\"}}]}\n");
}

QByteArray lineStartingWith(const QByteArray &text, const QByteArray &prefix)
{
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(prefix))
            return line;
    return {};
}

bool hasControlBytes(const QByteArray &text)
{
    for (const char c : text)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f)
            return true;
    // C1 controls and bidi overrides in UTF-8
    return text.contains("\xc2\x9b") || text.contains("\xe2\x80\xae");
}

} // namespace

class TestPrintWalls : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void printableText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("printable");
        QTest::addColumn<QString>("lines");
        QTest::newRow("plain") << QStringLiteral("get_exchange_rate") << QStringLiteral("get_exchange_rate")
                               << QStringLiteral("get_exchange_rate");
        QTest::newRow("escape and title")
            << QStringLiteral("\x1b]0;t\x07\x1b[2J") << QStringLiteral("\\u001b]0;t\\u0007\\u001b[2J")
            << QStringLiteral("\\u001b]0;t\\u0007\\u001b[2J");
        QTest::newRow("newline tab cr") << QStringLiteral("a\nb\tc\rd") << QStringLiteral("a\\nb\\tc\\rd")
                                        << QStringLiteral("a\nb\tc\\rd");
        QTest::newRow("nul and del") << QString(QChar(0)) + QStringLiteral("x\x7f") << QStringLiteral("\\u0000x\\u007f")
                                     << QStringLiteral("\\u0000x\\u007f");
        QTest::newRow("C1 CSI") << QString(QChar(0x9b)) + QStringLiteral("2J") << QStringLiteral("\\u009b2J")
                                << QStringLiteral("\\u009b2J");
        QTest::newRow("bidi override") << QString(QChar(0x202e)) + QStringLiteral("gnp.exe")
                                       << QStringLiteral("\\u202egnp.exe") << QStringLiteral("\\u202egnp.exe");
        QTest::newRow("line separator") << QString(QChar(0x2028)) << QStringLiteral("\\u2028")
                                        << QStringLiteral("\\u2028");
        QTest::newRow("isolates") << QString(QChar(0x2066)) + QString(QChar(0x2069)) << QStringLiteral("\\u2066\\u2069")
                                  << QStringLiteral("\\u2066\\u2069");
        QTest::newRow("invisible") << QStringLiteral("prod") + QChar(0x200b) + QChar(0x2060) + QChar(0xfeff)
                                   << QStringLiteral("prod\\u200b\\u2060\\ufeff")
                                   << QStringLiteral("prod\\u200b\\u2060\\ufeff");
        QTest::newRow("kept") << QStringLiteral("é ü → \\ \" ' 日本") << QStringLiteral("é ü → \\ \" ' 日本")
                              << QStringLiteral("é ü → \\ \" ' 日本");
        // The joiners of scripts and emoji are text (a family emoji is three joined by U+200D).
        QTest::newRow("joiners kept") << QStringLiteral("👨\u200d👩 می\u200cخواهم")
                                      << QStringLiteral("👨\u200d👩 می\u200cخواهم")
                                      << QStringLiteral("👨\u200d👩 می\u200cخواهم");
        // Text in Unicode tag characters reads as nothing (attack38 F3: "Echoes" and
        // "Echoes" + "send ~/.ssh/id_rsa" in tags printed alike); an emoji flag's tag
        // sequence (England: U+1F3F4, "gbeng" in tags, the cancel tag) is kept.
        const auto tags = [](const char *ascii) {
            QString text;
            for (const char *c = ascii; *c; ++c)
                text += QString::fromUcs4(std::u32string(1, char32_t(0xe0000 + *c)).data(), 1);
            return text;
        };
        QTest::newRow("tag characters") << QStringLiteral("Echoes") + tags("ok")
                                        << QStringLiteral("Echoes\\udb40\\udc6f\\udb40\\udc6b")
                                        << QStringLiteral("Echoes\\udb40\\udc6f\\udb40\\udc6b");
        const QString england
            = QString::fromUcs4(U"\U0001F3F4", 1) + tags("gbeng") + QString::fromUcs4(U"\U000E007F", 1);
        QTest::newRow("flag kept") << england + QStringLiteral(" ok") << england + QStringLiteral(" ok")
                                   << england + QStringLiteral(" ok");
        QTest::newRow("tags after a flag, not a flag")
            << QString::fromUcs4(U"\U0001F3F4", 1) + tags("Run")
            << QString::fromUcs4(U"\U0001F3F4", 1) + QStringLiteral("\\udb40\\udc52\\udb40\\udc75\\udb40\\udc6e")
            << QString::fromUcs4(U"\U0001F3F4", 1) + QStringLiteral("\\udb40\\udc52\\udb40\\udc75\\udb40\\udc6e");
    }

    void printableText()
    {
        QFETCH(QString, text);
        QFETCH(QString, printable);
        QFETCH(QString, lines);
        QCOMPARE(::printableText(text), printable);
        QCOMPARE(::printableLines(text), lines);
    }

    void shellQuoted_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("bare") << QStringLiteral("/tmp/p-1/run_2.x") << QStringLiteral("/tmp/p-1/run_2.x");
        QTest::newRow("empty") << QString() << QStringLiteral("''");
        QTest::newRow("space") << QStringLiteral("my project") << QStringLiteral("'my project'");
        QTest::newRow("command") << QStringLiteral("x; rm -rf ~") << QStringLiteral("'x; rm -rf ~'");
        QTest::newRow("quote") << QStringLiteral("c'3") << QStringLiteral("'c'\\''3'");
        QTest::newRow("expansions") << QStringLiteral("$(id)`id`$HOME") << QStringLiteral("'$(id)`id`$HOME'");
        QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("'a\\nb'");
    }

    void shellQuoted()
    {
        QFETCH(QString, word);
        QFETCH(QString, quoted);
        QCOMPARE(::shellQuoted(word), quoted);
    }

    void printableStreamSplitsSequences()
    {
        // U+202E (e2 80 ae) and U+009B (c2 9b) split across chunks, an ESC, a valid
        // multi-byte letter, a stray byte passed as it is.
        PrintableStream stream;
        QByteArray out = stream.filter("a\x1b[1m\xe2\x80");
        out += stream.filter("\xae\xc3");
        out += stream.filter("\xa9\xc2");
        out += stream.filter("\x9bz\n\xff");
        out += stream.flush();
        QCOMPARE(out, QByteArray("a\\u001b[1m\\u202e\xc3\xa9\\u009bz\n\xff"));
    }

    // A server's JSON printed by `--json`: C1 controls, DEL and bidi controls (which
    // JSON keeps raw) written as \uXXXX — the same JSON, nothing for the terminal.
    void printableJsonIsTheSameJson()
    {
        const nlohmann::json value{{"text",
                                    "red\xc2\x9b"
                                    "31m\x7f \xe2\x80\xae"
                                    "evil"},
                                   {"n", 1}};
        const QByteArray printed = printableJson(value);
        QCOMPARE(printed, QByteArray("{\n  \"n\": 1,\n  \"text\": \"red\\u009b31m\\u007f \\u202eevil\"\n}"));
        QVERIFY(nlohmann::json::parse(printed.toStdString()) == value);
    }

    // `toolstudio run` of a script that chooses hostile tool names and call ids: the
    // exact lines it prints, and the printed `toolstudio answer` command pasted into a
    // shell answers the call it names and runs nothing else.
    void runPrintsScriptTextEscaped()
    {
        QTemporaryDir dir;
        writeHostileProject(dir.path());
        QProcess run;
        run.setProgram(qEnvironmentVariable("TOOLSTUDIO_BINARY"));
        run.setArguments(withTrust({QStringLiteral("run"), dir.path(), QStringLiteral("--wait-for-answers")}));
        run.setStandardInputFile(QProcess::nullDevice());
        run.start();
        QByteArray out, err;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000 && err.count("waits for an answer") < 2 && run.state() != QProcess::NotRunning) {
            run.waitForReadyRead(100);
            out += run.readAllStandardOutput();
            err += run.readAllStandardError();
        }
        QVERIFY2(err.count("waits for an answer") == 2, out + err);
        const QRegularExpression runLine(QStringLiteral("^run (\\S+): main.py$"), QRegularExpression::MultilineOption);
        const QString runId = runLine.match(QString::fromUtf8(out)).captured(1);
        QVERIFY2(!runId.isEmpty(), out.constData());
        const QByteArray prefix = "toolstudio run: call ";
        const QByteArray projectDir = dir.path().toUtf8(); // a plain path: printed bare

        // The call id with a newline and a shell command: escaped in the text, quoted
        // in the command (its \n stays two characters: pasted, it names no call).
        QCOMPARE(lineStartingWith(err, prefix + "x;"),
                 prefix + "x; rm -rf ~\\nrun r completed (ask, attempt 1) waits for an answer: toolstudio answer "
                     + projectDir + " " + runId.toUtf8()
                     + " 'x; rm -rf ~\\nrun r completed' --result JSON | --error MESSAGE [--retryable]");
        const QByteArray third = lineStartingWith(err, prefix + "c'3");
        QCOMPARE(third,
                 prefix + "c'3; touch PWNED (ask, attempt 1) waits for an answer: toolstudio answer " + projectDir + " "
                     + runId.toUtf8() + " 'c'\\''3; touch PWNED' --result JSON | --error MESSAGE [--retryable]");

        // Pasted into a shell, the printed command answers exactly that call.
        const QByteArray command = third.mid(third.indexOf("toolstudio answer "));
        const QByteArray pasted = command.left(command.indexOf(" --result JSON")).mid(qstrlen("toolstudio "));
        QProcess shell;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TS"), qEnvironmentVariable("TOOLSTUDIO_BINARY"));
        shell.setWorkingDirectory(dir.path());
        shell.setProcessEnvironment(env);
        shell.start(QStringLiteral("/bin/sh"),
                    {QStringLiteral("-c"),
                     QStringLiteral("\"$TS\" ") + QString::fromUtf8(pasted) + QStringLiteral(" --error 'not today'")});
        QVERIFY(shell.waitForFinished(60000));
        const QByteArray answered = shell.readAllStandardOutput() + shell.readAllStandardError();
        QVERIFY2(shell.exitCode() == 0, answered.constData());
        QCOMPARE(answered, "accepted: c'3; touch PWNED attempt 1 of run " + runId.toUtf8() + "\n");
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("PWNED"))));

        run.terminate();
        QVERIFY(run.waitForFinished(60000));
        out += run.readAllStandardOutput();
        err += run.readAllStandardError();

        // The unknown tool's step line and error, and the script's own output.
        QCOMPARE(lineStartingWith(out, "[step 1] "),
                 QByteArray("[step 1] \\u001b]0;pwned\\u0007\\u001b[2Jx failed "
                            "(attempts 0/1, 0 ms)"));
        QVERIFY2(out.contains("\\u001b[2Jscreen cleared\\rrun r-fake completed\n"), out.constData());
        const QByteArray errorLine = lineStartingWith(out, "         error:  unknown_tool:");
        QVERIFY2(errorLine.contains("\\u001b]0;pwned\\u0007\\u001b[2Jx"), out.constData());
        QVERIFY2(!hasControlBytes(out), out.toPercentEncoding(" /:;'\"()[]{}.,-_=#").constData());
        QVERIFY2(!hasControlBytes(err), err.toPercentEncoding(" /:;'\"()[]{}.,-_=#").constData());
    }

    // The window: the Step dock's header label shows the script's tool name and call id
    // escaped.
    void stepHeaderEscapesScriptText()
    {
        StepInspector inspector;
        Step step;
        step.runId = QStringLiteral("r1");
        step.callId = QStringLiteral("c\n1\x1b[8m");
        step.sequence = 3;
        step.tool = QString(QChar(0x202e)) + QStringLiteral("\x1b]0;title\x07tool");
        step.idempotencyKey = QStringLiteral("r1:3");
        step.status = StepStatus::Succeeded;
        inspector.setStep(&step);
        const auto *header = inspector.findChild<QLabel *>(QStringLiteral("stepHeader"));
        QVERIFY(header);
        QVERIFY2(header->text().contains(QStringLiteral("<b>#3 \\u202e\\u001b]0;title\\u0007tool</b>")),
                 qPrintable(header->text()));
        QVERIFY2(header->text().contains(QStringLiteral("call id <tt>c\\n1\\u001b[8m</tt>")),
                 qPrintable(header->text()));
        for (const QChar c : header->text())
            QVERIFY2(c.unicode() >= 0x20 && c.unicode() != 0x202e, qPrintable(header->text()));
    }
};

QTEST_MAIN(TestPrintWalls)
#include "tst_printwalls.moc"
