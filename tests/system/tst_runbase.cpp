// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Issue 16, "the run-folder base is trusted without checking it" and the run data's
// privacy and depth: the folder base another user made first, a symlink or an open
// mode, is refused; the launcher takes its policy only from the studio (an inherited
// fd, or a file of its own uid no one else may write) and only for the configured
// sandbox user; a run folder swapped for a symlink mid-run redirects nothing; a chain
// deeper than PATH_MAX is removed and hides no output file; a live run's data is closed
// to a third uid. Runs as root and (tst_runbase_user) as an ordinary user.
#include "asuser.h"
#include "clirunner.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "run/runfolder.h"
#include "run/runsbase.h"
#include "sandboxpolicy.h"
#include "trustedproject.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

/// A uid no one has: stands for "another local user".
constexpr uid_t OtherUid = 12345;
constexpr int Depth = 5000;

bool isRoot()
{
    return ::geteuid() == 0;
}

void writeFile(const QString &path, const QByteArray &data, mode_t mode = 0644)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
    file.close();
    ::chmod(QFile::encodeName(path).constData(), mode);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

mode_t modeOf(const QString &path)
{
    struct stat info = {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_mode & 07777 : mode_t(-1);
}

/// A chain of `depth` directories "d/d/…" below `dirFd`, made through fds (deeper than
/// PATH_MAX); a file at its bottom.
void makeChain(int dirFd, int depth)
{
    int fd = ::fcntl(dirFd, F_DUPFD_CLOEXEC, 0);
    for (int i = 0; i < depth && fd >= 0; ++i) {
        ::mkdirat(fd, "d", 0700);
        const int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        ::close(fd);
        fd = next;
    }
    QVERIFY(fd >= 0);
    const int file = ::openat(fd, "bottom", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    QVERIFY(file >= 0);
    ::close(file);
    ::close(fd);
}

std::optional<Project> makeProject(const QString &dir, const QByteArray &script)
{
    writeFile(dir + QStringLiteral("/scripts/main.py"), script);
    writeFile(dir + QStringLiteral("/toolstudio.json"),
              R"({"name": "t", "default_script": "main", "scripts": [{"name": "main", "path": "scripts/main.py"}],
                  "tools": []})");
    ProjectError error;
    auto project = loadTrusted(dir, &error);
    if (!project)
        qWarning() << error.toString();
    return project;
}

/// `toolstudio-sandbox ARGS` with the policy `json` in a file of mode `mode` (owned by
/// `owner` when root): exit code and stderr.
QPair<int, QByteArray> launchWithPolicyFile(const QByteArray &json, mode_t mode, uid_t owner)
{
    QTemporaryDir dir;
    ::chmod(QFile::encodeName(dir.path()).constData(), 0755);
    const QString file = dir.filePath(QStringLiteral("policy.json"));
    writeFile(file, json, mode);
    if (owner != ::geteuid() && ::chown(QFile::encodeName(file).constData(), owner, owner) != 0)
        return {-1, "chown failed"};
    QProcess launcher;
    launcher.start(qEnvironmentVariable("TOOLSTUDIO_SANDBOX"), {QStringLiteral("--policy"), file});
    launcher.waitForFinished(20000);
    return {launcher.exitCode(), launcher.readAllStandardError()};
}

} // namespace

class TestRunBase : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(QFileInfo(qEnvironmentVariable("TOOLSTUDIO_SANDBOX")).isExecutable());
    }

    // The base `<tmp>/toolstudio-<uid>` as another user may have left it: refused, and
    // the private location used, with a notice naming why.
    void baseRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reason");
        QTest::newRow("owned by another uid")
            << QStringLiteral("other-uid") << QStringLiteral("belongs to uid 12345, not to the studio's uid");
        QTest::newRow("symlink") << QStringLiteral("symlink") << QStringLiteral("is a symlink or not a directory");
        QTest::newRow("group-writable") << QStringLiteral("group-writable")
                                        << QStringLiteral("is writable by group or others (mode 0775)");
        QTest::newRow("runs/ is a symlink")
            << QStringLiteral("runs-symlink") << QStringLiteral("runs is a symlink or not a directory");
    }
    void baseRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, reason);
        if (kind == QLatin1String("other-uid") && !isRoot())
            QSKIP("only root can make a folder owned by another uid (the root run covers this row)");
        QTemporaryDir tmp;
        QTemporaryDir elsewhere; // where a symlink points: must stay untouched
        const QString base = tmp.filePath(QStringLiteral("toolstudio-%1").arg(::geteuid()));
        const QByteArray basePath = QFile::encodeName(base);
        if (kind == QLatin1String("symlink")) {
            QVERIFY(QFile::link(elsewhere.path(), base));
        } else {
            QVERIFY(QDir().mkdir(base));
            if (kind == QLatin1String("other-uid"))
                QCOMPARE(::chown(basePath.constData(), OtherUid, OtherUid), 0);
            if (kind == QLatin1String("group-writable"))
                QCOMPARE(::chmod(basePath.constData(), 0775), 0);
            if (kind == QLatin1String("runs-symlink")) {
                QCOMPARE(::chmod(basePath.constData(), 0700), 0);
                QVERIFY(QFile::link(elsewhere.path(), base + QStringLiteral("/runs")));
            }
        }
        const QString fallback = tmp.filePath(QStringLiteral("private/toolstudio"));
        const RunsBase chosen = RunsBase::choose(tmp.path(), {fallback});
        QCOMPARE(chosen.runsDir,
                 QFileInfo(tmp.path()).canonicalFilePath() + QStringLiteral("/private/toolstudio/runs"));
        QVERIFY2(chosen.notice.startsWith(QStringLiteral("refusing %1 as the run folder base: ").arg(base)),
                 qPrintable(chosen.notice));
        QVERIFY2(chosen.notice.contains(reason), qPrintable(chosen.notice));
        QCOMPARE(modeOf(fallback), mode_t(isRoot() ? 0711 : 0700));
        QCOMPARE(modeOf(chosen.runsDir), mode_t(isRoot() ? 0711 : 0700));
        QCOMPARE(QDir(elsewhere.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());

        // No safe place at all: refused with every reason, nothing used.
        const RunsBase none = RunsBase::choose(tmp.path(), {});
        QVERIFY(none.runsDir.isEmpty());
        QVERIFY2(none.error.startsWith(QStringLiteral("no safe folder for run folders: ")), qPrintable(none.error));
    }

    // End to end: `toolstudio run` with a hostile base in its TMPDIR says so on stderr,
    // runs elsewhere, and leaves nothing in that base.
    void studioRefusesHostileBase()
    {
        QTemporaryDir tmp;
        QTemporaryDir project;
        QTemporaryDir runtime;
        ::chmod(QFile::encodeName(tmp.path()).constData(), 0755);
        ::chmod(QFile::encodeName(project.path()).constData(), 0755);
        QVERIFY(makeProject(project.path(), "print('ran')\n"));
        const QString base = tmp.filePath(QStringLiteral("toolstudio-%1").arg(::geteuid()));
        QVERIFY(QDir().mkdir(base));
        QCOMPARE(::chmod(QFile::encodeName(base).constData(), 0777), 0); // anyone could plant runs/ there
        QProcess studio;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TMPDIR"), tmp.path());
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime.path());
        studio.setProcessEnvironment(environment);
        studio.start(toolstudioBinary(), withTrust({QStringLiteral("run"), project.path()}));
        QVERIFY(studio.waitForFinished(60000));
        const QByteArray err = studio.readAllStandardError();
        QCOMPARE(studio.readAllStandardOutput().contains("ran\n"), true);
        QCOMPARE(studio.exitCode(), 0);
        QVERIFY2(err.contains(QStringLiteral("refusing %1 as the run folder base: %1 is writable by group or others "
                                             "(mode 0777)")
                                  .arg(base)
                                  .toUtf8()),
                 err.constData());
        QCOMPARE(QDir(base).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
    }

    // The launcher takes a policy file only when no one else could have written it.
    void policyFileFromAnotherUser_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("otherOwner");
        QTest::addColumn<QByteArray>("reason");
        QTest::newRow("owned by another uid") << 0644 << true << QByteArray("belongs to uid 12345, not to uid");
        QTest::newRow("writable by others")
            << 0666 << false << QByteArray("is writable by group or others; refusing it");
        QTest::newRow("writable by group")
            << 0660 << false << QByteArray("is writable by group or others; refusing it");
    }
    void policyFileFromAnotherUser()
    {
        QFETCH(int, mode);
        QFETCH(bool, otherOwner);
        QFETCH(QByteArray, reason);
        if (otherOwner && !isRoot())
            QSKIP("only root can make a file owned by another uid (the root run covers this row)");
        QTemporaryDir work;
        ::chmod(QFile::encodeName(work.path()).constData(), 0755);
        const QByteArray json = "{\"work_dir\": \"" + QFile::encodeName(work.path()) + "\", \"argv\": [\"/bin/true\"]}";
        const auto [status, err] = launchWithPolicyFile(json, mode_t(mode), otherOwner ? OtherUid : ::geteuid());
        QCOMPARE(status, SandboxExit::Usage);
        QVERIFY2(err.startsWith("toolstudio-sandbox: usage: the policy file "), err.constData());
        QVERIFY2(err.contains(reason), err.constData());
        // The studio's own way, an fd it hands over, and a file of this uid 0644: accepted.
        const auto [goodStatus, goodErr] = launchWithPolicyFile(json, 0644, ::geteuid());
        QCOMPARE(goodErr, QByteArray());
        QCOMPARE(goodStatus, 0);
    }

    // Whoever wrote the policy, the launcher runs scripts only as the configured user.
    void otherRunAsUserRefused()
    {
        QTemporaryDir work;
        ::chmod(QFile::encodeName(work.path()).constData(), 0755);
        const QByteArray json = "{\"work_dir\": \"" + QFile::encodeName(work.path())
            + "\", \"argv\": [\"/bin/true\"], \"run_as_user\": \"daemon\"}";
        const auto [status, err] = launchWithPolicyFile(json, 0600, ::geteuid());
        QCOMPARE(status, SandboxExit::Usage);
        QCOMPARE(err,
                 QByteArray("toolstudio-sandbox: usage: the policy asks to run as \"daemon\", but this launcher runs "
                            "scripts only as the configured sandbox user \"nobody\" (TOOLSTUDIO_SANDBOX_USER)\n"));
    }

    // As root the launcher gives the work dir away: never through a symlink in its path
    // (a run folder swapped for a link to someone else's tree).
    void launcherNeverChownsThroughASymlink()
    {
        if (!isRoot())
            QSKIP("the launcher hands the work dir over (chown) only when it runs as root");
        QTemporaryDir base;
        ::chmod(QFile::encodeName(base.path()).constData(), 0711);
        QTemporaryDir victim; // root's tree elsewhere, with a work/ of its own
        writeFile(victim.filePath(QStringLiteral("work/keep.txt")), "victim\n");
        QVERIFY(QFile::link(victim.path(), base.filePath(QStringLiteral("run"))));
        const QByteArray json = "{\"work_dir\": \"" + QFile::encodeName(base.filePath(QStringLiteral("run/work")))
            + "\", \"argv\": [\"/bin/true\"]}";
        const auto [status, err] = launchWithPolicyFile(json, 0600, 0);
        QCOMPARE(status, SandboxExit::Credentials);
        QVERIFY2(err.contains("/run is a symlink or not a directory"), err.constData());
        struct stat info = {};
        QCOMPARE(::stat(QFile::encodeName(victim.filePath(QStringLiteral("work/keep.txt"))).constData(), &info), 0);
        QCOMPARE(info.st_uid, uid_t(0));
        QCOMPARE(::stat(QFile::encodeName(victim.filePath(QStringLiteral("work"))).constData(), &info), 0);
        QCOMPARE(info.st_uid, uid_t(0));
    }

    // A live run's folder swapped for a symlink to another tree: the end of the run
    // (copy-out, removal) works on the folder it made, never through the link.
    void swappedRunFolderRedirectsNothing()
    {
        QTemporaryDir project;
        ::chmod(QFile::encodeName(project.path()).constData(), 0755);
        const auto loaded = makeProject(project.path(),
                                        "import time\nopen('out.txt', 'w').write('real')\n"
                                        "open('ready', 'w').close()\ntime.sleep(60)\n");
        QVERIFY(loaded);
        QTemporaryDir victim;
        writeFile(victim.filePath(QStringLiteral("work/keep.txt")), "victim\n");
        writeFile(victim.filePath(QStringLiteral("keep.txt")), "victim\n");
        ::chmod(QFile::encodeName(victim.path()).constData(), 0755);
        RunController controller;
        controller.setJournalPath(project.filePath(QStringLiteral("journal.sqlite")));
        bool done = false;
        connect(&controller, &RunController::finished, this, [&done] { done = true; });
        QString error;
        QVERIFY2(controller.start(*loaded, QString(), &error), qPrintable(error));
        const QString folder = RunFolder::runsDir() + QLatin1Char('/') + controller.record().id;
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(folder + QStringLiteral("/work/ready")), 20000);
        const QString moved = folder + QStringLiteral(".moved");
        QVERIFY(QFile::rename(folder, moved));
        QVERIFY(QFile::link(victim.path(), folder));
        controller.stop();
        QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
        QCOMPARE(QDir(victim.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("keep.txt"), QStringLiteral("work")}));
        QCOMPARE(readFile(victim.filePath(QStringLiteral("work/keep.txt"))), QByteArray("victim\n"));
        QCOMPARE(QDir(victim.filePath(QStringLiteral("work"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("keep.txt")});
        QCOMPARE(modeOf(victim.path()), mode_t(0755));
        // The run's own files went where the run folder really is.
        QCOMPARE(readFile(moved + QStringLiteral("/files-out/out.txt")), QByteArray("real"));
        QFile::remove(folder);
        QDir(moved).removeRecursively();
    }

    // A chain of directories deeper than PATH_MAX left in the work dir: removed with the
    // run, and the run's real output files are kept beside it.
    void deepChainInWorkDir()
    {
        QTemporaryDir project;
        ::chmod(QFile::encodeName(project.path()).constData(), 0755);
        const auto loaded = makeProject(
            project.path(),
            QStringLiteral(
                "import os\nos.makedirs('out')\nopen('out/b.txt', 'w').write('bee')\n"
                "open('result.txt', 'w').write('answer')\n"
                "top = os.open('.', os.O_RDONLY)\nfor i in range(%1):\n    os.mkdir('d')\n    os.chdir('d')\n"
                "open('bottom', 'w').write('deep')\nos.fchdir(top)\nprint('made', flush=True)\n")
                .arg(Depth)
                .toUtf8());
        QVERIFY(loaded);
        RunController controller;
        controller.setJournalPath(project.filePath(QStringLiteral("journal.sqlite")));
        bool done = false;
        connect(&controller, &RunController::finished, this, [&done] { done = true; });
        QString error;
        QVERIFY2(controller.start(*loaded, QString(), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
        QCOMPARE(controller.record().status, RunStatus::Completed);
        const QString folder = RunFolder::runsDir() + QLatin1Char('/') + controller.record().id;
        // The real outputs, and the deep file (it is the script's too), within the caps.
        QStringList names;
        for (const RunFile &file : controller.outputFiles())
            names << file.name;
        QVERIFY(names.contains(QStringLiteral("result.txt")));
        QVERIFY(names.contains(QStringLiteral("out/b.txt")));
        QCOMPARE(readFile(folder + QStringLiteral("/files-out/result.txt")), QByteArray("answer"));
        QCOMPARE(readFile(folder + QStringLiteral("/files-out/out/b.txt")), QByteArray("bee"));
        QCOMPARE(modeOf(folder + QStringLiteral("/files-out/result.txt")), mode_t(0600));
        // The work dir (and the chain) is gone: only files-out/ is left.
        QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("files-out")});
    }

    // The same chain in a stale folder (its studio died): the sweep removes it whole.
    void deepChainIsSwept()
    {
        QTemporaryDir runs;
        const QString stale = runs.filePath(QStringLiteral("20260101T000000-dead"));
        QVERIFY(QDir().mkdir(stale));
        writeFile(stale + QStringLiteral("/.lock"), "");
        const int fd = ::open(QFile::encodeName(stale).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        makeChain(fd, Depth);
        ::close(fd);
        QTemporaryDir outside; // a symlink in the folder must not lead the sweep there
        writeFile(outside.filePath(QStringLiteral("keep.txt")), "kept\n");
        QVERIFY(QFile::link(outside.path(), stale + QStringLiteral("/link")));
        // A symlink in runs/ named like a dead run folder, to a folder with a stale lock.
        writeFile(outside.filePath(QStringLiteral(".lock")), "");
        QVERIFY(QFile::link(outside.path(), runs.filePath(QStringLiteral("20260101T000000-link"))));
        QCOMPARE(RunFolder::sweepStale(runs.path()), 1);
        QVERIFY(!QFileInfo::exists(stale));
        QCOMPARE(readFile(outside.filePath(QStringLiteral("keep.txt"))), QByteArray("kept\n"));
        QVERIFY(QFileInfo::exists(outside.filePath(QStringLiteral(".lock"))));
    }

    // While a run is live, its work dir, its files and the script copy are closed to a
    // third uid (neither the studio's nor the sandbox user's).
    void liveRunIsPrivate()
    {
        QTemporaryDir project;
        ::chmod(QFile::encodeName(project.path()).constData(), 0755);
        const auto loaded = makeProject(project.path(),
                                        "import time\nopen('secret.txt', 'w').write('run data')\n"
                                        "open('ready', 'w').close()\ntime.sleep(60)\n");
        QVERIFY(loaded);
        ::chmod(QFile::encodeName(project.filePath(QStringLiteral("scripts/main.py"))).constData(), 0644);
        RunController controller;
        controller.setJournalPath(project.filePath(QStringLiteral("journal.sqlite")));
        bool done = false;
        connect(&controller, &RunController::finished, this, [&done] { done = true; });
        QString error;
        QVERIFY2(controller.start(*loaded, QString(), &error), qPrintable(error));
        const QString folder = RunFolder::runsDir() + QLatin1Char('/') + controller.record().id;
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(folder + QStringLiteral("/work/ready")), 20000);
        const QStringList paths = {folder + QStringLiteral("/work/secret.txt"), folder + QStringLiteral("/work"),
                                   folder + QStringLiteral("/runtime/script/main.py")};
        // The folder is the gate: nothing for others (0700), or only the sandbox user's
        // group may pass (0710 root:<its gid>) when the studio is root.
        QCOMPARE(modeOf(folder), mode_t(isRoot() ? 0710 : 0700));
        QCOMPARE(modeOf(folder + QStringLiteral("/work")), mode_t(0700));
        QCOMPARE(modeOf(folder + QStringLiteral("/work/secret.txt")), mode_t(0600));
        if (isRoot()) {
            // Really try, as a third uid.
            for (const QString &path : paths) {
                QProcess reader;
                reader.start(QStringLiteral("setpriv"),
                             {QStringLiteral("--reuid=%1").arg(OtherUid), QStringLiteral("--regid=%1").arg(OtherUid),
                              QStringLiteral("--clear-groups"), QStringLiteral("--"), QStringLiteral("/bin/ls"),
                              QStringLiteral("-d"), path});
                QVERIFY(reader.waitForFinished(10000));
                QVERIFY2(reader.exitCode() != 0, qPrintable(path));
                QVERIFY2(reader.readAllStandardError().contains("Permission denied"), qPrintable(path));
            }
        }
        controller.stop();
        QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    }
};

TOOLSTUDIO_TEST_MAIN_AS_USER(TestRunBase)
#include "tst_runbase.moc"
