// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "findbar.h"
#include "scripteditor.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) < 0)
        return {};
    return path;
}

const char *const PythonScript = "rate = get_exchange_rate(base='USD', quote='EUR')\n"
                                 "def convert(amount):\n"
                                 "    return amount / 0\n"
                                 "print(convert(100))\n";

const char *const Traceback = "Traceback (most recent call last):\n"
                              "  File \"/tmp/run-1234/script/main.py\", line 4, in <module>\n"
                              "    print(convert(100))\n"
                              "  File \"/tmp/run-1234/script/main.py\", line 3, in convert\n"
                              "    return amount / 0\n"
                              "  File \"/usr/lib/python3.11/helper.py\", line 2, in other\n"
                              "ZeroDivisionError: division by zero\n";

} // namespace

class TstScriptEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void lexerPerFileType_data()
    {
        QTest::addColumn<QByteArray>("fileBytes");
        QTest::addColumn<QByteArray>("languageBytes");
        QTest::addColumn<QByteArray>("lexerBytes");
        QTest::newRow("python") << QByteArray("main.py") << QByteArray("Python") << QByteArray("QsciLexerPython");
        QTest::newRow("bash") << QByteArray("run.sh") << QByteArray("Bash") << QByteArray("QsciLexerBash");
        QTest::newRow("javascript") << QByteArray("main.js") << QByteArray("JavaScript")
                                    << QByteArray("QsciLexerJavaScript");
        QTest::newRow("json") << QByteArray("toolstudio.json") << QByteArray("JSON") << QByteArray("QsciLexerJSON");
        QTest::newRow("plain text") << QByteArray("notes.txt") << QByteArray("") << QByteArray("");
    }

    void lexerPerFileType()
    {
        QFETCH(QByteArray, fileBytes);
        const QString file = QString::fromUtf8(fileBytes);
        QFETCH(QByteArray, languageBytes);
        const QString language = QString::fromUtf8(languageBytes);
        QFETCH(QByteArray, lexerBytes);
        const QString lexer = QString::fromUtf8(lexerBytes);
        QTemporaryDir dir;
        ScriptEditor editor;
        QVERIFY(editor.loadFile(writeFile(dir, file, "x\n")));
        QCOMPARE(editor.language(), language);
        QCOMPARE(editor.lexer() ? QString::fromLatin1(editor.lexer()->metaObject()->className()) : QString(), lexer);
    }

    void parsesTracebackFrames()
    {
        const QList<TracebackFrame> frames = ScriptEditor::parseTraceback(QString::fromUtf8(Traceback));
        QCOMPARE(frames.size(), 3);
        QCOMPARE(frames[0].file, QStringLiteral("/tmp/run-1234/script/main.py"));
        QCOMPARE(frames[0].line, 4);
        QCOMPARE(frames[1].line, 3);
        QCOMPARE(frames[2].file, QStringLiteral("/usr/lib/python3.11/helper.py"));
    }

    void marksTracebackLinesByBasename()
    {
        QTemporaryDir dir;
        ScriptEditor editor;
        QVERIFY(editor.loadFile(writeFile(dir, QStringLiteral("main.py"), PythonScript)));
        const QList<int> lines = editor.markTraceback(QString::fromUtf8(Traceback));
        QCOMPARE(lines, (QList<int>{3, 4}));
        QCOMPARE(editor.tracebackMessage(3), QStringLiteral("ZeroDivisionError: division by zero"));
        QCOMPARE(editor.tracebackMessage(2), QString());
        QCOMPARE(editor.markersAtLine(2) & (1 << 1), 1 << 1); // 0-based line 2 = line 3
        QCOMPARE(editor.markersAtLine(1) & (1 << 1), 0);
        editor.clearTraceback();
        QVERIFY(editor.tracebackLines().isEmpty());
        QCOMPARE(editor.markersAtLine(2) & (1 << 1), 0);
    }

    void toolCompletions()
    {
        QTemporaryDir dir;
        ScriptEditor editor;
        QVERIFY(editor.loadFile(writeFile(dir, QStringLiteral("main.py"), "x\n")));
        editor.setToolCompletions({QStringLiteral("tools.get_exchange_rate(base, quote)")});
        QCOMPARE(editor.toolCompletions(), QStringList{QStringLiteral("tools.get_exchange_rate(base, quote)")});
        QVERIFY(editor.lexer()->apis());
    }

    void detectsChangeOnDisk()
    {
        QTemporaryDir dir;
        ScriptEditor editor;
        const QString path = writeFile(dir, QStringLiteral("main.py"), "a = 1\n");
        QVERIFY(editor.loadFile(path));
        QVERIFY(!editor.changedOnDisk());
        writeFile(dir, QStringLiteral("main.py"), "a = 2\n");
        QVERIFY(editor.changedOnDisk());
        QVERIFY(editor.save());
        QVERIFY(!editor.changedOnDisk());
    }

    void findAndReplace()
    {
        QTemporaryDir dir;
        ScriptEditor editor;
        QVERIFY(editor.loadFile(writeFile(dir, QStringLiteral("main.py"), "foo = 1\nfoo = foo + 1\n")));
        FindBar bar;
        bar.setEditor(&editor);
        bar.showReplace();
        bar.findEdit()->setText(QStringLiteral("foo"));
        QVERIFY(bar.findNext());
        QCOMPARE(editor.selectedText(), QStringLiteral("foo"));
        bar.replaceEdit()->setText(QStringLiteral("bar"));
        QCOMPARE(bar.replaceAll(), 3);
        QCOMPARE(editor.text(), QStringLiteral("bar = 1\nbar = bar + 1\n"));
    }
};

QTEST_MAIN(TstScriptEditor)
#include "tst_scripteditor.moc"
