// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QDir>
#include <QDirIterator>
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

/// Prose handed to a widget as a literal rather than through tr(): a setter, a widget's
/// constructor or a message box given QStringLiteral("…") (or fromUtf8, QLatin1String)
/// with words in it, in the window's sources under `root` (app/ui, widgets, sandbox).
/// A literal that is not prose (a JSON keyword, an example identifier) says so on its
/// line with `// not translated: REASON`. Each found as "FILE:LINE: TEXT".
QStringList literalsShownWithoutTr(const QString &root)
{
    static const QRegularExpression literalToWidget(QStringLiteral(
        R"re((?:\b(?:setText|setToolTip|setWindowTitle|setPlaceholderText|setStatusTip|setWhatsThis|showMessage)re"
        R"re(|addAction|addMenu|setTitle|setHeaderLabels|setLabelText|setTabText|addTab|insertTab)\(\s*)re"
        R"re(|new\s+Q(?:PushButton|Label|Action|CheckBox|RadioButton|GroupBox|Menu|ToolButton|DockWidget)\(\s*)re"
        R"re(|QMessageBox::(?:information|warning|critical|question|about)\([^;]*?,\s*))re"
        R"re((?:QStringLiteral|QString::fromUtf8|QString::fromLatin1|QLatin1String|QLatin1StringView)\(\s*)re"
        R"re("([^"]*[A-Za-z]{2,}[^"]*)")re"));
    QStringList found;
    for (const QString &folder : {QStringLiteral("app/ui"), QStringLiteral("widgets"), QStringLiteral("sandbox")}) {
        QDirIterator it(root + QLatin1Char('/') + folder, {QStringLiteral("*.cpp")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QStringList lines = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'));
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (lines[i].contains(QLatin1String("// not translated:")))
                    continue;
                auto matches = literalToWidget.globalMatch(lines[i]);
                while (matches.hasNext())
                    found.append(QStringLiteral("%1:%2: %3")
                                     .arg(QDir(root).relativeFilePath(path))
                                     .arg(i + 1)
                                     .arg(matches.next().captured(1)));
            }
        }
    }
    found.sort();
    return found;
}

} // namespace

/// Every user-visible string goes through tr() (no literal prose handed to a widget),
/// and every one has a finished German translation. The .ts file is updated with the same command this test runs:
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

    /// Text handed to a widget as a literal never reaches the German window. (Strings
    /// built at run time are checked in the German window itself: tst_germanwindow.)
    void noLiteralProseReachesAWidget()
    {
        const QStringList found = literalsShownWithoutTr(sourceDir());
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("%1 literal(s) shown without tr():\n%2")
                                .arg(found.size())
                                .arg(found.join(QLatin1Char('\n')))));
    }

    /// The check above finds a literal in a setter, a constructor and a message box, and
    /// leaves tr(), a marked line and text without words alone.
    void theLiteralCheckFindsWhatItShould()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        QVERIFY(QDir().mkpath(temp.filePath(QStringLiteral("app/ui"))));
        QFile file(temp.filePath(QStringLiteral("app/ui/sample.cpp")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("label->setText(QStringLiteral(\"Not yet run\"));\n"
                   "auto *b = new QPushButton(QStringLiteral(\"Send\"), this);\n"
                   "QMessageBox::warning(this, tr(\"Run\"), QString::fromUtf8(\"It failed\"));\n"
                   "label->setText(tr(\"Fine\"));\n"
                   "edit->setPlaceholderText(QStringLiteral(\"API_KEY\")); // not translated: an identifier\n"
                   "label->setText(QStringLiteral(\"%1 / %2\"));\n");
        file.close();
        QCOMPARE(literalsShownWithoutTr(temp.path()),
                 QStringList({QStringLiteral("app/ui/sample.cpp:1: Not yet run"),
                              QStringLiteral("app/ui/sample.cpp:2: Send"),
                              QStringLiteral("app/ui/sample.cpp:3: It failed")}));
    }
};

QTEST_GUILESS_MAIN(TstTranslations)
#include "tst_translations.moc"
