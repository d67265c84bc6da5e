// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcomparemodel.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QTest>

namespace {

Step makeStep(int sequence, const char *tool, nlohmann::json args, nlohmann::json result,
              StepStatus status = StepStatus::Succeeded)
{
    Step step;
    step.callId = QStringLiteral("c%1").arg(sequence);
    step.sequence = sequence;
    step.tool = QString::fromLatin1(tool);
    step.args = std::move(args);
    step.status = status;
    if (status == StepStatus::Failed) {
        StepError error;
        error.code = ErrorCode::ToolFailed;
        error.message = result.get<std::string>();
        step.error = error;
    } else {
        step.result = std::move(result);
    }
    step.queuedAt = 1000;
    step.endedAt = 1000 + 10 * sequence;
    return step;
}

// One row as "A# tool | diff | B# tool", gaps as "-".
QString rowText(const RunCompareModel &model, int row)
{
    const auto cell = [&](int column) {
        const QString text = model.index(row, column).data().toString();
        return text.isEmpty() ? QStringLiteral("-") : text;
    };
    return QStringLiteral("%1 %2 | %3 | %4 %5")
        .arg(cell(RunCompareModel::LeftSequence), cell(RunCompareModel::LeftTool), cell(RunCompareModel::Difference),
             cell(RunCompareModel::RightSequence), cell(RunCompareModel::RightTool));
}

} // namespace

class TstRunCompareModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lcs_data()
    {
        QTest::addColumn<QStringList>("a");
        QTest::addColumn<QStringList>("b");
        QTest::addColumn<QString>("pairs");
        const auto list
            = [](const char *text) { return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts); };
        QTest::newRow("equal") << list("x y z") << list("x y z") << QStringLiteral("0-0 1-1 2-2");
        QTest::newRow("inserted in b") << list("x y z") << list("x q y z") << QStringLiteral("0-0 1-2 2-3");
        QTest::newRow("removed from b") << list("x y z") << list("x z") << QStringLiteral("0-0 2-1");
        QTest::newRow("empty a") << list("") << list("x") << QString();
        QTest::newRow("nothing common") << list("a b") << list("c d") << QString();
        QTest::newRow("middle reordered")
            << list("s a b c e") << list("s c a b e") << QStringLiteral("0-0 1-2 2-3 4-4");
        QTest::newRow("repeated calls") << list("x x y") << list("x y x y") << QStringLiteral("0-0 1-2 2-3");
    }

    void lcs()
    {
        QFETCH(QStringList, a);
        QFETCH(QStringList, b);
        QFETCH(QString, pairs);
        QStringList text;
        for (const auto &[i, j] : RunCompareModel::longestCommonSubsequence(a, b))
            text.append(QStringLiteral("%1-%2").arg(i).arg(j));
        QCOMPARE(text.join(QLatin1Char(' ')), pairs);
    }

    // Issue 8: "compare alignment with an inserted step". Run B made one more call
    // (lookup_price for XYZ) between the two fetches; its charge result differs.
    void alignmentWithAnInsertedStep()
    {
        std::vector<Step> a = {
            makeStep(1, "fetch_page", {{"url", "https://example.org/1"}}, {{"status", 200}}),
            makeStep(2, "lookup_price", {{"sku", "ABC"}}, 12.5),
            makeStep(3, "fetch_page", {{"url", "https://example.org/2"}}, {{"status", 200}}),
            makeStep(4, "charge_card", {{"amount", 12.5}}, "card declined", StepStatus::Failed),
        };
        std::vector<Step> b = {
            makeStep(1, "fetch_page", {{"url", "https://example.org/1"}}, {{"status", 200}}),
            makeStep(2, "lookup_price", {{"sku", "ABC"}}, 12.5),
            makeStep(3, "lookup_price", {{"sku", "XYZ"}}, 3),
            makeStep(4, "fetch_page", {{"url", "https://example.org/2"}}, {{"status", 200}}),
            makeStep(5, "charge_card", {{"amount", 12.5}}, {{"ok", true}}),
        };
        RunCompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(a, b);

        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(rowText(model, 0), QStringLiteral("1 fetch_page | = | 1 fetch_page"));
        QCOMPARE(rowText(model, 1), QStringLiteral("2 lookup_price | = | 2 lookup_price"));
        QCOMPARE(rowText(model, 2), QStringLiteral("- - | + | 3 lookup_price"));
        QCOMPARE(rowText(model, 3), QStringLiteral("3 fetch_page | = | 4 fetch_page"));
        QCOMPARE(rowText(model, 4), QStringLiteral("4 charge_card | \u2260 | 5 charge_card"));

        // The inserted step is a gap on the left.
        QCOMPARE(model.index(2, RunCompareModel::Difference).data(RunCompareModel::DifferenceRole).toInt(),
                 int(RunCompareModel::Diff::OnlyRight));
        QCOMPARE(model.index(2, RunCompareModel::LeftTool).data(RunCompareModel::LeftCallIdRole).toString(), QString());
        QCOMPARE(model.index(2, RunCompareModel::RightTool).data(RunCompareModel::RightCallIdRole).toString(),
                 QStringLiteral("c3"));
        QCOMPARE(model.index(2, RunCompareModel::LeftTool).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(128, 128, 128, 40));
        QCOMPARE(model.index(2, RunCompareModel::RightTool).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(67, 160, 71, 60));

        // The changed step: status and result cells highlighted, the tool not.
        QCOMPARE(model.index(4, RunCompareModel::LeftStatus).data().toString(), QStringLiteral("failed"));
        QCOMPARE(model.index(4, RunCompareModel::RightStatus).data().toString(), QStringLiteral("succeeded"));
        QCOMPARE(model.index(4, RunCompareModel::LeftResult).data().toString(),
                 QStringLiteral("tool_failed: card declined"));
        QCOMPARE(model.index(4, RunCompareModel::RightResult).data().toString(), QStringLiteral("{\"ok\":true}"));
        QCOMPARE(model.index(4, RunCompareModel::LeftStatus).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(251, 140, 0, 80));
        QCOMPARE(model.index(4, RunCompareModel::RightResult).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(251, 140, 0, 80));
        QVERIFY(!model.index(4, RunCompareModel::LeftTool).data(Qt::BackgroundRole).isValid());
        QVERIFY(!model.index(0, RunCompareModel::LeftResult).data(Qt::BackgroundRole).isValid());

        QCOMPARE(model.counts(), (std::array<int, 4>{3, 1, 0, 1}));
        QCOMPARE(model.index(0, RunCompareModel::LeftDuration).data().toString(), QStringLiteral("10 ms"));

        // Swapped, the same step is a gap on the right.
        model.setRuns(b, a);
        QCOMPARE(rowText(model, 2), QStringLiteral("3 lookup_price | \u2212 | - -"));
        QCOMPARE(model.counts(), (std::array<int, 4>{3, 1, 1, 0}));
    }

    // Different arguments are different calls: the step shows on both sides, unpaired.
    void changedArgumentsAreNotAligned()
    {
        RunCompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({makeStep(1, "lookup_price", {{"sku", "ABC"}}, 1)},
                      {makeStep(1, "lookup_price", {{"sku", "XYZ"}}, 1)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(rowText(model, 0), QStringLiteral("1 lookup_price | \u2212 | - -"));
        QCOMPARE(rowText(model, 1), QStringLiteral("- - | + | 1 lookup_price"));
        model.setRuns({}, {});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TstRunCompareModel)
#include "tst_runcomparemodel.moc"
