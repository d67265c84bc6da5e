// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio init` and `toolstudio help` as a newcomer types them (issue 20): a
// project from each template runs to completion at once; help lists every command.

#include "clirunner.h"
#include "project/projecttemplates.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestInitCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { isolateConfigDir(); }

    void templateRuns_data()
    {
        QTest::addColumn<QString>("templateName");
        QTest::addColumn<QStringList>("runArguments"); ///< after PROJECT; %1 = the project folder
        QTest::addColumn<QByteArrayList>("output");
        QTest::newRow("empty") << "empty" << QStringList() << QByteArrayList{"Hello from Tool Studio\n"};
        QTest::newRow("python-tool") << "python-tool" << QStringList()
                                     << QByteArrayList{"words: 4\n", "HELLO HELLO\n",
                                                       "[step 1] count_words succeeded (attempts 1/3"};
        QTest::newRow("exchange-rate") << "exchange-rate" << QStringList()
                                       << QByteArrayList{"100 USD = 92.0 EUR\n",
                                                         "[step 1] get_exchange_rate succeeded (attempts 1/3"};
        QTest::newRow("customer-seats") << "customer-seats" << QStringList()
                                        << QByteArrayList{"\n30\n", "[step 1] getCustomer succeeded"};
        QTest::newRow("customer-seats node") << "customer-seats" << QStringList{QStringLiteral("node")}
                                             << QByteArrayList{"run ", ": main.js\n", "\n30\n"};
        QTest::newRow("render-report") << "render-report"
                                       << QStringList{QStringLiteral("--answers"), QStringLiteral("%1/answers.json")}
                                       << QByteArrayList{"Report ready: https://reports.example.com/q3-seat-growth\n"};
        QTest::newRow("retries-and-human")
            << "retries-and-human" << QStringList{QStringLiteral("--answers"), QStringLiteral("%1/answers.json")}
            << QByteArrayList{"[step 1] fetch_quote succeeded (attempts 3/3", "12 seats cost 240.0\n",
                              "[step 2] approve_order succeeded", "approved - fine for Q3\n"};
        // The stock agent loop, offline: a mock model's two turns around one tool call.
        QTest::newRow("model-agent") << "model-agent" << QStringList()
                                     << QByteArrayList{
                                            "[step 1] model:scripted succeeded", "[step 2] get_exchange_rate succeeded",
                                            "[step 3] model:scripted succeeded",
                                            "100 EUR is 108.00 USD (rate 1.08).\n2 model turns, 123 + 30 tokens\n"};
        QTest::newRow("model-agent node")
            << "model-agent" << QStringList{QStringLiteral("node")}
            << QByteArrayList{": main.js\n", "100 EUR is 108.00 USD (rate 1.08).\n2 model turns, 123 + 30 tokens\n"};
    }

    /// init, then run without --trust (init trusted it: it is the studio's own files).
    void templateRuns()
    {
        QFETCH(QString, templateName);
        QFETCH(QStringList, runArguments);
        QFETCH(QByteArrayList, output);
        QTemporaryDir scratch;
        const QString dir = scratch.filePath(QStringLiteral("my-project"));
        const CommandResult init
            = toolstudioAsGiven({QStringLiteral("init"), dir, QStringLiteral("--template"), templateName});
        QVERIFY2(init.exitCode == 0, init.out + init.err);
        QVERIFY2(
            init.out.startsWith("Created " + dir.toUtf8() + " from the template '" + templateName.toUtf8() + "': "),
            init.out.constData());
        // Named after its folder.
        QVERIFY(readFile(dir + QStringLiteral("/toolstudio.json")).contains("\"name\": \"my-project\""));
        QStringList arguments{QStringLiteral("run"), dir};
        for (const QString &argument : runArguments)
            arguments.append(argument.contains(QLatin1String("%1")) ? argument.arg(dir) : argument);
        const CommandResult run = toolstudioAsGiven(arguments);
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        for (const QByteArray &line : output)
            QVERIFY2(run.out.contains(line), (line + " not in:\n" + run.out).constData());
        QVERIFY2(run.out.contains(" completed in "), run.out.constData());
    }

    void listsTemplates()
    {
        const CommandResult result = toolstudioAsGiven({QStringLiteral("init"), QStringLiteral("--list")});
        QCOMPARE(result.exitCode, 0);
        const QList<QByteArray> lines = result.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 7);
        QCOMPARE(lines.at(0),
                 QByteArray("empty              A manifest with no tools and a script that prints a line: add your "
                            "own tools."));
        QVERIFY(lines.at(5).startsWith("retries-and-human  A flaky mock tool that fails twice"));
        QVERIFY(lines.at(6).startsWith("model-agent        The stock agent loop: a scripted mock model"));
    }

    /// A folder with a manifest is refused, and nothing of it changes.
    void refusesAProject()
    {
        QTemporaryDir scratch;
        QFile manifest(scratch.filePath(QStringLiteral("toolstudio.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\"name\": \"mine\"}\n");
        manifest.close();
        const CommandResult result = toolstudioAsGiven(
            {QStringLiteral("init"), scratch.path(), QStringLiteral("--template"), QStringLiteral("exchange-rate")});
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.err,
                 "toolstudio init: " + scratch.path().toUtf8()
                     + " is a project already (it has a toolstudio.json); nothing was written. Open it, or choose an "
                       "empty folder or a new one.\n");
        QCOMPARE(readFile(manifest.fileName()), QByteArray("{\"name\": \"mine\"}\n"));
        QVERIFY(!QFileInfo::exists(scratch.filePath(QStringLiteral("scripts"))));
    }

    /// A file the template would write is never overwritten: nothing is written.
    void refusesToOverwrite()
    {
        QTemporaryDir scratch;
        QDir().mkpath(scratch.filePath(QStringLiteral("scripts")));
        QFile script(scratch.filePath(QStringLiteral("scripts/main.py")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("print('mine')\n");
        script.close();
        const CommandResult result = toolstudioAsGiven({QStringLiteral("init"), scratch.path()});
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.err,
                 "toolstudio init: " + scratch.path().toUtf8()
                     + " has scripts/main.py already; nothing was written (a new project never overwrites "
                       "a file). Choose an empty folder or a new one.\n");
        QCOMPARE(readFile(script.fileName()), QByteArray("print('mine')\n"));
        QVERIFY(!QFileInfo::exists(scratch.filePath(QStringLiteral("toolstudio.json"))));
    }

    void refusesAnUnknownTemplate()
    {
        QTemporaryDir scratch;
        const CommandResult result = toolstudioAsGiven({QStringLiteral("init"), scratch.filePath(QStringLiteral("p")),
                                                        QStringLiteral("--template"), QStringLiteral("exchange")});
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.err,
                 QByteArray("toolstudio init: no template called 'exchange' (templates: empty, "
                            "python-tool, exchange-rate, customer-seats, render-report, "
                            "retries-and-human, model-agent)\n"));
        QVERIFY(!QFileInfo::exists(scratch.filePath(QStringLiteral("p"))));
    }

    void help_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArrayList>("lines"); ///< whole lines of stdout (or stderr when exit 2)
        QTest::newRow("help run") << QStringList{QStringLiteral("help"), QStringLiteral("run")} << 0
                                  << QByteArrayList{"usage: toolstudio run [options] PROJECT [SCRIPT]",
                                                    "  --answers <FILE>    Answers for manual calls: a JSON object "
                                                    "keyed by tool"};
        QTest::newRow("help init") << QStringList{QStringLiteral("help"), QStringLiteral("init")} << 0
                                   << QByteArrayList{"usage: toolstudio init [options] DIR",
                                                     "  --list             List the templates and exit."};
        QTest::newRow("help tools") << QStringList{QStringLiteral("help"), QStringLiteral("tools")} << 0
                                    << QByteArrayList{"usage: toolstudio tools list PROJECT"};
        QTest::newRow("help trace") << QStringList{QStringLiteral("help"), QStringLiteral("trace")} << 0
                                    << QByteArrayList{"usage: toolstudio trace [options] export PROJECT RUN"};
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << 0
                                << QByteArrayList{
                                       "usage: toolstudio [PROJECT]                 open the window (on "
                                       "PROJECT)",
                                       "Commands: init, run, runs, replay, resume, answer, chat, serve, mcp, "
                                       "tools, trace, trust",
                                       "── toolstudio init ──",
                                       "── toolstudio trust ──",
                                       "usage: toolstudio serve [options] PROJECT",
                                       "usage: toolstudio answer [options] PROJECT RUN CALL_ID"};
        QTest::newRow("help") << QStringList{QStringLiteral("help")} << 0
                              << QByteArrayList{"── toolstudio run ──", "── toolstudio mcp ──",
                                                "usage: toolstudio runs [options] PROJECT"};
        QTest::newRow("help bogus") << QStringList{QStringLiteral("help"), QStringLiteral("bogus")} << 2
                                    << QByteArrayList{
                                           "toolstudio help: no command called 'bogus' (commands: init, "
                                           "run, runs, replay, resume, answer, chat, serve, mcp, tools, trace, "
                                           "trust)"};
    }

    void help()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QByteArrayList, lines);
        const CommandResult result = toolstudioAsGiven(arguments);
        QCOMPARE(result.exitCode, exitCode);
        const QList<QByteArray> printed = (exitCode == 0 ? result.out : result.err).split('\n');
        for (const QByteArray &line : lines)
            QVERIFY2(printed.contains(line), (line + "\n--- not a line of:\n" + result.out + result.err).constData());
    }

    /// Every command's own --help is what `help` shows of it: one source.
    void helpIsTheCommandsOwn()
    {
        for (const QString &command : {QStringLiteral("run"), QStringLiteral("replay"), QStringLiteral("init")}) {
            const CommandResult own = toolstudioAsGiven({command, QStringLiteral("--help")});
            const CommandResult help = toolstudioAsGiven({QStringLiteral("help"), command});
            QCOMPARE(help.exitCode, 0);
            QCOMPARE(help.out, own.out);
            const CommandResult all = toolstudioAsGiven({QStringLiteral("--help")});
            QVERIFY(all.out.contains(own.out));
        }
    }
};

QTEST_GUILESS_MAIN(TestInitCommand)
#include "tst_initcommand.moc"
