// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaform.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using json = nlohmann::json;

namespace {

// Simulated input, one action per line: "type POINTER TEXT", "click POINTER" (check
// box), "include POINTER", "choose POINTER N" (combo, by key presses), "branch POINTER N",
// "add POINTER", "remove POINTER", "down POINTER", "up POINTER", "send" (Send pressed).
void perform(SchemaForm &form, const QString &script)
{
    const QStringList lines = script.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const QString verb = line.section(QLatin1Char(' '), 0, 0);
        if (verb == QLatin1String("send")) {
            form.revealErrors();
            continue;
        }
        const QString pointer = line.section(QLatin1Char(' '), 1, 1);
        const QString arg = line.section(QLatin1Char(' '), 2);
        const QString role
            = verb == QLatin1String("type") || verb == QLatin1String("click") || verb == QLatin1String("choose")
            ? QStringLiteral("editor")
            : verb;
        QWidget *control = form.control(pointer, role);
        QVERIFY2(control, qPrintable(QStringLiteral("no %1 control at '%2'").arg(role, pointer)));
        if (verb == QLatin1String("type")) {
            auto *edit = qobject_cast<QLineEdit *>(control);
            QVERIFY(edit);
            edit->selectAll();
            QTest::keyClick(edit, Qt::Key_Backspace);
            QTest::keyClicks(edit, arg);
        } else if (verb == QLatin1String("choose") || verb == QLatin1String("branch")) {
            auto *combo = qobject_cast<QComboBox *>(control);
            QVERIFY(combo);
            QTest::keyClick(combo, Qt::Key_Home);
            for (int i = 0; i < arg.toInt(); ++i)
                QTest::keyClick(combo, Qt::Key_Down);
            QCOMPARE(combo->currentIndex(), arg.toInt());
        } else {
            auto *button = qobject_cast<QAbstractButton *>(control);
            QVERIFY(button);
            QVERIFY2(button->isEnabled(), qPrintable(line));
            button->click();
        }
    }
}

json parse(const QString &text)
{
    return json::parse(text.toStdString());
}

json parse(const char *text)
{
    return json::parse(text);
}

} // namespace

class TstSchemaForm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void producesExactJson_data()
    {
        QTest::addColumn<QByteArray>("schemaBytes");
        QTest::addColumn<QByteArray>("actionsBytes");
        QTest::addColumn<QByteArray>("expectedBytes");

        QTest::newRow("string") << QByteArray(
            R"({"type":"object","properties":{"s":{"type":"string"}},"required":["s"]})")
                                << QByteArray("type /s hello world") << QByteArray(R"({"s":"hello world"})");
        QTest::newRow("string enum as combo") << QByteArray(
            R"({"type":"object","properties":{"c":{"type":"string","enum":["EUR","GBP","JPY"]}},"required":["c"]})")
                                              << QByteArray("choose /c 1") << QByteArray(R"({"c":"GBP"})");
        QTest::newRow("integer is a number") << QByteArray(
            R"({"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":10}},"required":["n"]})")
                                             << QByteArray("type /n 7") << QByteArray(R"({"n":7})");
        QTest::newRow("integer typed as 1e3 is 1000")
            << QByteArray(R"({"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]})")
            << QByteArray("type /n 1e3") << QByteArray(R"({"n":1000})");
        QTest::newRow("integer typed as 2.0 is 2")
            << QByteArray(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})")
            << QByteArray("type /n 2.0") << QByteArray(R"({"n":2})");
        QTest::newRow("integer typed as -2.5E2 is -250")
            << QByteArray(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})")
            << QByteArray("type /n -2.5E2") << QByteArray(R"({"n":-250})");
        QTest::newRow("number keeps its fraction")
            << QByteArray(R"({"type":"object","properties":{"x":{"type":"number"}},"required":["x"]})")
            << QByteArray("type /x 2.5") << QByteArray(R"({"x":2.5})");
        QTest::newRow("boolean") << QByteArray(
            R"({"type":"object","properties":{"b":{"type":"boolean"}},"required":["b"]})")
                                 << QByteArray("click /b") << QByteArray(R"({"b":true})");
        QTest::newRow("optional property omitted") << QByteArray(
            R"({"type":"object","properties":{"o":{"type":"string"},"r":{"type":"string"}},"required":["r"]})")
                                                   << QByteArray("type /r x") << QByteArray(R"({"r":"x"})");
        QTest::newRow("optional property included")
            << QByteArray(R"({"type":"object","properties":{"o":{"type":"string"}}})")
            << QByteArray("include /o\ntype /o y") << QByteArray(R"({"o":"y"})");
        QTest::newRow("null branch of a type list")
            << QByteArray(R"({"type":"object","properties":{"v":{"type":["string","null"]}},"required":["v"]})")
            << QByteArray("branch /v 1") << QByteArray(R"({"v":null})");
        QTest::newRow("anyOf branch") << QByteArray(
            R"({"type":"object","properties":{"id":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"required":["id"]})")
                                      << QByteArray("branch /id 1\ntype /id 12") << QByteArray(R"({"id":12})");
        QTest::newRow("array add and reorder") << QByteArray(
            R"({"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}},"required":["tags"]})")
                                               << QByteArray(
                                                      "add /tags\nadd /tags\ntype /tags/0 a\ntype /tags/1 b\ndown /tags/0")
                                               << QByteArray(R"({"tags":["b","a"]})");
        QTest::newRow("array remove") << QByteArray(
            R"({"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}},"required":["n"]})")
                                      << QByteArray("add /n\nadd /n\ntype /n/0 1\ntype /n/1 2\nremove /n/0")
                                      << QByteArray(R"({"n":[2]})");
        QTest::newRow("array of objects") << QByteArray(
            R"({"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"number"}},"required":["k","v"]}}},"required":["rows"]})")
                                          << QByteArray("add /rows\ntype /rows/0/k a\ntype /rows/0/v 1.5")
                                          << QByteArray(R"({"rows":[{"k":"a","v":1.5}]})");
        QTest::newRow("nested object") << QByteArray(
            R"({"type":"object","properties":{"address":{"type":"object","properties":{"city":{"type":"string"},"zip":{"type":"string"}},"required":["city"]}},"required":["address"]})")
                                       << QByteArray("type /address/city Berlin")
                                       << QByteArray(R"({"address":{"city":"Berlin"}})");
        // Issue 20: an optional property left untouched is omitted, its default shown only.
        QTest::newRow("untouched optional defaults omitted") << QByteArray(
            R"({"type":"object","properties":{"currency":{"type":"string","default":"EUR"},"count":{"type":"integer","default":1},"note":{"type":"string"}}})")
                                                             << QByteArray("") << QByteArray(R"({})");
        QTest::newRow("ticked optional default sent") << QByteArray(
            R"({"type":"object","properties":{"currency":{"type":"string","default":"EUR"},"count":{"type":"integer","default":1},"note":{"type":"string"}}})")
                                                      << QByteArray("include /currency")
                                                      << QByteArray(R"({"currency":"EUR"})");
        // A cleared optional field is omitted, not sent as "" (a string) or null (a number).
        QTest::newRow("cleared optional fields omitted")
            << QByteArray(R"({"type":"object","properties":{"o":{"type":"string"},"n":{"type":"integer"}}})")
            << QByteArray("include /o\ntype /o y\ntype /o \ninclude /n\ntype /n 3\ntype /n ") << QByteArray(R"({})");
        QTest::newRow("ticked and typed optional fields sent")
            << QByteArray(R"({"type":"object","properties":{"o":{"type":"string"},"n":{"type":"integer"}}})")
            << QByteArray("include /o\ntype /o \ntype /o z\ninclude /n\ntype /n 0") << QByteArray(R"({"n":0,"o":"z"})");
        QTest::newRow("required default sent") << QByteArray(
            R"({"type":"object","properties":{"count":{"type":"integer","default":2},"note":{"type":"string","default":"x"}},"required":["count"]})")
                                               << QByteArray("") << QByteArray(R"({"count":2})");
    }

    void producesExactJson()
    {
        QFETCH(QByteArray, schemaBytes);
        const QString schema = QString::fromUtf8(schemaBytes);
        QFETCH(QByteArray, actionsBytes);
        const QString actions = QString::fromUtf8(actionsBytes);
        QFETCH(QByteArray, expectedBytes);
        const QString expected = QString::fromUtf8(expectedBytes);
        SchemaForm form;
        form.setSchema(parse(schema));
        form.show();
        perform(form, actions);
        QCOMPARE(QString::fromStdString(form.value().dump()), QString::fromStdString(parse(expected).dump()));
        QVERIFY2(form.isValid(), qPrintable(form.problem() ? form.problem()->toString() : QString()));
    }

    void validationMessageAtTheField_data()
    {
        QTest::addColumn<QByteArray>("schemaBytes");
        QTest::addColumn<QByteArray>("actionsBytes");
        QTest::addColumn<QByteArray>("pointerBytes");
        QTest::addColumn<QByteArray>("messageBytes");

        QTest::newRow("not a number") << QByteArray(
            R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})")
                                      << QByteArray("type /n abc") << QByteArray("/n")
                                      << QByteArray("“abc” is not a number");
        QTest::newRow("empty required number")
            << QByteArray(R"({"type":"object","properties":{"n":{"type":"number"}},"required":["n"]})")
            << QByteArray("send") << QByteArray("/n") << QByteArray("enter a number");
        QTest::newRow("below minimum") << QByteArray(
            R"({"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]})")
                                       << QByteArray("type /n 0") << QByteArray("/n")
                                       << QByteArray("expected number greater than or equal to 1");
        QTest::newRow("pattern in nested object") << QByteArray(
            R"({"type":"object","properties":{"a":{"type":"object","properties":{"zip":{"type":"string","pattern":"^[0-9]{5}$"}},"required":["zip"]}},"required":["a"]})")
                                                  << QByteArray("type /a/zip 12a") << QByteArray("/a/zip")
                                                  << QByteArray("does not match the pattern ^[0-9]{5}$");
    }

    void validationMessageAtTheField()
    {
        QFETCH(QByteArray, schemaBytes);
        const QString schema = QString::fromUtf8(schemaBytes);
        QFETCH(QByteArray, actionsBytes);
        const QString actions = QString::fromUtf8(actionsBytes);
        QFETCH(QByteArray, pointerBytes);
        const QString pointer = QString::fromUtf8(pointerBytes);
        QFETCH(QByteArray, messageBytes);
        const QString message = QString::fromUtf8(messageBytes);
        SchemaForm form;
        form.setSchema(parse(schema));
        form.show();
        perform(form, actions);
        QVERIFY(!form.isValid());
        QCOMPARE(form.problem()->pointer, pointer);
        QCOMPARE(form.errorAt(pointer), message);
    }

    void errorsWaitForAnEditOrSend()
    {
        SchemaForm form;
        form.setSchema(parse(
            R"({"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","minLength":2}},"required":["n","s"]})"));
        form.show();
        auto *problem = form.findChild<QLabel *>(QStringLiteral("problem"));
        // Fresh: invalid (both are required), but nothing is shown yet.
        QVERIFY(!form.isValid());
        QCOMPARE(form.errorAt(QStringLiteral("/n")), QString());
        QCOMPARE(form.errorAt(QStringLiteral("/s")), QString());
        QCOMPARE(problem->text(), QString());
        // An edited field shows its own error even while another required one is empty.
        perform(form, QStringLiteral("type /s x"));
        QCOMPARE(form.errorAt(QStringLiteral("/s")),
                 QStringLiteral("expected a string of at least 2 characters, got 1"));
        QCOMPARE(form.errorAt(QStringLiteral("/n")), QString());
        QCOMPARE(problem->text(), QStringLiteral("/s: expected a string of at least 2 characters, got 1"));
        perform(form, QStringLiteral("type /s xy"));
        QCOMPARE(form.errorAt(QStringLiteral("/s")), QString());
        QCOMPARE(problem->text(), QString());
        // Send shows what is still missing.
        perform(form, QStringLiteral("send"));
        QCOMPARE(form.errorAt(QStringLiteral("/n")), QStringLiteral("enter an integer"));
        QCOMPARE(problem->text(), QStringLiteral("/n: enter an integer"));
        perform(form, QStringLiteral("type /n 0"));
        QCOMPARE(form.errorAt(QStringLiteral("/n")), QStringLiteral("expected number greater than or equal to 1"));
        perform(form, QStringLiteral("type /n 2"));
        QVERIFY(form.isValid());
        QCOMPARE(problem->text(), QStringLiteral("Valid"));
        QCOMPARE(QString::fromStdString(form.value().dump()), QStringLiteral(R"({"n":2,"s":"xy"})"));
        // A new schema starts quiet again.
        form.setSchema(parse(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})"));
        QVERIFY(!form.errorsRevealed());
        QCOMPARE(form.errorAt(QStringLiteral("/n")), QString());
    }

    /// Issue 20: "" is valid for a plain string, but a newcomer reads "Valid" as "ready":
    /// required strings left empty and untouched are named (neutral colour, Send allowed).
    void validSaysWhatIsStillEmpty_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("script");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QStringList>("empty");
        QTest::addColumn<QString>("label");
        const QByteArray exchange
            = R"({"type":"object","properties":{"base":{"type":"string"},"quote":{"type":"string"},"amount":{"type":"number"}},"required":["base","quote"]})";
        QTest::newRow("fresh, two empty")
            << exchange << QString() << true << QStringList{QStringLiteral("/base"), QStringLiteral("/quote")}
            << QStringLiteral("Required, still empty: base and quote");
        QTest::newRow("one typed") << exchange << QStringLiteral("type /base USD") << true
                                   << QStringList{QStringLiteral("/quote")}
                                   << QStringLiteral("Required, still empty: quote");
        // Typed and cleared again: the person chose "", the form takes them at their word.
        QTest::newRow("typed, then cleared")
            << exchange << QStringLiteral("type /base USD\ntype /quote EUR\ntype /quote ") << true << QStringList()
            << QStringLiteral("Valid");
        QTest::newRow("an optional property is no reason")
            << exchange << QStringLiteral("type /base USD\ntype /quote EUR\ninclude /amount") << true << QStringList()
            << QStringLiteral("Valid"); // ticked and left empty: omitted, not sent
        QTest::newRow("three") << QByteArray(
            R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}},"required":["a","b","c"]})")
                               << QString() << true
                               << QStringList{QStringLiteral("/a"), QStringLiteral("/b"), QStringLiteral("/c")}
                               << QStringLiteral("Required, still empty: a, b and c");
        QTest::newRow("six: three named, the rest counted") << QByteArray(
            R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"},"f":{"type":"string"}},"required":["a","b","c","d","e","f"]})")
                                                            << QString() << true
                                                            << QStringList{QStringLiteral("/a"), QStringLiteral("/b"),
                                                                           QStringLiteral("/c"), QStringLiteral("/d"),
                                                                           QStringLiteral("/e"), QStringLiteral("/f")}
                                                            << QStringLiteral(
                                                                   "Required, still empty: a, b, c and 3 more");
        QTest::newRow("nested, and a string-or-null") << QByteArray(
            R"({"type":"object","properties":{"a":{"type":"object","properties":{"zip":{"type":"string"}},"required":["zip"]},"n":{"type":["string","null"]}},"required":["a","n"]})")
                                                      << QString() << true
                                                      << QStringList{QStringLiteral("/a/zip"), QStringLiteral("/n")}
                                                      << QStringLiteral("Required, still empty: a/zip and n");
        // A name is the schema's: shown as text, controls made visible.
        QTest::newRow("a name with markup and a control character") << QByteArray(
            R"({"type":"object","properties":{"<i>a\u0007</i>":{"type":"string"}},"required":["<i>a\u0007</i>"]})")
                                                                    << QString() << true
                                                                    << QStringList{QStringLiteral("/<i>a\a<~1i>")}
                                                                    << QStringLiteral(
                                                                           "Required, still empty: <i>a\\u0007</i>");
        // The shipped exchange-rate tool: "" does not match ^[A-Z]{3}$, so the form is not
        // valid and, untouched, says nothing yet (Send shows the errors).
        QTest::newRow("exchange-rate example: a pattern refuses \"\"") << QByteArray(
            R"({"type":"object","properties":{"base":{"type":"string","pattern":"^[A-Z]{3}$"},"quote":{"type":"string","pattern":"^[A-Z]{3}$"}},"required":["base","quote"],"additionalProperties":false})")
                                                                       << QString() << false
                                                                       << QStringList{QStringLiteral("/base"),
                                                                                      QStringLiteral("/quote")}
                                                                       << QString();
    }

    void validSaysWhatIsStillEmpty()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, script);
        QFETCH(bool, valid);
        QFETCH(QStringList, empty);
        QFETCH(QString, label);
        SchemaForm form;
        form.setSchema(parse(schema.constData()));
        form.show();
        perform(form, script);
        auto *problem = form.findChild<QLabel *>(QStringLiteral("problem"));
        QVERIFY(problem);
        QCOMPARE(form.isValid(), valid);
        QCOMPARE(form.untouchedEmptyFields(), empty);
        QCOMPARE(problem->text(), label);
        QCOMPARE(problem->styleSheet(), QString()); // neutral: not the red of an error
        QCOMPARE(problem->textFormat(), Qt::PlainText);
    }

    void secretStringsAreMasked()
    {
        SchemaForm form;
        form.setSchema(parse(
            R"({"type":"object","properties":{"key":{"type":"string","writeOnly":true},"pin":{"type":"string","format":"password"},"name":{"type":"string"}}})"));
        QCOMPARE(qobject_cast<QLineEdit *>(form.control(QStringLiteral("/key")))->echoMode(), QLineEdit::Password);
        QCOMPARE(qobject_cast<QLineEdit *>(form.control(QStringLiteral("/pin")))->echoMode(), QLineEdit::Password);
        QCOMPARE(qobject_cast<QLineEdit *>(form.control(QStringLiteral("/name")))->echoMode(), QLineEdit::Normal);
        form.setRawToggleVisible(false);
        QVERIFY(form.rawToggle()->isHidden());
    }

    /// A property's `title` (how an MCP elicitation labels its fields) is shown with the
    /// name the JSON uses; a server's markup stays text.
    void titlesLabelTheFields()
    {
        SchemaForm form;
        form.setSchema(parse(
            R"({"type":"object","required":["time","<b>x</b>"],"properties":{"time":{"type":"string","title":"Time"},)"
            R"("note":{"type":"string","title":"Note for the restaurant"},"<b>x</b>":{"type":"string"},)"
            R"("same":{"type":"string","title":"same"}}})"));
        QStringList labels;
        for (const QLabel *label : form.findChildren<QLabel *>())
            if (label->text().endsWith(QLatin1String(" *"))) {
                labels << label->text();
                QCOMPARE(label->textFormat(), Qt::PlainText);
            }
        labels.sort();
        QCOMPARE(labels, QStringList({QStringLiteral("<b>x</b> *"), QStringLiteral("Time (time) *")}));
        QStringList boxes;
        for (const QCheckBox *box : form.findChildren<QCheckBox *>())
            if (box->objectName() == QLatin1String("include"))
                boxes << box->text();
        boxes.sort();
        QCOMPARE(boxes, QStringList({QStringLiteral("Note for the restaurant (note)"), QStringLiteral("same")}));
    }

    void rawJsonStaysInSync()
    {
        SchemaForm form;
        form.setSchema(
            parse(R"({"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}},"required":["n"]})"));
        form.show();
        perform(form, QStringLiteral("type /n 3"));
        form.rawToggle()->click();
        QVERIFY(form.isRawMode());
        QCOMPARE(form.rawEdit()->toPlainText(), QStringLiteral("{\n  \"n\": 3\n}"));
        form.rawEdit()->setPlainText(QStringLiteral(R"({"n": 5, "s": "x", "extra": true})"));
        QCOMPARE(QString::fromStdString(form.value().dump()), QStringLiteral(R"({"extra":true,"n":5,"s":"x"})"));
        form.rawToggle()->click();
        QVERIFY(!form.isRawMode());
        QCOMPARE(qobject_cast<QLineEdit *>(form.control(QStringLiteral("/n")))->text(), QStringLiteral("5"));
        QVERIFY(qobject_cast<QCheckBox *>(form.control(QStringLiteral("/s"), QStringLiteral("include")))->isChecked());
        // Keys the schema does not know survive the round trip through the form.
        QCOMPARE(QString::fromStdString(form.value().dump()), QStringLiteral(R"({"extra":true,"n":5,"s":"x"})"));
        form.rawToggle()->click();
        form.rawEdit()->setPlainText(QStringLiteral("{\"n\": "));
        QVERIFY(!form.isValid());
        QVERIFY2(form.problem()->message.startsWith(QLatin1String("malformed JSON")),
                 qPrintable(form.problem()->message));
        // Issue 16: the raw text was parsed without the depth bound (and then copied and
        // validated: 100 000 levels crashed the window).
        form.rawEdit()->setPlainText(QStringLiteral("{\"n\": ") + QString(100000, QLatin1Char('['))
                                     + QString(100000, QLatin1Char(']')) + QLatin1Char('}'));
        QVERIFY(!form.isValid());
        QCOMPARE(form.problem()->message,
                 QStringLiteral("malformed JSON at line 1, column 134: nested deeper than 128 levels"));
    }

    void ctrlEnterSubmits()
    {
        SchemaForm form;
        form.setSchema(parse(R"({"type":"object","properties":{"s":{"type":"string"}},"required":["s"]})"));
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));
        QSignalSpy submitted(&form, &SchemaForm::submitted);
        QWidget *edit = form.control(QStringLiteral("/s"));
        edit->setFocus();
        QTest::keyClick(edit, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(submitted.count(), 1);
    }
};

QTEST_MAIN(TstSchemaForm)
#include "tst_schemaform.moc"
