// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// ProjectTrust (docs/sandbox.md "Trust before code runs"): what the fingerprint covers,
// grants and revokes, a corrupt trust file, and the gate (Project::load imports no tool
// file of an untrusted project; RunController::start refuses it).

#include "project/project.h"
#include "project/projecttrust.h"
#include "python/toolworker.h"
#include "run/runcontroller.h"
#include "testfiles.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <sys/stat.h>

namespace {

const QByteArray Manifest
    = "{\"name\": \"t\", \"models\": [{\"name\": \"m\", \"provider\": \"openai-chat\", \"model\": \"x\"}],\n"
      " \"scripts\": [{\"path\": \"scripts/main.py\"}], \"tools\": [\n"
      "  {\"name\": \"lookup\", \"handler\": {\"kind\": \"command\", \"command\": [\"python3\", \"tools/lookup_cmd.py\"]}},\n"
      "  {\"name\": \"ask\", \"handler\": {\"kind\": \"manual\"}}]}";

const QByteArray ToolFile = "import pathlib\n"
                            "pathlib.Path(__file__).with_name('IMPORTED').write_text('top-level code ran')\n"
                            "class Tools:\n"
                            "    def ping(self) -> str:\n"
                            "        return 'pong'\n";

} // namespace

class TstProjectTrust : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString project() const { return m_dir->path(); }

    void writeProject(const QByteArray &manifest = Manifest)
    {
        QVERIFY(writeFile(project() + QStringLiteral("/toolstudio.json"), manifest));
        QVERIFY(writeFile(project() + QStringLiteral("/scripts/main.py"), "print('hi')\n"));
        QVERIFY(writeFile(project() + QStringLiteral("/tools/mark.py"), ToolFile));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        QFile::remove(ProjectTrust::storePath());
        QFile::remove(ProjectTrust::storePath() + QStringLiteral(".bad"));
        m_dir = std::make_unique<QTemporaryDir>();
        writeProject();
    }

    void fingerprintNamesWhatWouldRun()
    {
        const TrustFingerprint fingerprint = ProjectTrust::fingerprint(project());
        QCOMPARE(fingerprint.items.size(), 4);
        QCOMPARE(fingerprint.items.at(0),
                 QStringLiteral("Python interpreter: %1").arg(ToolWorker::pythonFor(project())));
        QCOMPARE(fingerprint.items.at(1), QStringLiteral("Python tool file: tools/mark.py"));
        QCOMPARE(fingerprint.items.at(2),
                 QStringLiteral("command tool 'lookup': [\"python3\",\"tools/lookup_cmd.py\"]"));
        // Where a model's key would go: its provider (and so its default URL), base_url, secret.
        QCOMPARE(fingerprint.items.at(3), QStringLiteral("model 'm': {\"provider\":\"openai-chat\"}"));
        QCOMPARE(fingerprint.hash.size(), 64);
    }

    void fingerprintChanges_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("changes");
        QTest::newRow("a script edit") << "scripts/main.py" << QByteArray("print('changed')\n") << false;
        QTest::newRow("a new script") << "scripts/other.sh" << QByteArray("echo hi\n") << false;
        QTest::newRow("a tool file's content") << "tools/mark.py" << QByteArray("class Tools: pass\n") << false;
        QTest::newRow("a manual tool renamed")
            << "toolstudio.json" << QByteArray(Manifest).replace("\"ask\"", "\"ask2\"") << false;
        QTest::newRow("a new tool file") << "tools/other.py" << QByteArray("class Tools: pass\n") << true;
        QTest::newRow("a command's argv")
            << "toolstudio.json" << QByteArray(Manifest).replace("lookup_cmd.py", "evil.py") << true;
        QTest::newRow("a command tool added")
            << "toolstudio.json"
            << QByteArray(Manifest).replace(
                   "{\"name\": \"ask\", \"handler\": {\"kind\": \"manual\"}}",
                   "{\"name\": \"ask\", \"handler\": {\"kind\": \"command\", \"command\": [\"sh\", \"-c\", \"id\"]}}")
            << true;
        QTest::newRow("an MCP server command")
            << "toolstudio.json"
            << QByteArray(Manifest).replace(
                   "{\"name\": \"t\",",
                   "{\"name\": \"t\", \"mcp_servers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"x\"]}},")
            << true;
        // Where a model's key goes and which key: the provider decides the URL when base_url is not given.
        const QByteArray model = "\"provider\": \"openai-chat\", \"model\": \"x\"";
        QTest::newRow("a model's base_url")
            << "toolstudio.json"
            << QByteArray(Manifest).replace(model, model + ", \"base_url\": \"https://evil.example\"") << true;
        QTest::newRow("a model's provider")
            << "toolstudio.json" << QByteArray(Manifest).replace("openai-chat", "anthropic") << true;
        QTest::newRow("a model's api_key_secret")
            << "toolstudio.json" << QByteArray(Manifest).replace(model, model + ", \"api_key_secret\": \"GH_TOKEN\"")
            << true;
        QTest::newRow("a model's params")
            << "toolstudio.json" << QByteArray(Manifest).replace(model, model + ", \"params\": {\"temperature\": 1}")
            << false;
        QTest::newRow("a model's model id")
            << "toolstudio.json" << QByteArray(Manifest).replace("\"model\": \"x\"", "\"model\": \"y\"") << false;
    }

    void fingerprintChanges()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, text);
        QFETCH(bool, changes);
        const QString before = ProjectTrust::fingerprint(project()).hash;
        QVERIFY(writeFile(project() + QLatin1Char('/') + file, text));
        QCOMPARE(ProjectTrust::fingerprint(project()).hash != before, changes);
    }

    /// A remote MCP server's headers name the secrets sent to its URL: a change asks again.
    void fingerprintCoversMcpHeaders()
    {
        const auto write = [this](const QByteArray &headers) {
            return writeFile(project() + QStringLiteral("/toolstudio.json"),
                             "{\"name\": \"t\", \"mcp_servers\": {\"remote\": {\"url\": \"https://mcp.example/mcp\""
                                 + headers + "}}}");
        };
        QVERIFY(write(""));
        const QString none = ProjectTrust::fingerprint(project()).hash;
        QVERIFY(write(", \"headers\": {\"Authorization\": \"Bearer ${secret:MCP_TOKEN}\"}"));
        const QString token = ProjectTrust::fingerprint(project()).hash;
        QVERIFY(token != none);
        QVERIFY(write(", \"headers\": {\"Authorization\": \"Bearer ${secret:ANTHROPIC_API_KEY}\"}"));
        QVERIFY(ProjectTrust::fingerprint(project()).hash != token);
    }

    void grantRevokeAndList()
    {
        QCOMPARE(ProjectTrust::check(project()).state, ProjectTrust::State::NotTrusted);
        QString error;
        QVERIFY2(ProjectTrust::grant(project(), &error), qPrintable(error));
        QCOMPARE(ProjectTrust::check(project()).state, ProjectTrust::State::Trusted);
        struct stat info
        {};
        QCOMPARE(::stat(QFile::encodeName(ProjectTrust::storePath()).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
        const auto grants = ProjectTrust::grants(&error);
        QCOMPARE(grants.size(), std::size_t(1));
        QCOMPARE(grants.front().dir, ProjectTrust::canonicalDir(project()));
        QCOMPARE(grants.front().items, ProjectTrust::fingerprint(project()).items);

        bool removed = false;
        QVERIFY(ProjectTrust::revoke(project(), &removed, &error));
        QVERIFY(removed);
        QCOMPARE(ProjectTrust::check(project()).state, ProjectTrust::State::NotTrusted);
        QVERIFY(ProjectTrust::revoke(project(), &removed, &error));
        QVERIFY(!removed);
    }

    void changeAsksAgainAndSaysWhat()
    {
        QVERIFY(ProjectTrust::grant(project(), nullptr));
        QVERIFY(writeFile(project() + QStringLiteral("/toolstudio.json"),
                          QByteArray(Manifest).replace("lookup_cmd.py", "evil.py")));
        const ProjectTrust::Check check = ProjectTrust::check(project());
        QCOMPARE(check.state, ProjectTrust::State::Changed);
        QCOMPARE(check.added, QStringList{QStringLiteral("command tool 'lookup': [\"python3\",\"tools/evil.py\"]")});
        QCOMPARE(check.removed,
                 QStringList{QStringLiteral("command tool 'lookup': [\"python3\",\"tools/lookup_cmd.py\"]")});
        const auto project = Project::load(this->project(), nullptr);
        QVERIFY(project);
        QVERIFY(!project->trusted);
    }

    /// The trust check of a load is of the bytes the load parsed, not of the file read
    /// again: a manifest swapped between the two reads was trusted for what it had been
    /// (attack27 F1). Here the file is the granted one, the bytes checked another.
    void checkIsOfTheBytesGiven()
    {
        QVERIFY(ProjectTrust::grant(project(), nullptr));
        const QByteArray changed = QByteArray(Manifest).replace("lookup_cmd.py", "evil.py");
        const ProjectTrust::Check check = ProjectTrust::check(project(), &changed);
        QCOMPARE(check.state, ProjectTrust::State::Changed);
        QCOMPARE(check.added, QStringList{QStringLiteral("command tool 'lookup': [\"python3\",\"tools/evil.py\"]")});
        QVERIFY(ProjectTrust::check(project(), &Manifest).trusted());
        QVERIFY(ProjectTrust::check(project()).trusted()); // the file as granted
    }

    void corruptStoreIsNoGrantAndKeptAside()
    {
        QVERIFY(ProjectTrust::grant(project(), nullptr));
        const QByteArray corrupt = "{\"projects\": {\"/x\": 1";
        QVERIFY(writeFile(ProjectTrust::storePath(), corrupt));
        const ProjectTrust::Check check = ProjectTrust::check(project());
        QCOMPARE(check.state, ProjectTrust::State::NotTrusted);
        QCOMPARE(check.storeError,
                 QStringLiteral("%1: not a valid trust file (expected a JSON object with \"projects\"); no project "
                                "counts as trusted until it is fixed or removed")
                     .arg(ProjectTrust::storePath()));
        QString error, note;
        QVERIFY2(ProjectTrust::grant(project(), &error, &note), qPrintable(error));
        const QString kept = ProjectTrust::storePath() + QStringLiteral(".bad");
        QVERIFY2(note.endsWith(QStringLiteral("it was kept as %1 and a new one written").arg(kept)), qPrintable(note));
        QFile keptFile(kept);
        QVERIFY(keptFile.open(QIODevice::ReadOnly));
        QCOMPARE(keptFile.readAll(), corrupt);
        QCOMPARE(ProjectTrust::check(project()).state, ProjectTrust::State::Trusted);
    }

    void untrustedLoadImportsNoToolFile()
    {
        ProjectError error;
        const auto loaded = Project::load(project(), &error);
        QVERIFY2(loaded, qPrintable(error.toString()));
        QVERIFY(!loaded->trusted);
        QCOMPARE(loaded->pythonFiles.size(), std::size_t(1));
        QCOMPARE(loaded->pythonFiles.front().path, QStringLiteral("tools/mark.py"));
        QCOMPARE(loaded->pythonFiles.front().error, QStringLiteral("not loaded: the project is not trusted"));
        QVERIFY(!loaded->tool(QStringLiteral("ping")));
        QVERIFY(loaded->tool(QStringLiteral("lookup"))); // declared: browsable, not runnable
        QVERIFY(!QFileInfo::exists(project() + QStringLiteral("/tools/IMPORTED")));
        QCOMPARE(loaded->problems(),
                 QStringList{QStringLiteral("tools/mark.py: not loaded: the project is not trusted")});
    }

    void runOfUntrustedProjectIsRefused()
    {
        const auto loaded = Project::load(project(), nullptr);
        QVERIFY(loaded);
        RunController controller;
        QString error;
        QVERIFY(!controller.start(*loaded, QString(), &error));
        QCOMPARE(error, ProjectTrust::untrustedReason(project()));
        QVERIFY(error.contains(QStringLiteral("'toolstudio trust PROJECT' or --trust")));
        QVERIFY(!controller.isActive());
    }
};

QTEST_GUILESS_MAIN(TstProjectTrust)
#include "tst_projecttrust.moc"
