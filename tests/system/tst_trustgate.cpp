// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Trust before code runs, headless (docs/sandbox.md "Trust before code runs"): a
// project's Python tool file, whose top-level code leaves a mark, is not imported by
// `tools list`, `run`, `tools export` or `replay` of an untrusted project — each that
// would run code refuses with exit 3 and names --trust and `toolstudio trust` — and is
// after `--trust`; a changed command asks again; `trust --revoke` takes it back.

#include "clirunner.h"
#include "testfiles.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {

const QByteArray Manifest
    = "{\"name\": \"marked\", \"scripts\": [{\"path\": \"scripts/main.py\"}], \"tools\": [{\"name\": \"ask\", \"handler\": {\"kind\": \"manual\"}}]}";

// Its top-level code leaves a file where the tool worker may write (not as root: the
// worker then runs as nobody, which cannot) and a value its tool returns.
const QByteArray ToolFile = "import os, pathlib\n"
                            "MARK = 'top-level code ran'\n"
                            "try:\n"
                            "    data = pathlib.Path(__file__).resolve().parent.parent / '.toolstudio' / 'tool-data'\n"
                            "    (data / 'IMPORTED').write_text(MARK)\n"
                            "except OSError:\n"
                            "    pass\n"
                            "class Tools:\n"
                            "    def ping(self) -> str:\n"
                            "        \"\"\"Says what ran.\"\"\"\n"
                            "        return MARK\n";

} // namespace

class TstTrustGate : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_scratch;
    QString m_project;

    bool marked() const { return QFileInfo::exists(m_project + QStringLiteral("/.toolstudio/tool-data/IMPORTED")); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!toolstudioBinary().isEmpty(), "TOOLSTUDIO_BINARY must name the built toolstudio (CTest sets it)");
        isolateConfigDir();
        m_project = m_scratch.path() + QStringLiteral("/marked");
        QVERIFY(writeFile(m_project + QStringLiteral("/toolstudio.json"), Manifest));
        QVERIFY(writeFile(m_project + QStringLiteral("/scripts/main.py"),
                          "from toolstudio import tools\nprint('pinged:', tools.ping())\n"));
        QVERIFY(writeFile(m_project + QStringLiteral("/tools/mark.py"), ToolFile));
    }

    void untrustedRunsNothingAndSaysHowToTrust()
    {
        const CommandResult list = toolstudioAsGiven({QStringLiteral("tools"), QStringLiteral("list"), m_project});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out, QByteArray("ask\tmanual\ttoolstudio.json\n"));
        QVERIFY2(list.err.contains("warning: tools/mark.py: not loaded: the project is not trusted\n"),
                 list.err.constData());
        QVERIFY2(list.err.contains("(add --trust, or run: toolstudio trust "), list.err.constData());

        const CommandResult run = toolstudioAsGiven({QStringLiteral("run"), m_project});
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.out, QByteArray());
        QVERIFY2(run.err.contains("is not trusted, so none of its code runs"), run.err.constData());
        QVERIFY2(run.err.contains("toolstudio run: what would run:\n  Python interpreter: "), run.err.constData());
        QVERIFY2(run.err.contains("\n  Python tool file: tools/mark.py\n"), run.err.constData());
        QVERIFY2(run.err.contains("toolstudio run: to trust it: add --trust (trusts it and records the grant), or "
                                  "first run: toolstudio trust "),
                 run.err.constData());

        const CommandResult exported = toolstudioAsGiven({QStringLiteral("tools"), QStringLiteral("export"), m_project,
                                                          QStringLiteral("--format"), QStringLiteral("anthropic")});
        QCOMPARE(exported.exitCode, 3);
        QCOMPARE(exported.out, QByteArray());

        // Read-only commands work untrusted.
        const CommandResult runs = toolstudioAsGiven({QStringLiteral("runs"), m_project});
        QCOMPARE(runs.exitCode, 0);
        QVERIFY(!marked());
    }

    void trustFlagRunsAndRecords()
    {
        const CommandResult run = toolstudioAsGiven({QStringLiteral("run"), QStringLiteral("--trust"), m_project});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("pinged: top-level code ran\n"), run.out.constData());
        if (::geteuid() != 0) // as root the worker runs as nobody, which may not write the project
            QVERIFY(marked());

        // Recorded: the next run needs no flag; `trust --list` names the folder.
        QCOMPARE(toolstudioAsGiven({QStringLiteral("run"), m_project}).exitCode, 0);
        const CommandResult list = toolstudioAsGiven({QStringLiteral("trust"), QStringLiteral("--list")});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(list.out.contains(QFileInfo(m_project).canonicalFilePath().toUtf8() + '\t'), list.out.constData());
        QVERIFY2(list.out.contains("\n  Python tool file: tools/mark.py\n"), list.out.constData());
    }

    void changedCommandAsksAgain()
    {
        QByteArray manifest = Manifest;
        manifest.replace("{\"kind\": \"manual\"}", "{\"kind\": \"command\", \"command\": [\"sh\", \"-c\", \"true\"]}");
        QVERIFY(writeFile(m_project + QStringLiteral("/toolstudio.json"), manifest));
        const CommandResult run = toolstudioAsGiven({QStringLiteral("run"), m_project});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("toolstudio run: what would run changed since it was trusted:\n"
                                  "  + command tool 'ask': [\"sh\",\"-c\",\"true\"]\n"),
                 run.err.constData());

        const CommandResult trust = toolstudioAsGiven({QStringLiteral("trust"), m_project});
        QCOMPARE(trust.exitCode, 0);
        QVERIFY2(trust.out.contains("is trusted; its code may run:\n"), trust.out.constData());
        QVERIFY2(trust.out.contains("\n  command tool 'ask': [\"sh\",\"-c\",\"true\"]\n"), trust.out.constData());
        QCOMPARE(toolstudioAsGiven({QStringLiteral("run"), m_project}).exitCode, 0);
    }

    void revokeTakesItBack()
    {
        const CommandResult revoke
            = toolstudioAsGiven({QStringLiteral("trust"), m_project, QStringLiteral("--revoke")});
        QCOMPARE(revoke.exitCode, 0);
        QCOMPARE(revoke.out, QFileInfo(m_project).canonicalFilePath().toUtf8() + " is no longer trusted\n");
        const CommandResult runs = toolstudioAsGiven({QStringLiteral("runs"), m_project});
        const QRegularExpressionMatch id
            = QRegularExpression(QStringLiteral("^(\\S+)"), QRegularExpression::MultilineOption)
                  .match(QString::fromUtf8(runs.out));
        QVERIFY2(id.hasMatch(), runs.out.constData());
        const CommandResult replay = toolstudioAsGiven({QStringLiteral("replay"), m_project, id.captured(1)});
        QCOMPARE(replay.exitCode, 3);
        QVERIFY2(replay.err.contains("toolstudio replay: the project "), replay.err.constData());
        QCOMPARE(toolstudioAsGiven({QStringLiteral("run"), m_project}).exitCode, 3);
    }
};

QTEST_GUILESS_MAIN(TstTrustGate)
#include "tst_trustgate.moc"
