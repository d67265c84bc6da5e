// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// What a served session keeps for a restarted studio (ServedSessionRecord): only
// hashes of its tokens, in files of mode 0600, read back as written; a session id
// from a client never names a file outside `.toolstudio/served/`.

#include "servedsessionrecord.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

class TstServedSessionRecord : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validIds_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>("valid");
        QTest::newRow("a run id") << QStringLiteral("20261205T031856-0a3f") << true;
        QTest::newRow("underscore") << QStringLiteral("a_b") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("parent") << QStringLiteral("../journal") << false;
        QTest::newRow("slash") << QStringLiteral("a/b") << false;
        QTest::newRow("dot") << QStringLiteral("a.b") << false;
        QTest::newRow("non-ASCII letter") << QStringLiteral("r\u00e9sum\u00e9") << false;
        QTest::newRow("65 characters") << QString(65, QLatin1Char('a')) << false;
        QTest::newRow("64 characters") << QString(64, QLatin1Char('a')) << true;
    }
    void validIds()
    {
        QFETCH(QString, id);
        QFETCH(bool, valid);
        QCOMPARE(ServedSessionRecord::validId(id), valid);
    }

    void hashIsSha256()
    {
        QCOMPARE(ServedSessionRecord::hash("abc"),
                 std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QVERIFY(ServedSessionRecord::sameHash(ServedSessionRecord::hash("abc"), ServedSessionRecord::hash("abc")));
        QVERIFY(!ServedSessionRecord::sameHash(ServedSessionRecord::hash("abd"), ServedSessionRecord::hash("abc")));
        QVERIFY(!ServedSessionRecord::sameHash(std::string(), std::string())); // no token: nothing matches
    }

    void savedAndLoaded()
    {
        QTemporaryDir project;
        ServedSessionRecord record;
        record.serial = 2;
        record.tokenHash = ServedSessionRecord::hash("token-1");
        record.previousTokenHash = ServedSessionRecord::hash("token-0");
        record.pausedAt = 1796441120386;
        record.elapsedMs = 86;
        record.stdoutSent = 6;
        record.stderrSent = 0;
        record.waiting = {{1, QStringLiteral("c1")}, {3, QStringLiteral("s15035.2")}};
        QString error;
        QVERIFY2(record.save(project.path(), QStringLiteral("R1"), &error), qPrintable(error));
        const QString path = project.path() + QStringLiteral("/.toolstudio/served/R1.state.json");
        // 0600: the user (owner) reads and writes, group and others nothing.
        QCOMPARE(QFile::permissions(path) & 0x0fff, QFileDevice::ReadUser | QFileDevice::WriteUser);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("token-1"));

        const auto loaded = ServedSessionRecord::load(project.path(), QStringLiteral("R1"));
        QVERIFY(loaded);
        QCOMPARE(loaded->tokenHash, record.tokenHash);
        QCOMPARE(loaded->previousTokenHash, record.previousTokenHash);
        QCOMPARE(loaded->pausedAt, record.pausedAt);
        QCOMPARE(loaded->elapsedMs, 86);
        QCOMPARE(loaded->stdoutSent, 6);
        QCOMPARE(loaded->waiting.size(), std::size_t(2));
        QCOMPARE(loaded->waiting[1].sequence, 3);
        QCOMPARE(loaded->waiting[1].callId, QStringLiteral("s15035.2"));
        QVERIFY(loaded->endedCode.isEmpty());

        // An end replaces the state; the start request goes.
        QVERIFY(ServedSessionRecord::saveStart(project.path(), QStringLiteral("R1"), "{\"tools\":[]}", &error));
        QCOMPARE(ServedSessionRecord::loadStart(project.path(), QStringLiteral("R1")), std::string("{\"tools\":[]}"));
        ServedSessionRecord ended;
        ended.serial = 3; // into the other slot
        ended.endedCode = QStringLiteral("session_expired");
        ended.endedMessage = QStringLiteral("expired");
        QVERIFY(ended.save(project.path(), QStringLiteral("R1"), &error));
        ServedSessionRecord::removeStart(project.path(), QStringLiteral("R1"));
        QCOMPARE(ServedSessionRecord::loadStart(project.path(), QStringLiteral("R1")), std::string());
        const auto after = ServedSessionRecord::load(project.path(), QStringLiteral("R1"));
        QVERIFY(after);
        QCOMPARE(after->endedCode, QStringLiteral("session_expired"));
        QVERIFY(after->tokenHash.empty());

        // A shorter state over a longer one: padded, read whole.
        ServedSessionRecord shorter;
        shorter.serial = 4;
        QVERIFY(shorter.save(project.path(), QStringLiteral("R1"), &error));
        QCOMPARE(ServedSessionRecord::load(project.path(), QStringLiteral("R1"))->serial, 4);
        QVERIFY(ServedSessionRecord::load(project.path(), QStringLiteral("R1"))->waiting.empty());
    }

    // A write cut short spoils its slot only: the state before it is read.
    void tornSlot()
    {
        QTemporaryDir project;
        QString error;
        ServedSessionRecord older;
        older.serial = 1;
        older.tokenHash = ServedSessionRecord::hash("older");
        QVERIFY(older.save(project.path(), QStringLiteral("R1"), &error));
        QFile torn(project.path() + QStringLiteral("/.toolstudio/served/R1.state.json")); // serial 2's slot
        QVERIFY(torn.open(QIODevice::WriteOnly));
        torn.write("{\"serial\": 2, \"token_sha256\": \"ab");
        torn.close();
        const auto loaded = ServedSessionRecord::load(project.path(), QStringLiteral("R1"));
        QVERIFY(loaded);
        QCOMPARE(loaded->serial, 1);
        QCOMPARE(loaded->tokenHash, ServedSessionRecord::hash("older"));
    }

    void noRecord()
    {
        QTemporaryDir project;
        QVERIFY(!ServedSessionRecord::load(project.path(), QStringLiteral("R1")));
        QVERIFY(!ServedSessionRecord::load(project.path(), QStringLiteral("../../etc/passwd")));
        QString error;
        QVERIFY(ServedSessionRecord::saveStart(project.path(), QStringLiteral("R2"), "{}", &error));
        QFile garbage(project.path() + QStringLiteral("/.toolstudio/served/R2.state-b.json"));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write("{\"waiting\": 5, \"paused_at\": \"x\"}");
        garbage.close();
        QVERIFY(!ServedSessionRecord::load(project.path(), QStringLiteral("R2")));
        // 400 000 levels of arrays (a planted slot): refused as any outside JSON, where
        // copying it overflowed the stack.
        QFile deep(project.path() + QStringLiteral("/.toolstudio/served/R3.state.json"));
        QVERIFY(deep.open(QIODevice::WriteOnly));
        deep.write("{\"serial\":1,\"waiting\":" + QByteArray(400000, '[') + QByteArray(400000, ']') + "}");
        deep.close();
        QVERIFY(!ServedSessionRecord::load(project.path(), QStringLiteral("R3")));
    }
};

QTEST_GUILESS_MAIN(TstServedSessionRecord)
#include "tst_servedsessionrecord.moc"
