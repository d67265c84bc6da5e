// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// PythonEnv (per-project venv + pip install) and the Project dock's load problems
// (issue 6 "Frontmatter and dependencies"). No network here: the installable
// requirement is a wheel built by the test from a zip file; pip installs a local
// wheel path offline. The failing install sets PIP_NO_INDEX=1 (test only) so pip
// does not wait for an unreachable index.
#include "clirunner.h"
#include "project/project.h"
#include "python/pythonenv.h"
#include "python/toolworker.h"
#include "trustedproject.h"
#include "ui/mainwindow.h"
#include "ui/projectpanel.h"
#include "ui/requirementsinstalldialog.h"
#include "ui/toolproblemsview.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using nlohmann::json;

namespace {

constexpr int InstallTimeoutMs = 120000; // venv creation + pip on a loaded 2-core machine

void writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

/// tsdemomod-1.0-py3-none-any.whl in `dir`: a module with VALUE = 42.
QString buildWheel(const QString &dir)
{
    const QString wheel = dir + QStringLiteral("/tsdemomod-1.0-py3-none-any.whl");
    const QString script = QStringLiteral(
        "import sys, zipfile\n"
        "with zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
        "    z.writestr('tsdemomod/__init__.py', 'VALUE = 42\\n')\n"
        "    z.writestr('tsdemomod-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: tsdemomod\\nVersion: 1.0\\n')\n"
        "    z.writestr('tsdemomod-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\n"
        "Root-Is-Purelib: true\\nTag: py3-none-any\\n')\n"
        "    z.writestr('tsdemomod-1.0.dist-info/RECORD', '')\n");
    QProcess python;
    python.start(QStringLiteral("python3"), {QStringLiteral("-c"), script, wheel});
    if (!python.waitForFinished(20000) || python.exitCode() != 0)
        return {};
    return wheel;
}

/// A project with tools/needs.py (imports `module`, requirements: `requirements`)
/// and tools/plain.py (standard library only).
void writeProject(const QString &dir, const QString &module, const QString &requirements)
{
    writeFile(dir + QStringLiteral("/toolstudio.json"), "{\"name\": \"env\", \"tools\": []}\n");
    writeFile(dir + QStringLiteral("/tools/needs.py"),
              QStringLiteral("\"\"\"\ntitle: Needs\nrequirements: %1\n\"\"\"\nimport %2\n\n"
                             "class Tools:\n    def demo_value(self) -> int:\n        \"\"\"The module's VALUE.\"\"\"\n"
                             "        return %2.VALUE\n")
                  .arg(requirements, module)
                  .toUtf8());
    writeFile(
        dir + QStringLiteral("/tools/plain.py"),
        "class Tools:\n    def echo(self, text: str) -> str:\n        \"\"\"Echoes.\"\"\"\n        return text\n");
}

QStringList toolNames(const Project &project)
{
    QStringList names;
    for (const Tool &tool : project.tools)
        names << tool.name;
    return names;
}

} // namespace

class TestPythonEnv : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void requirementsOf()
    {
        PythonToolFile file;
        file.frontmatter = json{{"requirements", " requests, beautifulsoup4>=4.12 ,, "}};
        QCOMPARE(PythonEnv::requirementsOf(file),
                 (QStringList{QStringLiteral("requests"), QStringLiteral("beautifulsoup4>=4.12")}));
        QCOMPARE(PythonEnv::requirementsOf(PythonToolFile{}), QStringList());
    }

    /// Issue 17: a tool's warnings (Tool::warnings) are on its row in the Project dock,
    /// an icon and the sentences in the tooltip; a tool without any has neither.
    void toolWarningsShownInProjectDock()
    {
        Project project;
        Tool warned;
        warned.name = QStringLiteral("tree");
        warned.handler = HandlerKind::Python;
        warned.description = QStringLiteral("Counts folders.");
        warned.warnings = {QStringLiteral("parameter 'extra': an untyped list"), QStringLiteral("no docstring")};
        Tool plain;
        plain.name = QStringLiteral("plain");
        plain.handler = HandlerKind::Python;
        project.tools = {warned, plain};
        ProjectPanel panel;
        panel.setProject(&project);
        auto *view = panel.findChild<QTreeView *>(QStringLiteral("toolView"));
        QVERIFY(view);
        const QAbstractItemModel *model = view->model();
        QCOMPARE(model->rowCount(), 2);
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex name = model->index(row, 0);
            const QModelIndex handler = model->index(row, 1);
            if (name.data().toString() == QLatin1String("tree")) {
                QCOMPARE(handler.data(Qt::ToolTipRole).toString(),
                         QStringLiteral("Warnings:\n• parameter 'extra': an untyped list\n• no docstring"));
                QCOMPARE(name.data(Qt::ToolTipRole).toString(),
                         QStringLiteral("Counts folders.\n\nWarnings:\n• parameter 'extra': an untyped list\n• "
                                        "no docstring"));
                QVERIFY(!handler.data(Qt::DecorationRole).value<QIcon>().isNull());
            } else {
                QCOMPARE(handler.data(Qt::ToolTipRole).toString(), QString());
                QVERIFY(handler.data(Qt::DecorationRole).value<QIcon>().isNull());
            }
        }
    }

    void problemShownInProjectDock()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), QStringLiteral("ts_absent_module"), QStringLiteral("ts-absent-module"));
        ProjectError error;
        const std::optional<Project> project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(toolNames(*project), QStringList{QStringLiteral("echo")}); // the other file keeps working

        ProjectPanel panel;
        panel.setProject(&*project);
        auto *list = panel.findChild<QListWidget *>(QStringLiteral("toolProblems"));
        QVERIFY(list);
        QCOMPARE(list->count(), 1);
        const QString expected = QStringLiteral(
            "tools/needs.py: the module 'ts_absent_module' is not installed for the tool worker's Python "
            "(/usr/bin/python3); the file's requirements: line says: ts-absent-module");
        QCOMPARE(list->item(0)->text(), expected);
        QCOMPARE(list->item(0)->toolTip(), expected);
        QVERIFY(!panel.problemsView()->isHidden());
        QVERIFY(!panel.problemsView()->installButton()->isHidden());

        // A reload without problems empties and hides it.
        QFile::remove(dir.path() + QStringLiteral("/tools/needs.py"));
        const std::optional<Project> fixed = loadTrusted(dir.path(), &error);
        QVERIFY(fixed);
        panel.setProject(&*fixed);
        QCOMPARE(list->count(), 0);
        QVERIFY(panel.problemsView()->isHidden());
    }

    void installFromLocalWheelThenToolLoads()
    {
        QTemporaryDir dir;
        const QString wheel = buildWheel(dir.path());
        QVERIFY(!wheel.isEmpty());
        const QString projectDir = dir.path() + QStringLiteral("/project");
        writeProject(projectDir, QStringLiteral("tsdemomod"), wheel);
        ProjectError error;
        std::optional<Project> project = loadTrusted(projectDir, &error);
        QVERIFY(project);
        QCOMPARE(project->problems().size(), 1);
        const PythonToolFile &needs = project->pythonFiles.front().path == QLatin1String("tools/needs.py")
            ? project->pythonFiles.front()
            : project->pythonFiles.back();
        QCOMPARE(needs.missingModule, QStringLiteral("tsdemomod"));
        QCOMPARE(PythonEnv::requirementsOf(needs), QStringList{wheel});

        RequirementsInstallDialog dialog(projectDir, PythonEnv::requirementsOf(needs));
        QSignalSpy done(&dialog, &RequirementsInstallDialog::installDone);
        dialog.start();
        QVERIFY(done.wait(InstallTimeoutMs));
        QVERIFY2(done.first().first().toBool(), qPrintable(dialog.errorText()));
        QVERIFY(dialog.outputView()->toPlainText().contains(QStringLiteral("Successfully installed tsdemomod-1.0")));
        QVERIFY(QFileInfo(projectDir + QStringLiteral("/.toolstudio/venv/bin/python3")).isExecutable());
        QCOMPARE(ToolWorker::pythonFor(projectDir), projectDir + QStringLiteral("/.toolstudio/venv/bin/python3"));

        project = loadTrusted(projectDir, &error);
        QVERIFY(project);
        QCOMPARE(project->problems(), QStringList());
        QCOMPARE(toolNames(*project), (QStringList{QStringLiteral("demo_value"), QStringLiteral("echo")}));
        json reply;
        QSignalSpy replied(this, &TestPythonEnv::gotReply);
        ToolWorker::forProject(projectDir)
            ->invoke(json{{"tool", "demo_value"}, {"args", json::object()}}, [this, &reply](const json &r) {
                reply = r;
                Q_EMIT gotReply();
            });
        QVERIFY(replied.wait(20000));
        QCOMPARE(QByteArray::fromStdString(reply.value("value", json()).dump()), QByteArray("42"));
        ToolWorker::forProject(projectDir)->stop();
    }

    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8()); // the window's settings and secrets
    }

    void installButtonInstallsAndTheWindowReloads()
    {
        QTemporaryDir dir;
        const QString wheel = buildWheel(dir.path());
        QVERIFY(!wheel.isEmpty());
        const QString projectDir = dir.path() + QStringLiteral("/project");
        writeProject(projectDir, QStringLiteral("tsdemomod"), wheel);
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QVERIFY(openTrusted(window, projectDir));
        ProjectPanel &panel = *window.projectPanel();
        QCOMPARE(panel.problemsView()->list()->count(), 1);
        QCOMPARE(panel.toolModel()->rowCount(), 1);
        QSignalSpy installed(&panel, &ProjectPanel::requirementsInstalled);
        QString question;
        // Answers the confirmation (modal), then lets the progress dialog run to its end.
        QTimer::singleShot(0, this, [&question] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            question = box->text();
            box->button(QMessageBox::Yes)->click();
        });
        panel.problemsView()->installButton()->click();
        QCOMPARE(question,
                 QStringLiteral("tools/needs.py needs the module 'tsdemomod'. Create the project's virtual "
                                "environment (.toolstudio/venv) and run pip install for:\n\n%1\n\n"
                                "pip downloads from the package index, or installs the local paths given.")
                     .arg(wheel));
        QCOMPARE(installed.count(), 1);
        // The window loaded the project again (its tool files anew: the venv changed):
        // no problem left, demo_value is a tool.
        QVERIFY(waitForPythonTools(window));
        QCOMPARE(panel.problemsView()->list()->count(), 0);
        QVERIFY(panel.problemsView()->isHidden());
        QCOMPARE(panel.toolModel()->rowCount(), 2);
        ToolWorker::forProject(projectDir)->stop();
    }

    void failingInstallReportsPipAndChangesNothing()
    {
        qputenv("PIP_NO_INDEX", "1"); // no index here; without it pip retries an unreachable one
        QTemporaryDir dir;
        writeProject(dir.path(), QStringLiteral("ts_absent_module"), QStringLiteral("ts-no-such-package-xyz"));
        ProjectError error;
        const std::optional<Project> before = loadTrusted(dir.path(), &error);
        QVERIFY(before);

        RequirementsInstallDialog dialog(dir.path(), {QStringLiteral("ts-no-such-package-xyz")});
        QSignalSpy done(&dialog, &RequirementsInstallDialog::installDone);
        dialog.start();
        QVERIFY(done.wait(InstallTimeoutMs));
        QCOMPARE(done.first().at(0).toBool(), false);
        const QString message = dialog.errorText();
        // The dialog stays open with pip's message above the output.
        QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("installStatus"))->text(),
                 QStringLiteral("The install failed; the project loads as before.\n") + message);
        QVERIFY(dialog.outputView()->toPlainText().contains(QStringLiteral("-m pip install ts-no-such-package-xyz")));
        QVERIFY2(message.startsWith(QStringLiteral("pip install failed (exit status 1):\n")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("ERROR: No matching distribution found for ts-no-such-package-xyz")),
                 qPrintable(message));
        QVERIFY(!QFileInfo::exists(PythonEnv::venvDir(dir.path()))); // the venv it created is gone

        const std::optional<Project> after = loadTrusted(dir.path(), &error);
        QVERIFY(after);
        QCOMPARE(after->problems(), before->problems());
        QCOMPARE(toolNames(*after), QStringList{QStringLiteral("echo")});
        qunsetenv("PIP_NO_INDEX");
    }

    void headlessInstallRequirements()
    {
        const QString binary = qEnvironmentVariable("TOOLSTUDIO_BINARY");
        if (binary.isEmpty())
            QSKIP("TOOLSTUDIO_BINARY is not set (run through ctest)");
        QTemporaryDir dir;
        const QString wheel = buildWheel(dir.path());
        QVERIFY(!wheel.isEmpty());
        const QString projectDir = dir.path() + QStringLiteral("/project");
        writeProject(projectDir, QStringLiteral("tsdemomod"), wheel);

        QProcess cli;
        cli.start(binary, withTrust({QStringLiteral("tools"), QStringLiteral("install-requirements"), projectDir}));
        QVERIFY(cli.waitForFinished(InstallTimeoutMs));
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(cli.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.startsWith(QStringLiteral("installing into %1/.toolstudio/venv: %2\n").arg(projectDir, wheel)),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("Successfully installed tsdemomod-1.0")), qPrintable(err));

        cli.start(binary, withTrust({QStringLiteral("tools"), QStringLiteral("list"), projectDir}));
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(QString::fromUtf8(cli.readAllStandardOutput()),
                 QStringLiteral("demo_value\tpython\ttools/needs.py\necho\tpython\ttools/plain.py\n"));
        QCOMPARE(QString::fromUtf8(cli.readAllStandardError()), QString());

        // Nothing left to install: exit 0 and says so.
        cli.start(binary, withTrust({QStringLiteral("tools"), QStringLiteral("install-requirements"), projectDir}));
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(cli.readAllStandardError()),
                 QStringLiteral("nothing to install: no tool file names a requirement for a missing module\n"));
    }

    void cancelRemovesTheVenvItCreated()
    {
        QTemporaryDir dir;
        PythonEnv env(dir.path());
        QSignalSpy finished(&env, &PythonEnv::finished);
        env.install({QStringLiteral("anything")});
        QVERIFY(env.isRunning()); // creating the venv
        QTest::qWait(300);
        env.cancel();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("the install was cancelled"));
        QVERIFY(!QFileInfo::exists(PythonEnv::venvDir(dir.path())));
        QVERIFY(QFileInfo::exists(dir.path() + QStringLiteral("/.toolstudio")));
    }

    /// The install runs a package's build step (a PEP 517 backend from the sdist, as a
    /// setup.py would run): confined like the tool worker. The backend tries to read a
    /// key in the studio's $HOME and to write beside it and into a world-writable folder
    /// (so as root only Landlock, not the file modes, stands in the way), and records
    /// what happened and whether a studio variable reached it in the module it builds.
    /// The install works; every attempt was refused; nothing was written.
    void buildStepIsConfined()
    {
        QTemporaryDir dir;
        const QString home = dir.filePath(QStringLiteral("home"));
        const QString outside = dir.filePath(QStringLiteral("outside"));
        writeFile(home + QStringLiteral("/.ssh/id_rsa"), "-----BEGIN FAKE KEY-----\n");
        QDir().mkpath(outside);
        for (const QString &path : {dir.path(), home, home + QStringLiteral("/.ssh")})
            QFile::setPermissions(path, QFileDevice::Permissions(0x7755));
        QFile::setPermissions(outside, QFileDevice::Permissions(0x7777));
        QFile::setPermissions(home + QStringLiteral("/.ssh/id_rsa"), QFileDevice::Permissions(0x6644));
        const QStringList targets{home + QStringLiteral("/pwned"), outside + QStringLiteral("/pwned")};
        const QString projectDir = dir.filePath(QStringLiteral("project"));
        writeFile(projectDir + QStringLiteral("/toolstudio.json"), "{\"name\": \"env\", \"tools\": []}\n");

        const QString backend
            = QStringLiteral(
                  "import base64, hashlib, os, zipfile\n"
                  "def _try(action):\n"
                  "    try:\n"
                  "        action()\n"
                  "        return 'allowed'\n"
                  "    except OSError as e:\n"
                  "        return type(e).__name__\n"
                  "def _write(path):\n"
                  "    with open(path, 'w') as f:\n"
                  "        f.write('pwned')\n"
                  "def get_requires_for_build_wheel(config_settings=None):\n"
                  "    return []\n"
                  "def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):\n"
                  "    read = _try(lambda: open(%1).read())\n"
                  "    writes = [_try(lambda p=p: _write(p)) for p in %2]\n"
                  "    leaked = 'TS_STUDIO_ONLY' in os.environ\n"
                  "    files = {'tsprobe.py': 'READ = %r\\nWRITES = %r\\nLEAKED = %r\\n' % (read, writes, leaked),\n"
                  "             'tsprobe-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\\nName: tsprobe\\nVersion: 1.0\\n',\n"
                  "             'tsprobe-1.0.dist-info/WHEEL': 'Wheel-Version: 1.0\\nGenerator: test\\n'\n"
                  "                                            'Root-Is-Purelib: true\\nTag: py3-none-any\\n'}\n"
                  "    name = 'tsprobe-1.0-py3-none-any.whl'\n"
                  "    record = []\n"
                  "    with zipfile.ZipFile(os.path.join(wheel_directory, name), 'w') as z:\n"
                  "        for path, text in files.items():\n"
                  "            data = text.encode()\n"
                  "            z.writestr(path, data)\n"
                  "            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()\n"
                  "            record.append('%s,sha256=%s,%d' % (path, digest, len(data)))\n"
                  "        record.append('tsprobe-1.0.dist-info/RECORD,,')\n"
                  "        z.writestr('tsprobe-1.0.dist-info/RECORD', '\\n'.join(record) + '\\n')\n"
                  "    return name\n")
                  .arg(QString::fromStdString(json((home + QStringLiteral("/.ssh/id_rsa")).toStdString()).dump()),
                       QString::fromStdString(
                           json(std::vector<std::string>{targets[0].toStdString(), targets[1].toStdString()}).dump()));
        // The sdist beside the project, in a folder only root may enter when the studio
        // is root: handed to the sandbox user as a copy.
        const QString sdist = dir.filePath(QStringLiteral("private/tsprobe-1.0.tar.gz"));
        QDir().mkpath(QFileInfo(sdist).absolutePath());
        QProcess python;
        python.start(QStringLiteral("python3"),
                     {QStringLiteral("-c"),
                      QStringLiteral("import io, sys, tarfile\n"
                                     "files = {'tsbackend.py': sys.argv[2],\n"
                                     "         'pyproject.toml': '[build-system]\\nrequires = []\\n'\n"
                                     "             'build-backend = \"tsbackend\"\\nbackend-path = [\".\"]\\n',\n"
                                     "         'PKG-INFO': 'Metadata-Version: 2.1\\nName: tsprobe\\nVersion: 1.0\\n'}\n"
                                     "with tarfile.open(sys.argv[1], 'w:gz') as t:\n"
                                     "    for name, text in files.items():\n"
                                     "        data = text.encode()\n"
                                     "        info = tarfile.TarInfo('tsprobe-1.0/' + name)\n"
                                     "        info.size = len(data)\n"
                                     "        t.addfile(info, io.BytesIO(data))\n"),
                      sdist, backend});
        QVERIFY(python.waitForFinished(20000) && python.exitCode() == 0);
        QFile::setPermissions(QFileInfo(sdist).absolutePath(), QFileDevice::Permissions(0x7700));

        qputenv("PIP_NO_INDEX", "1"); // offline: the sdist is all there is
        qputenv("TS_STUDIO_ONLY", "1");
        PythonEnv env(projectDir);
        QString text;
        connect(&env, &PythonEnv::output, this, [&text](const QString &chunk) { text += chunk; });
        QSignalSpy done(&env, &PythonEnv::finished);
        env.install({sdist});
        const bool finished = done.wait(InstallTimeoutMs);
        qunsetenv("PIP_NO_INDEX");
        qunsetenv("TS_STUDIO_ONLY");
        QVERIFY(finished);
        QVERIFY2(done.first().first().toBool(), qPrintable(done.first().at(1).toString() + QLatin1Char('\n') + text));
        QVERIFY2(text.contains(QStringLiteral("Successfully installed tsprobe-1.0")), qPrintable(text));

        QDirIterator it(PythonEnv::venvDir(projectDir), {QStringLiteral("tsprobe.py")}, QDir::Files,
                        QDirIterator::Subdirectories);
        QVERIFY(it.hasNext());
        QFile probe(it.next());
        QVERIFY(probe.open(QIODevice::ReadOnly));
        QCOMPARE(probe.readAll(),
                 QByteArray("READ = 'PermissionError'\nWRITES = ['PermissionError', 'PermissionError']\n"
                            "LEAKED = False\n"));
        for (const QString &target : targets)
            QVERIFY2(!QFileInfo::exists(target), qPrintable(target));
        ToolWorker::forProject(projectDir)->stop();
    }

    void noRequirementsIsRefused()
    {
        QTemporaryDir dir;
        PythonEnv env(dir.path());
        QSignalSpy finished(&env, &PythonEnv::finished);
        env.install({});
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(1).toString(),
                 QStringLiteral("nothing to install: the file has no requirements: line"));
        QVERIFY(!QFileInfo::exists(dir.path() + QStringLiteral("/.toolstudio")));
    }

Q_SIGNALS:
    void gotReply();

private:
    QTemporaryDir m_config;
};

QTEST_MAIN(TestPythonEnv)
#include "tst_pythonenv.moc"
