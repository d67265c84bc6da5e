// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The step inspector's Protocol tab (ProtocolView, docs/trace.md): shown only for a step
// with a recorded exchange; one row per message; the selected one pretty-printed; an
// attempt selector for several attempts; Copy and Copy All.

#include "protocolview.h"
#include "stepinspector.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>
#include <QTextCursor>
#include <QTreeWidget>

using nlohmann::json;

namespace {

const char *Exchange = R"({"startedAt": 1700000000000, "messages": [
  {"direction": "sent", "offsetMs": 0, "message": {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
    "params": {"name": "slow", "arguments": {"n": 3}, "_meta": {"progressToken": 4}}}},
  {"direction": "received", "offsetMs": 12, "message": {"jsonrpc": "2.0", "method": "notifications/progress",
    "params": {"progressToken": 4, "progress": 3, "total": 10}}},
  {"direction": "received", "offsetMs": 15, "message": {"jsonrpc": "2.0", "id": 0, "method": "elicitation/create",
    "params": {"message": "Who?"}}},
  {"direction": "sent", "offsetMs": 2040, "message": {"jsonrpc": "2.0", "id": 0, "result": {"action": "decline"}}},
  {"direction": "received", "offsetMs": 2100, "kind": "result", "id": 7, "bytes": 70000, "head": "[1,2,3,4"}],
 "omittedMessages": 4, "omittedBytes": 512})";

Step mcpStep()
{
    Step step;
    step.callId = QStringLiteral("c1");
    step.sequence = 1;
    step.tool = QStringLiteral("fake__slow");
    step.status = StepStatus::Succeeded;
    Attempt first;
    first.number = 1;
    first.protocol = json::parse(R"({"startedAt": 1, "messages": [{"direction": "sent", "offsetMs": 0,
      "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "slow"}}}]})");
    Attempt second;
    second.number = 2;
    second.succeeded = true;
    second.protocol = json::parse(Exchange);
    step.attempts = {first, second};
    return step;
}

QStringList rows(const QTreeWidget *tree)
{
    QStringList texts;
    for (int row = 0; row < tree->topLevelItemCount(); ++row)
        texts << tree->topLevelItem(row)->text(0) + u' ' + tree->topLevelItem(row)->text(1);
    return texts;
}

} // namespace

class TstProtocolView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsAndSelection()
    {
        StepInspector inspector;
        inspector.resize(900, 600);
        inspector.show();
        auto *tabs = inspector.findChild<QTabWidget *>();
        QVERIFY(tabs);
        const auto protocolTab = [tabs] {
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i) == QLatin1String("Protocol"))
                    return i;
            return -1;
        };
        QVERIFY(protocolTab() >= 0);

        Step plain = mcpStep();
        for (Attempt &attempt : plain.attempts)
            attempt.protocol = nullptr;
        inspector.setStep(&plain);
        QVERIFY(!tabs->isTabVisible(protocolTab()));

        const Step step = mcpStep();
        inspector.setStep(&step);
        QVERIFY(tabs->isTabVisible(protocolTab()));
        tabs->setCurrentIndex(protocolTab());
        auto *messages = inspector.findChild<QTreeWidget *>(QStringLiteral("protocolMessages"));
        auto *message = inspector.findChild<QPlainTextEdit *>(QStringLiteral("protocolMessage"));
        auto *attempt = inspector.findChild<QComboBox *>(QStringLiteral("protocolAttempt"));
        auto *omitted = inspector.findChild<QLabel *>(QStringLiteral("protocolOmitted"));
        QVERIFY(messages && message && attempt && omitted);
        // The last attempt first.
        QVERIFY(attempt->isVisible());
        QCOMPARE(attempt->count(), 2);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 2"));
        QCOMPARE(rows(messages),
                 QStringList({QStringLiteral("+0 ms → request tools/call #7"),
                              QStringLiteral("+12 ms ← notification notifications/progress 3/10"),
                              QStringLiteral("+15 ms ← request elicitation/create #0"),
                              QStringLiteral("+2040 ms → response #0"),
                              QStringLiteral("+2100 ms ← response #7 result (70000 bytes, clipped)")}));
        QCOMPARE(omitted->text(), QStringLiteral("4 more messages, 512 bytes, not kept"));
        // The first row is selected: the request as sent, pretty.
        QCOMPARE(message->toPlainText(),
                 QString::fromStdString(json::parse(Exchange)["messages"][0]["message"].dump(2)));
        messages->setCurrentItem(messages->topLevelItem(1));
        QCOMPARE(message->toPlainText(),
                 QStringLiteral("{\n"
                                "  \"jsonrpc\": \"2.0\",\n"
                                "  \"method\": \"notifications/progress\",\n"
                                "  \"params\": {\n"
                                "    \"progress\": 3,\n"
                                "    \"progressToken\": 4,\n"
                                "    \"total\": 10\n"
                                "  }\n"
                                "}"));
        messages->setCurrentItem(messages->topLevelItem(4));
        QCOMPARE(message->toPlainText(),
                 QStringLiteral("(a message of 70000 bytes; its first 8 bytes of compact JSON:)\n[1,2,3,4"));

        // Copy: the selected message; Copy All: the attempt's messages as a JSON array.
        messages->setCurrentItem(messages->topLevelItem(3));
        QTest::mouseClick(inspector.findChild<QPushButton *>(QStringLiteral("copyProtocolMessage")), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(),
                 QStringLiteral(
                     "{\n  \"id\": 0,\n  \"jsonrpc\": \"2.0\",\n  \"result\": {\n    \"action\": \"decline\"\n  }\n}"));
        QTest::mouseClick(inspector.findChild<QPushButton *>(QStringLiteral("copyProtocolAll")), Qt::LeftButton);
        const json all = json::parse(QApplication::clipboard()->text().toStdString());
        QCOMPARE(all.size(), std::size_t(5));
        QCOMPARE(all[3].dump(), std::string(R"({"id":0,"jsonrpc":"2.0","result":{"action":"decline"}})"));
        QCOMPARE(all[4]["bytes"].get<int>(), 70000);

        // The same step set again (a live step): the selection stays.
        inspector.setStep(&step);
        QCOMPARE(messages->indexOfTopLevelItem(messages->currentItem()), 3);

        // The running attempt's record grew (protocolUpdated): a row more, the selection stays.
        Step grown = step;
        grown.attempts.back().protocol["messages"].push_back(
            json::parse(R"({"direction": "received", "offsetMs": 2200, "message": {"jsonrpc": "2.0",
              "method": "notifications/message", "params": {"level": "info", "data": "late"}}})"));
        inspector.setStep(&grown);
        QCOMPARE(messages->topLevelItemCount(), 6);
        QCOMPARE(messages->topLevelItem(5)->text(1), QStringLiteral("← notification notifications/message info"));
        QCOMPARE(messages->indexOfTopLevelItem(messages->currentItem()), 3);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 2"));

        // The first attempt; it stays chosen while the last one grows.
        attempt->setCurrentIndex(0);
        QCOMPARE(rows(messages), QStringList({QStringLiteral("+0 ms → request tools/call #3")}));
        QCOMPARE(omitted->text(), QString());
        inspector.setStep(&step);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 1"));
        QCOMPARE(rows(messages), QStringList({QStringLiteral("+0 ms → request tools/call #3")}));

        // One attempt with an exchange: no selector.
        Step one = mcpStep();
        one.attempts.erase(one.attempts.begin());
        inspector.setStep(&one);
        QVERIFY(!attempt->isVisible());
        QCOMPARE(messages->topLevelItemCount(), 5);
    }

    // A running MCP attempt followed live (the live source stands for
    // McpServerPool::liveExchange): asked for the step shown only, its rows grow while the
    // person's selection stays, and its journaled record takes its place when it ends.
    void runningAttemptFollowedLive()
    {
        StepInspector inspector;
        inspector.resize(900, 600);
        inspector.show();
        json live = json::parse(R"({"startedAt": 1, "messages": [{"direction": "sent", "offsetMs": 0,
          "message": {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "slow"}}}]})");
        QStringList asked;
        quint64 liveRevision = 1; // the record's: it changes as messages come
        inspector.setLiveProtocol([&](const QString &key, int number, bool ended, quint64 *revision) {
            asked << QStringLiteral("%1 #%2%3").arg(key).arg(number).arg(ended ? QStringLiteral(" ended") : QString());
            if (ended || key != QLatin1String("run:fake__slow:h:1") || number != 2) {
                if (revision)
                    *revision = 0;
                return json();
            }
            if (*revision == liveRevision)
                return json(); // as the view has it: nothing copied
            *revision = liveRevision;
            return live;
        });
        auto *tabs = inspector.findChild<QTabWidget *>();
        auto *messages = inspector.findChild<QTreeWidget *>(QStringLiteral("protocolMessages"));
        auto *attempt = inspector.findChild<QComboBox *>(QStringLiteral("protocolAttempt"));
        QVERIFY(tabs && messages && attempt);

        // A finished step is never asked for.
        const Step finished = mcpStep();
        inspector.setStep(&finished);
        QVERIFY(asked.isEmpty());

        // Attempt 2 runs: attempt 1's record, and attempt 2 live.
        Step running = mcpStep();
        running.idempotencyKey = QStringLiteral("run:fake__slow:h:1");
        running.status = StepStatus::Running;
        running.attempts.back().protocol = nullptr;
        running.attempts.back().succeeded = false;
        inspector.setStep(&running);
        QCOMPARE(asked, QStringList{QStringLiteral("run:fake__slow:h:1 #2")});
        tabs->setCurrentWidget(inspector.findChild<QWidget *>(QStringLiteral("stepProtocol")));
        QCOMPARE(attempt->count(), 2);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 2 (running)"));
        QCOMPARE(rows(messages), QStringList({QStringLiteral("+0 ms → request tools/call #9")}));

        // Unchanged: polls copy nothing (the view keeps its rows). It grows: a row more at
        // the next poll; the same step set again asks nothing more.
        QTest::qWait(2 * ProtocolView::LivePollMs);
        QCOMPARE(messages->topLevelItemCount(), 1);
        ++liveRevision;
        live["messages"].push_back(json::parse(R"({"direction": "received", "offsetMs": 500, "message":
          {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 4, "progress": 1,
          "total": 2}}})"));
        inspector.setStep(&running);
        QCOMPARE(asked.first(), QStringLiteral("run:fake__slow:h:1 #2"));
        QTRY_COMPARE_WITH_TIMEOUT(messages->topLevelItemCount(), 2, 5000);
        QCOMPARE(messages->topLevelItem(1)->text(1), QStringLiteral("← notification notifications/progress 1/2"));
        messages->setCurrentItem(messages->topLevelItem(1));
        auto *message = inspector.findChild<QPlainTextEdit *>(QStringLiteral("protocolMessage"));
        message->moveCursor(QTextCursor::End); // a person's place in the message stays as rows come
        const int cursorAt = message->textCursor().position();
        ++liveRevision;
        live["messages"].push_back(json::parse(R"({"direction": "received", "offsetMs": 900, "message":
          {"jsonrpc": "2.0", "id": 9, "result": {"content": []}}})"));
        QTRY_COMPARE_WITH_TIMEOUT(messages->topLevelItemCount(), 3, 5000);
        QCOMPARE(messages->indexOfTopLevelItem(messages->currentItem()), 1);
        QCOMPARE(message->textCursor().position(), cursorAt);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 2 (running)"));

        // It ends: its journaled record instead, the selection kept; no more asking.
        Step ended = running;
        ended.status = StepStatus::Succeeded;
        ended.attempts.back().endedAt = 2;
        ended.attempts.back().protocol = live;
        inspector.setStep(&ended);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 2"));
        QCOMPARE(messages->topLevelItemCount(), 3);
        QCOMPARE(messages->indexOfTopLevelItem(messages->currentItem()), 1);
        const qsizetype askedThen = asked.size();
        QTest::qWait(3 * ProtocolView::LivePollMs);
        QCOMPARE(asked.size(), askedThen);

        // Attempt 3 ran and was cancelled (its timeout): no journaled record; what the
        // pool kept of it is asked once and shown, said so.
        Step cancelled = ended;
        cancelled.status = StepStatus::Failed;
        Attempt third;
        third.number = 3;
        third.endedAt = 3;
        cancelled.attempts.push_back(third);
        const json kept = json::parse(R"({"startedAt": 3, "messages": [{"direction": "sent", "offsetMs": 0,
          "message": {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 11}}}]})");
        inspector.setLiveProtocol([&](const QString &, int number, bool ended, quint64 *revision) {
            asked << QStringLiteral("#%1%2").arg(number).arg(ended ? QStringLiteral(" ended") : QString());
            if (revision)
                *revision = 0;
            return ended && number == 3 ? kept : json();
        });
        asked.clear();
        inspector.setStep(&cancelled);
        inspector.setStep(&cancelled);
        QCOMPARE(asked, QStringList{QStringLiteral("#3 ended")});
        QCOMPARE(attempt->count(), 3);
        QCOMPARE(attempt->currentText(), QStringLiteral("Attempt 3 (cancelled, not journaled)"));
        QCOMPARE(rows(messages), QStringList({QStringLiteral("+0 ms → notification notifications/cancelled #11")}));

        // A running attempt the source knows nothing of (not an MCP call, or not sent
        // yet): no tab for it.
        Step other = running;
        other.idempotencyKey = QStringLiteral("run:other:h:1");
        for (Attempt &each : other.attempts)
            each.protocol = nullptr;
        inspector.setStep(&other);
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(inspector.findChild<QWidget *>(QStringLiteral("stepProtocol")))));
        inspector.clear();
    }
};

QTEST_MAIN(TstProtocolView)
#include "tst_protocolview.moc"
