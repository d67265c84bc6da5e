// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsontreemodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

class TstJsonTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scalarsShowAsTheirJson_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("shown");
        QTest::newRow("null") << QStringLiteral("null") << QStringLiteral("null");
        QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("0");
        QTest::newRow("false") << QStringLiteral("false") << QStringLiteral("false");
        QTest::newRow("empty string") << QStringLiteral("\"\"") << QStringLiteral("\"\"");
        QTest::newRow("empty array") << QStringLiteral("[]") << QStringLiteral("[]");
        QTest::newRow("empty object") << QStringLiteral("{}") << QStringLiteral("{}");
        QTest::newRow("array") << QStringLiteral("[1,2,3]") << QStringLiteral("[3 items]");
        QTest::newRow("object") << QStringLiteral("{\"a\":1}") << QStringLiteral("{1 key}");
        QTest::newRow("float") << QStringLiteral("0.92") << QStringLiteral("0.92");
    }

    void scalarsShowAsTheirJson()
    {
        QFETCH(QString, json);
        QFETCH(QString, shown);
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJson(nlohmann::json::parse(json.toStdString()), QStringLiteral("result"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, JsonTreeModel::Key).data().toString(), QStringLiteral("result"));
        QCOMPARE(model.index(0, JsonTreeModel::Value).data().toString(), shown);
    }

    void treeOfNestedValues()
    {
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJson(nlohmann::json::parse("{\"b\": [10, {\"x/y\": true}], \"a\": \"text\"}"), QStringLiteral("args"));
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(model.rowCount(root), 2);
        // nlohmann::json objects keep keys sorted.
        QCOMPARE(model.index(0, 0, root).data().toString(), QStringLiteral("a"));
        QCOMPARE(model.index(0, 1, root).data().toString(), QStringLiteral("\"text\""));
        const QModelIndex b = model.index(1, 0, root);
        QCOMPARE(model.rowCount(b), 2);
        QCOMPARE(model.index(0, 1, b).data().toString(), QStringLiteral("10"));
        const QModelIndex inner = model.index(1, 0, b);
        QCOMPARE(model.index(0, 0, inner).data().toString(), QStringLiteral("x/y"));
        QCOMPARE(model.index(0, 0, inner).data(JsonTreeModel::JsonPointerRole).toString(), QStringLiteral("/b/1/x~1y"));
        QCOMPARE(model.parent(model.index(0, 0, inner)), inner);
        QCOMPARE(model.jsonAt(inner).dump(), std::string("{\"x/y\":true}"));
    }

    // Lazy: a 100 000-element array reports its size without making a node per element.
    void largeArrayIsLazy()
    {
        nlohmann::json big = nlohmann::json::array();
        for (int i = 0; i < 100000; ++i)
            big.push_back(i);
        JsonTreeModel model;
        model.setJson(big, QStringLiteral("result"));
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(model.rowCount(root), 100000);
        QCOMPARE(model.builtNodeCount(), 1);
        QCOMPARE(model.index(99999, 1, root).data().toString(), QStringLiteral("99999"));
        QCOMPARE(model.index(99999, 0, root).data().toString(), QStringLiteral("99999"));
        QCOMPARE(model.builtNodeCount(), 2);
        QVERIFY(!model.index(100000, 0, root).isValid());
    }

    void longStringsAreElidedWithTheWholeValueAtHand()
    {
        const std::string text(5000, 'x');
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJson({{"report", text}, {"short", "ok"}}, QStringLiteral("result"));
        const QModelIndex root = model.index(0, 0);
        const QModelIndex report = model.index(0, JsonTreeModel::Value, root);
        const QString shown = report.data().toString();
        QCOMPARE(shown.size(), JsonTreeModel::MaxStringChars + 3); // quote, 120 chars, ellipsis, quote
        QVERIFY(shown.endsWith(QStringLiteral("x\u2026\"")));
        QVERIFY(report.data(JsonTreeModel::IsElidedRole).toBool());
        QCOMPARE(report.data(JsonTreeModel::FullTextRole).toString(), QString::fromStdString(text));
        QCOMPARE(report.data(Qt::ToolTipRole).toString(),
                 QStringLiteral("5000 characters; choose \"Show All\" to see the whole string"));
        const QModelIndex shortValue = model.index(1, JsonTreeModel::Value, root);
        QVERIFY(!shortValue.data(JsonTreeModel::IsElidedRole).toBool());
        QCOMPARE(shortValue.data().toString(), QStringLiteral("\"ok\""));
    }

    void clearEmpties()
    {
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJson({1, 2});
        QCOMPARE(model.rowCount(), 1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstJsonTreeModel)
#include "tst_jsontreemodel.moc"
