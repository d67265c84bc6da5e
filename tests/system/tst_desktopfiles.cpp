// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

namespace {

QString sourceDir()
{
    const QString fromEnv = qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR");
    return fromEnv.isEmpty() ? QFileInfo(QString::fromUtf8(__FILE__)).absolutePath() + QStringLiteral("/../..")
                             : fromEnv;
}

} // namespace

/// The desktop entry and the AppStream metainfo pass their validators (issue 7 item 8).
class TstDesktopFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void validates_data()
    {
        QTest::addColumn<QByteArray>("validatorBytes");
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("fileBytes");
        QTest::newRow("desktop entry") << QByteArray("desktop-file-validate") << QStringList{}
                                       << QByteArray("resources/io.github.toolstudio.ToolStudio.desktop");
        QTest::newRow("appstream metainfo")
            << QByteArray("appstreamcli") << QStringList{QStringLiteral("validate"), QStringLiteral("--no-net")}
            << QByteArray("resources/io.github.toolstudio.ToolStudio.metainfo.xml");
    }

    void validates()
    {
        QFETCH(QByteArray, validatorBytes);
        const QString validator = QString::fromUtf8(validatorBytes);
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, fileBytes);
        const QString file = QString::fromUtf8(fileBytes);
        const QString binary = QStandardPaths::findExecutable(validator);
        if (binary.isEmpty())
            QSKIP(qPrintable(QStringLiteral("%1 is not installed (desktop-file-utils / appstream)").arg(validator)));
        const QString path = sourceDir() + QLatin1Char('/') + file;
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        QProcess process;
        process.start(binary, arguments << path);
        QVERIFY(process.waitForFinished(60000));
        const QString output = QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(output));
        // desktop-file-validate prints hints it still exits 0 for; none are wanted.
        QVERIFY2(!output.contains(QLatin1String("error")), qPrintable(output));
    }
};

QTEST_GUILESS_MAIN(TstDesktopFiles)
#include "tst_desktopfiles.moc"
