// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The root studio's kept copy of a project (ProjectCopyPlace, ToolSandbox): claimed by one
// process at a time, only in a base folder of this user's, made read-only again when
// claimed, and brought up to date — not copied whole — at the next start.
#include "python/projectcopyplace.h"
#include "python/toolsandbox.h"
#include "testfiles.h"

#include <QTemporaryDir>
#include <QTest>

#include <ctime>
#include <fcntl.h>
#include <memory>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

ino_t inodeOf(const QString &path)
{
    struct stat info = {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_ino : 0;
}

bool exists(const QString &path)
{
    struct stat info = {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0;
}

} // namespace

class TestProjectCopyPlace : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_temp; ///< TMPDIR of this test: the base folder is made in it
    QTemporaryDir m_project;
    QByteArray m_savedTmpdir;

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_temp.isValid());
        QVERIFY(m_project.isValid());
        m_savedTmpdir = qgetenv("TMPDIR");
        qputenv("TMPDIR", QFile::encodeName(m_temp.path()));
        QCOMPARE(QDir::tempPath(), m_temp.path());
    }

    void cleanup()
    {
        if (m_savedTmpdir.isEmpty())
            qunsetenv("TMPDIR");
        else
            qputenv("TMPDIR", m_savedTmpdir);
        QDir(ProjectCopyPlace::baseIn(m_temp.path())).removeRecursively();
    }

    void keptFromOneClaimToTheNext()
    {
        QString why;
        QString first;
        {
            ProjectCopyPlace place;
            first = place.claim(m_project.path(), &why);
            QVERIFY2(!first.isEmpty(), qPrintable(why));
            QVERIFY(first.startsWith(ProjectCopyPlace::baseIn(m_temp.path()) + QLatin1Char('/')));
            QVERIFY(first.endsWith(QLatin1String("/project")));
            QVERIFY(writeFile(first + QStringLiteral("/kept.txt"), "kept"));
            QVERIFY(::chmod(QFile::encodeName(first + QStringLiteral("/kept.txt")).constData(), 0644) == 0);
        }
        const ino_t inode = inodeOf(first + QStringLiteral("/kept.txt"));
        ProjectCopyPlace again;
        QCOMPARE(again.claim(m_project.path(), &why), first);
        QCOMPARE(inodeOf(first + QStringLiteral("/kept.txt")), inode);
        QCOMPARE(fileBytes(first + QStringLiteral("/kept.txt")), QByteArray("kept"));
        // The base lets others pass, not list; the copy is readable.
        struct stat base = {};
        QCOMPARE(::lstat(QFile::encodeName(ProjectCopyPlace::baseIn(m_temp.path())).constData(), &base), 0);
        QCOMPARE(base.st_mode & 0777, mode_t(0711));
        struct stat copy = {};
        QCOMPARE(::lstat(QFile::encodeName(first).constData(), &copy), 0);
        QCOMPARE(copy.st_mode & 0777, mode_t(0755));
        // The copy's folder lets only the sandbox user's group pass: the copy of a project
        // in root's private home outlives the studio (attack45: any local user read its
        // .env by the hash of a guessed path).
        struct stat folder = {};
        QCOMPARE(::lstat(QFile::encodeName(QFileInfo(first).path()).constData(), &folder), 0);
        QCOMPARE(folder.st_mode & 0777, mode_t(0710));
        const passwd *sandboxUser = ::getpwnam(ProjectCopyPlace::SandboxUser);
        QVERIFY(sandboxUser);
        if (::geteuid() == 0)
            QCOMPARE(folder.st_gid, sandboxUser->pw_gid);

        // Another project has a copy of its own.
        QTemporaryDir other;
        ProjectCopyPlace otherPlace;
        const QString otherCopy = otherPlace.claim(other.path(), &why);
        QVERIFY(!otherCopy.isEmpty());
        QVERIFY(otherCopy != first);
    }

    void heldByOneProcessAtATime()
    {
        QString why;
        ProjectCopyPlace holder;
        QVERIFY(!holder.claim(m_project.path(), &why).isEmpty());
        // A second studio (here: another open file description of the lock) gets none.
        ProjectCopyPlace second;
        QCOMPARE(second.claim(m_project.path(), &why), QString());
        QVERIFY2(why.startsWith(QLatin1String("another studio process uses the kept copy ")), qPrintable(why));
    }

    void aBaseNotOnlyThisUsersIsRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("writable by others") << QStringLiteral("0777");
        QTest::newRow("a symlink") << QStringLiteral("link");
        QTest::newRow("a file") << QStringLiteral("file");
    }

    void aBaseNotOnlyThisUsersIsRefused()
    {
        // Made first in the shared temp folder by someone else (here: with a mode or a
        // kind only someone else would give it).
        QFETCH(QString, kind);
        const QByteArray base = QFile::encodeName(ProjectCopyPlace::baseIn(m_temp.path()));
        QTemporaryDir elsewhere;
        if (kind == QLatin1String("0777")) {
            QCOMPARE(::mkdir(base.constData(), 0777), 0);
            QCOMPARE(::chmod(base.constData(), 0777), 0);
        } else if (kind == QLatin1String("link")) {
            QCOMPARE(::symlink(QFile::encodeName(elsewhere.path()).constData(), base.constData()), 0);
        } else {
            QVERIFY(writeFile(QFile::decodeName(base), "x"));
        }
        ProjectCopyPlace place;
        QString why;
        QCOMPARE(place.claim(m_project.path(), &why), QString());
        QCOMPARE(
            why,
            QStringLiteral("%1 is not a folder of this user's that only it can change").arg(QFile::decodeName(base)));
        QCOMPARE(QDir(elsewhere.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
        ::unlink(base.constData());
        ::rmdir(base.constData());
    }

    void aTempFolderOthersCanChangeIsRefused()
    {
        // TMPDIR of a user's own (sudo -E): that user could rename the copy's folders away
        // and put links in their place while the sync writes by path.
        const QString shared = m_temp.path() + QStringLiteral("/shared");
        QVERIFY(QDir().mkpath(shared + QStringLiteral("/tmp")));
        QCOMPARE(::chmod(QFile::encodeName(shared).constData(), 0777), 0); // not sticky
        qputenv("TMPDIR", QFile::encodeName(shared + QStringLiteral("/tmp")));
        ProjectCopyPlace place;
        QString why;
        QCOMPARE(place.claim(m_project.path(), &why), QString());
        QCOMPARE(why, QStringLiteral("%1/tmp is a folder another user can replace").arg(shared));
        QVERIFY(!exists(ProjectCopyPlace::baseIn(shared + QStringLiteral("/tmp"))));
        // Sticky (as /tmp): each folder in it is its owner's to rename.
        QCOMPARE(::chmod(QFile::encodeName(shared).constData(), 01777), 0);
        QVERIFY2(!place.claim(m_project.path(), &why).isEmpty(), qPrintable(why));
        QDir(ProjectCopyPlace::baseIn(shared + QStringLiteral("/tmp"))).removeRecursively();
    }

    void claimingMakesTheCopyReadOnlyAgain()
    {
        QString why;
        QString copy;
        {
            ProjectCopyPlace place;
            copy = place.claim(m_project.path(), &why);
            QVERIFY2(!copy.isEmpty(), qPrintable(why));
        }
        const auto file = [&copy](const char *name, const QByteArray &text, mode_t mode) {
            const QString path = copy + QLatin1Char('/') + QLatin1String(name);
            return writeFile(path, text) && ::chmod(QFile::encodeName(path).constData(), mode) == 0;
        };
        QVERIFY(file("readonly.txt", "r", 0644));
        QVERIFY(file("writable.txt", "w", 0666));
        QVERIFY(file("venv/lib/site.py", "planted", 0644));
        QCOMPARE(::chmod(QFile::encodeName(copy + QStringLiteral("/venv")).constData(), 0777), 0);
        QVERIFY(file("tools/t.py", "t", 0644));
        QCOMPARE(::link(QFile::encodeName(copy + QStringLiteral("/tools/t.py")).constData(),
                        QFile::encodeName(copy + QStringLiteral("/hardlink.py")).constData()),
                 0);
        QCOMPARE(::symlink("tools/t.py", QFile::encodeName(copy + QStringLiteral("/link.py")).constData()), 0);
        const bool root = ::geteuid() == 0;
        if (root) { // what a requirements install left: the sandbox user's
            QVERIFY(file("handed.txt", "h", 0644));
            QCOMPARE(::chown(QFile::encodeName(copy + QStringLiteral("/handed.txt")).constData(), 65534, 65534), 0);
        }

        ProjectCopyPlace again;
        QCOMPARE(again.claim(m_project.path(), &why), copy);
        QVERIFY(exists(copy + QStringLiteral("/readonly.txt")));
        QVERIFY(!exists(copy + QStringLiteral("/writable.txt")));
        QVERIFY(!exists(copy + QStringLiteral("/venv"))); // and what it held
        QVERIFY(exists(copy + QStringLiteral("/link.py")));
        // A file with two names: one goes, so no file of the copy shares its data.
        QCOMPARE(int(exists(copy + QStringLiteral("/hardlink.py"))) + int(exists(copy + QStringLiteral("/tools/t.py"))),
                 1);
        struct stat left = {};
        QCOMPARE(
            ::lstat(QFile::encodeName(copy
                                      + (exists(copy + QStringLiteral("/hardlink.py")) ? QStringLiteral("/hardlink.py")
                                                                                       : QStringLiteral("/tools/t.py")))
                        .constData(),
                    &left),
            0);
        QCOMPARE(left.st_nlink, nlink_t(1));
        QVERIFY(exists(copy + QStringLiteral("/tools")));
        if (root)
            QVERIFY(!exists(copy + QStringLiteral("/handed.txt")));
    }

    void aRootStudioBringsTheKeptCopyUpToDate()
    {
        if (!ToolSandbox::studioIsRoot())
            QSKIP("only a studio running as root copies the project");
        const QString project = m_project.path();
        QVERIFY(writeFile(project + QStringLiteral("/toolstudio.json"), "{\"name\": \"copied\"}"));
        QVERIFY(writeFile(project + QStringLiteral("/node_modules/a/index.js"), "a"));
        QVERIFY(writeFile(project + QStringLiteral("/tools/gone.py"), "gone"));
        QVERIFY(writeFile(project + QStringLiteral("/tools/changed.py"), "old"));
        QString copy;
        {
            ToolSandbox first;
            QString error;
            QVERIFY2(first.prepare(project, &error), qPrintable(error));
            copy = first.projectPath();
            QVERIFY(copy.startsWith(ProjectCopyPlace::baseIn(m_temp.path())));
            QCOMPARE(fileBytes(copy + QStringLiteral("/node_modules/a/index.js")), QByteArray("a"));
        }
        const ino_t unchanged = inodeOf(copy + QStringLiteral("/node_modules/a/index.js"));
        QVERIFY(unchanged != 0);
        QFile::remove(project + QStringLiteral("/tools/gone.py"));
        QTest::qWait(20); // a modification time of its own
        QVERIFY(writeFile(project + QStringLiteral("/tools/changed.py"), "new!"));

        ToolSandbox second;
        QString error;
        QVERIFY2(second.prepare(project, &error), qPrintable(error));
        QCOMPARE(second.projectPath(), copy);
        QCOMPARE(inodeOf(copy + QStringLiteral("/node_modules/a/index.js")), unchanged); // not copied again
        QCOMPARE(fileBytes(copy + QStringLiteral("/tools/changed.py")), QByteArray("new!"));
        QVERIFY(!exists(copy + QStringLiteral("/tools/gone.py")));

        // A third studio meanwhile gets a private copy.
        ToolSandbox third;
        QVERIFY2(third.prepare(project, &error), qPrintable(error));
        QVERIFY(third.projectPath() != copy);
        QVERIFY(third.projectPath().endsWith(QLatin1String("/project")));
        QCOMPARE(fileBytes(third.projectPath() + QStringLiteral("/tools/changed.py")), QByteArray("new!"));
    }

    void entriesOfAnotherKindAreReplacedNotFollowed_data()
    {
        // What the project has at the first start, then at the next (a checkout between).
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::newRow("a link to a folder, then a folder") << QStringLiteral("link") << QStringLiteral("dir");
        QTest::newRow("a link to a folder, then a file") << QStringLiteral("link") << QStringLiteral("file");
        QTest::newRow("a file, then a folder") << QStringLiteral("file") << QStringLiteral("dir");
        QTest::newRow("a folder, then a file") << QStringLiteral("dir") << QStringLiteral("file");
        QTest::newRow("a folder, then a link") << QStringLiteral("dir") << QStringLiteral("link");
    }

    void entriesOfAnotherKindAreReplacedNotFollowed()
    {
        if (!ToolSandbox::studioIsRoot())
            QSKIP("only a studio running as root copies the project");
        QFETCH(QString, before);
        QFETCH(QString, after);
        QTemporaryDir victim; // stands for /etc
        QVERIFY(writeFile(victim.path() + QStringLiteral("/passwd"), "root's own"));
        const QString project = m_project.path();
        const QString entry = project + QStringLiteral("/d");
        const auto make = [&](const QString &kind) {
            if (!QFile::remove(entry)) // a file or a link; a folder (QDir would follow a link)
                QDir(entry).removeRecursively();
            if (kind == QLatin1String("link"))
                return QFile::link(victim.path(), entry);
            if (kind == QLatin1String("file"))
                return writeFile(entry, "a file");
            return writeFile(entry + QStringLiteral("/passwd"), "planted");
        };
        QVERIFY(make(before));
        QString copy;
        {
            ToolSandbox first;
            QString error;
            QVERIFY2(first.prepare(project, &error), qPrintable(error));
            copy = first.projectPath();
        }
        QVERIFY(make(after));
        ToolSandbox second;
        QString error;
        QVERIFY2(second.prepare(project, &error), qPrintable(error));
        QCOMPARE(second.projectPath(), copy);
        QCOMPARE(fileBytes(victim.path() + QStringLiteral("/passwd")), QByteArray("root's own"));
        QCOMPARE(QDir(victim.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("passwd")});
        const QFileInfo copied(copy + QStringLiteral("/d"));
        QCOMPARE(copied.isSymLink(), after == QLatin1String("link"));
        if (after == QLatin1String("dir")) {
            QVERIFY(copied.isDir());
            QCOMPARE(fileBytes(copy + QStringLiteral("/d/passwd")), QByteArray("planted"));
        } else if (after == QLatin1String("file")) {
            QVERIFY(copied.isFile());
            QCOMPARE(fileBytes(copy + QStringLiteral("/d")), QByteArray("a file"));
        } else {
            QCOMPARE(copied.symLinkTarget(), victim.path());
        }
    }

    void aFileNoLongerCopiedLeavesNoOlderCopy()
    {
        // Over the limits (here 512 MiB, a sparse file): the copy made when it was within
        // them goes, not read by the tools as if it were the project's.
        if (!ToolSandbox::studioIsRoot())
            QSKIP("only a studio running as root copies the project");
        const QString project = m_project.path();
        QVERIFY(writeFile(project + QStringLiteral("/tools/big.py"), "old = True"));
        QString copy;
        {
            ToolSandbox first;
            QString error;
            QVERIFY2(first.prepare(project, &error), qPrintable(error));
            copy = first.projectPath();
            QCOMPARE(fileBytes(copy + QStringLiteral("/tools/big.py")), QByteArray("old = True"));
        }
        QFile big(project + QStringLiteral("/tools/big.py"));
        QVERIFY(big.resize(600ll * 1024 * 1024));
        ToolSandbox second;
        QString error;
        QVERIFY2(second.prepare(project, &error), qPrintable(error));
        QCOMPARE(second.projectPath(), copy);
        QVERIFY(!exists(copy + QStringLiteral("/tools/big.py")));
    }

    void aFolderOfTheSandboxUsersIsNotWrittenInto()
    {
        // A requirements install hands the copy's venv to the sandbox user for the rest of
        // the studio's life; what that user links there is not followed by the syncs.
        if (!ToolSandbox::studioIsRoot())
            QSKIP("only a studio running as root copies the project");
        QTemporaryDir victim;
        QVERIFY(writeFile(victim.path() + QStringLiteral("/passwd"), "root's own"));
        QVERIFY(writeFile(victim.path() + QStringLiteral("/shadow"), "root's too"));
        const QString project = m_project.path();
        QVERIFY(writeFile(project + QStringLiteral("/.toolstudio/venv/lib/passwd"), "planted"));
        ToolSandbox sandbox;
        QString error;
        QVERIFY2(sandbox.prepare(project, &error), qPrintable(error));
        const QString venv = sandbox.projectPath() + QStringLiteral("/.toolstudio/venv");
        QCOMPARE(fileBytes(venv + QStringLiteral("/lib/passwd")), QByteArray("planted"));
        QCOMPARE(::chown(QFile::encodeName(venv).constData(), 65534, 65534), 0);
        QVERIFY(QDir(venv + QStringLiteral("/lib")).removeRecursively());
        QVERIFY(QFile::link(victim.path(), venv + QStringLiteral("/lib")));
        QVERIFY(writeFile(project + QStringLiteral("/.toolstudio/venv/lib/passwd"), "planted again"));
        sandbox.syncProject(); // before the next call
        QCOMPARE(fileBytes(victim.path() + QStringLiteral("/passwd")), QByteArray("root's own"));
        QCOMPARE(fileBytes(victim.path() + QStringLiteral("/shadow")), QByteArray("root's too")); // not stale
    }

    void aCopyThatCannotBeReclaimedIsNotKept()
    {
        QString why;
        QString copy;
        {
            ProjectCopyPlace place;
            copy = place.claim(m_project.path(), &why);
            QVERIFY2(!copy.isEmpty(), qPrintable(why));
        }
        // Left writable, and deeper than the reclaim walks.
        QString deep = copy + QStringLiteral("/venv");
        for (int level = 0; level < 100; ++level)
            deep += QStringLiteral("/d");
        QVERIFY(QDir().mkpath(deep));
        QVERIFY(writeFile(deep + QStringLiteral("/site.py"), "planted"));
        QCOMPARE(::chmod(QFile::encodeName(copy + QStringLiteral("/venv")).constData(), 0777), 0);
        ProjectCopyPlace again;
        QCOMPARE(again.claim(m_project.path(), &why), QString());
        QCOMPARE(why, QStringLiteral("cannot make the kept copy %1 read-only again").arg(copy));
        QDir(copy).removeRecursively();
    }

    void copiesOfProjectsGoneOrUnusedAreSwept()
    {
        // Each claim sweeps: a copy whose project folder is gone, or that no studio
        // claimed for 30 days, goes; one in use, or of a project still there, stays.
        QString why;
        auto gone = std::make_unique<QTemporaryDir>();
        QTemporaryDir old;
        QTemporaryDir inUse;
        QTemporaryDir recent;
        QString goneCopy;
        QString oldCopy;
        QString recentCopy;
        {
            ProjectCopyPlace a;
            goneCopy = a.claim(gone->path(), &why);
            ProjectCopyPlace b;
            oldCopy = b.claim(old.path(), &why);
            ProjectCopyPlace c;
            recentCopy = c.claim(recent.path(), &why);
            QVERIFY(!goneCopy.isEmpty() && !oldCopy.isEmpty() && !recentCopy.isEmpty());
        }
        ProjectCopyPlace holder;
        const QString inUseCopy = holder.claim(inUse.path(), &why);
        QVERIFY(!inUseCopy.isEmpty());
        const QString goneFolder = QFileInfo(goneCopy).absolutePath();
        QCOMPARE(fileBytes(goneFolder + QStringLiteral("/.project")), QFile::encodeName(gone->path()));
        gone.reset(); // the project is deleted
        const QString oldLock = QFileInfo(oldCopy).absolutePath() + QStringLiteral("/.lock");
        const timespec longAgo[2] = {{::time(nullptr) - 31 * 24 * 3600, 0}, {::time(nullptr) - 31 * 24 * 3600, 0}};
        QCOMPARE(::utimensat(AT_FDCWD, QFile::encodeName(oldLock).constData(), longAgo, 0), 0);
        QVERIFY(inUse.remove()); // gone too, but its copy is held

        ProjectCopyPlace next;
        QTemporaryDir another;
        QVERIFY(!next.claim(another.path(), &why).isEmpty());
        QVERIFY(!exists(goneFolder));
        QVERIFY(!exists(QFileInfo(oldCopy).absolutePath()));
        QVERIFY(exists(recentCopy));
        QVERIFY(exists(inUseCopy));
    }
};

QTEST_GUILESS_MAIN(TestProjectCopyPlace)
#include "tst_projectcopyplace.moc"
