// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString sourceDir()
{
    const QString fromEnv = qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR");
    return fromEnv.isEmpty() ? QFileInfo(QString::fromUtf8(__FILE__)).absolutePath() + QStringLiteral("/../..")
                             : fromEnv;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

/// Every user-visible string goes through tr(), and every one has a finished German
/// translation. The .ts file is updated with the same command this test runs:
///   lupdate -locations none -no-obsolete app widgets sandbox -ts translations/toolstudio_de.ts
/// (sandbox/: its Qt side has the strings; the Qt-free launcher has none)
class TstTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void germanIsFreshAndFinished()
    {
        const QString lupdate
            = QStandardPaths::findExecutable(QStringLiteral("lupdate"), {QStringLiteral("/usr/lib/qt6/bin")});
        if (lupdate.isEmpty())
            QSKIP("lupdate (qt6-l10n-tools) is not installed");
        const QString committed = sourceDir() + QStringLiteral("/translations/toolstudio_de.ts");
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const QString copy = temp.filePath(QStringLiteral("toolstudio_de.ts"));
        QVERIFY(QFile::copy(committed, copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);

        QProcess process;
        process.setWorkingDirectory(sourceDir());
        process.start(lupdate,
                      {QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-no-obsolete"),
                       QStringLiteral("app"), QStringLiteral("widgets"), QStringLiteral("sandbox"),
                       QStringLiteral("-ts"), copy});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);

        const QByteArray before = readAll(committed);
        const QByteArray after = readAll(copy);
        // Strings new in the sources come out as unfinished; gone ones are dropped.
        QStringList unfinished;
        static const QRegularExpression message(
            QStringLiteral(R"(<source>(.*?)</source>\s*(?:<comment>.*?</comment>\s*)?<translation type="unfinished")"),
            QRegularExpression::DotMatchesEverythingOption);
        auto it = message.globalMatch(QString::fromUtf8(after));
        while (it.hasNext())
            unfinished.append(it.next().captured(1));
        QVERIFY2(unfinished.isEmpty(),
                 qPrintable(QStringLiteral("%1 string(s) without a German translation, first: %2")
                                .arg(unfinished.size())
                                .arg(unfinished.value(0))));
        QVERIFY2(before == after,
                 "translations/toolstudio_de.ts is stale: run the lupdate command in this test's "
                 "comment and commit the result");
    }
};

QTEST_GUILESS_MAIN(TstTranslations)
#include "tst_translations.moc"
