// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `.toolstudio/served/` as a project may really hold it (ServedFolder, through
// ServedSessionRecord): whatever was put in a state file's place — a symlink out of the
// project, a FIFO, /dev/zero, a 3 GiB sparse file, a hard link — is refused with what it
// is, never followed, waited on or read whole, and nothing outside the folder changes.

#include "servedfolder.h"
#include "servedsessionrecord.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace {

QByteArray path(const QTemporaryDir &dir, const char *relative)
{
    return QFile::encodeName(dir.path()) + '/' + relative;
}

bool writeFile(const QByteArray &file, const QByteArray &bytes)
{
    QFile out(QFile::decodeName(file));
    return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
}

QByteArray readFile(const QByteArray &file)
{
    QFile in(QFile::decodeName(file));
    return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray("(missing)");
}

ServedSessionRecord someState()
{
    ServedSessionRecord record;
    record.serial = 2; // the slot R1.state.json
    record.tokenHash = ServedSessionRecord::hash("token");
    return record;
}

} // namespace

class TstServedFolder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_projectDir = std::make_unique<QTemporaryDir>();
        m_outsideDir = std::make_unique<QTemporaryDir>();
        QVERIFY(project().isValid() && outside().isValid());
        QVERIFY(::mkdir(path(project(), ".toolstudio").constData(), 0755) == 0);
        QVERIFY(::mkdir(path(project(), ".toolstudio/served").constData(), 0700) == 0);
        QVERIFY(writeFile(path(outside(), "victim.txt"), "the user's own file\n"));
    }

    // The state written and read back, private: the ordinary case still works.
    void stateAndProgramArePrivate()
    {
        QString error;
        QVERIFY2(someState().save(project().path(), QStringLiteral("R1"), &error), qPrintable(error));
        const ServedFolder folder(project().path(), true);
        QVERIFY(folder.write(QStringLiteral("prog.py"), "print(1)\n", &error));
        struct stat info = {};
        QVERIFY(::stat(path(project(), ".toolstudio/served/prog.py").constData(), &info) == 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0600));
        QVERIFY(::stat(path(project(), ".toolstudio/served/R1.state.json").constData(), &info) == 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0600));
        QCOMPARE(ServedSessionRecord::load(project().path(), QStringLiteral("R1"))->tokenHash,
                 ServedSessionRecord::hash("token"));
    }

    // A slot, the start file or the served folder itself linked out of the project: the
    // write is refused, saying so; the file outside is as it was.
    void symlinksAreNotFollowed_data()
    {
        QTest::addColumn<QByteArray>("link");
        QTest::addColumn<bool>("start");
        QTest::newRow("state slot") << QByteArray(".toolstudio/served/R1.state.json") << false;
        QTest::newRow("start file") << QByteArray(".toolstudio/served/R1.start.json") << true;
    }
    void symlinksAreNotFollowed()
    {
        QFETCH(QByteArray, link);
        QFETCH(bool, start);
        QVERIFY(::symlink(path(outside(), "victim.txt").constData(), path(project(), link.constData()).constData())
                == 0);
        QString error;
        const bool written = start
            ? ServedSessionRecord::saveStart(project().path(), QStringLiteral("R1"), "{\"tools\":[]}", &error)
            : someState().save(project().path(), QStringLiteral("R1"), &error);
        QVERIFY(!written);
        QCOMPARE(error,
                 QFile::decodeName(path(project(), link.constData())) + QStringLiteral(" is a symlink; remove it"));
        QCOMPARE(readFile(path(outside(), "victim.txt")), QByteArray("the user's own file\n"));
        // Read through, it is no state at all.
        QVERIFY(!ServedSessionRecord::load(project().path(), QStringLiteral("R1")));
        QCOMPARE(ServedSessionRecord::loadStart(project().path(), QStringLiteral("R1")), std::string());
    }

    void linkedFolderIsRefused_data()
    {
        QTest::addColumn<QByteArray>("linked");
        QTest::newRow(".toolstudio/served") << QByteArray(".toolstudio/served");
        QTest::newRow(".toolstudio") << QByteArray(".toolstudio");
    }
    void linkedFolderIsRefused()
    {
        QFETCH(QByteArray, linked);
        QVERIFY(::rmdir(path(project(), ".toolstudio/served").constData()) == 0);
        if (linked == ".toolstudio")
            QVERIFY(::rmdir(path(project(), ".toolstudio").constData()) == 0);
        QVERIFY(::chmod(QFile::encodeName(outside().path()).constData(), 0755) == 0);
        QVERIFY(
            ::symlink(QFile::encodeName(outside().path()).constData(), path(project(), linked.constData()).constData())
            == 0);
        QString error;
        QVERIFY(!someState().save(project().path(), QStringLiteral("R1"), &error));
        QVERIFY2(error.contains(QStringLiteral("is a symlink or not a folder; remove it")), qPrintable(error));
        const ServedFolder folder(project().path(), true);
        QVERIFY(!folder.isOpen());
        QVERIFY(!folder.write(QStringLiteral("prog.py"), "print(1)\n", &error));
        // Nothing was made there, and its mode is its own (not chmod-ed to 0700).
        QVERIFY(!QFile::exists(outside().path() + QStringLiteral("/R1.state.json")));
        QVERIFY(!QFile::exists(outside().path() + QStringLiteral("/served")));
        struct stat info = {};
        QVERIFY(::stat(QFile::encodeName(outside().path()).constData(), &info) == 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0755));
    }

    // A FIFO in a slot's place: neither load nor save waits for a writer or reader.
    void fifoDoesNotBlock()
    {
        QVERIFY(::mkfifo(path(project(), ".toolstudio/served/R1.state.json").constData(), 0600) == 0);
        QVERIFY(::mkfifo(path(project(), ".toolstudio/served/R1.start.json").constData(), 0600) == 0);
        QVERIFY(!ServedSessionRecord::load(project().path(), QStringLiteral("R1")));
        QCOMPARE(ServedSessionRecord::loadStart(project().path(), QStringLiteral("R1")), std::string());
        QString error;
        QVERIFY(!someState().save(project().path(), QStringLiteral("R1"), &error));
        QVERIFY2(error.endsWith(QStringLiteral("R1.state.json is a FIFO, not a file the studio wrote; remove it")),
                 qPrintable(error));
    }

    // A device is never read (/dev/zero would fill memory): through a symlink it is the
    // symlink that is refused; a device node itself can only be made by root.
    void devZeroIsNotRead()
    {
        QVERIFY(::symlink("/dev/zero", path(project(), ".toolstudio/served/R1.state.json").constData()) == 0);
        QVERIFY(!ServedSessionRecord::load(project().path(), QStringLiteral("R1")));
        if (::geteuid() == 0) {
            QVERIFY(
                ::mknod(path(project(), ".toolstudio/served/R2.state.json").constData(), S_IFCHR | 0600, makedev(1, 5))
                == 0);
            QVERIFY(!ServedSessionRecord::load(project().path(), QStringLiteral("R2")));
            QString error;
            QVERIFY(!someState().save(project().path(), QStringLiteral("R2"), &error));
            QVERIFY2(error.contains(QStringLiteral("is a device")), qPrintable(error));
        }
    }

    // A 3 GiB sparse slot: not read, and written over from nothing rather than padded to
    // its length (which would need 3 GiB of memory).
    void hugeSlotIsStartedAgain()
    {
        const QByteArray slot = path(project(), ".toolstudio/served/R1.state.json");
        const int fd = ::open(slot.constData(), O_WRONLY | O_CREAT, 0600);
        QVERIFY(fd >= 0);
        QVERIFY(::ftruncate(fd, off_t(3) << 30) == 0);
        ::close(fd);
        QVERIFY(!ServedSessionRecord::load(project().path(), QStringLiteral("R1")));
        QString error;
        QVERIFY2(someState().save(project().path(), QStringLiteral("R1"), &error), qPrintable(error));
        struct stat info = {};
        QVERIFY(::stat(slot.constData(), &info) == 0);
        QVERIFY(info.st_size < 1024);
        QCOMPARE(ServedSessionRecord::load(project().path(), QStringLiteral("R1"))->serial, 2);
    }

    // A hard link to a file of the user's elsewhere: writing the slot would change it.
    void hardLinkIsRefused()
    {
        QVERIFY(::link(path(outside(), "victim.txt").constData(),
                       path(project(), ".toolstudio/served/R1.state.json").constData())
                == 0);
        QString error;
        QVERIFY(!someState().save(project().path(), QStringLiteral("R1"), &error));
        QVERIFY2(error.contains(QStringLiteral("linked from elsewhere (2 links)")), qPrintable(error));
        QCOMPARE(readFile(path(outside(), "victim.txt")), QByteArray("the user's own file\n"));
    }

private:
    std::unique_ptr<QTemporaryDir> m_projectDir;
    std::unique_ptr<QTemporaryDir> m_outsideDir;
    /// Made anew for each test (init).
    const QTemporaryDir &project() const { return *m_projectDir; }
    const QTemporaryDir &outside() const { return *m_outsideDir; }
};

QTEST_GUILESS_MAIN(TstServedFolder)
#include "tst_servedfolder.moc"
