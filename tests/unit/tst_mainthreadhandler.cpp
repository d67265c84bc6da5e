// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// MainThreadHandler (a run thread's proxy for a handler that lives on the main thread):
// the cancelled attempt's protocol record handed back through its sink (attack40).
#include "engine/handlers/mainthreadhandler.h"

#include <QPointer>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

namespace {

/// An inner handler that finishes when told (an MCP call whose answer comes), and, as
/// McpHandler does, has no cancelled record once it has finished (cancel() finds the call
/// done).
class FinishingHandler : public ToolHandler
{
public:
    static inline QPointer<FinishingHandler> last;
    FinishingHandler() { last = this; }
    void start(const HandlerRequest &) override {}
    void cancel() override { m_cancelled = !m_finished; }
    nlohmann::json cancelledProtocol() const override
    {
        return m_cancelled ? nlohmann::json{{"messages", nlohmann::json::array({"request", "cancelled"})}}
                           : nlohmann::json();
    }
    void finish()
    {
        m_finished = true;
        HandlerOutcome outcome = HandlerOutcome::success(nlohmann::json::object());
        outcome.protocol = {{"messages", nlohmann::json::array({"request", "response"})}};
        Q_EMIT finished(outcome);
    }

private:
    bool m_finished = false;
    bool m_cancelled = false;
};

} // namespace

class TestMainThreadHandler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void answerCrossingTheTimeoutKeepsItsRecord();
};

// The run thread ends the attempt (its timeout) while the answer is on its way: the
// inner handler finishes on the main thread before the cancel reaches it. The attempt
// is journaled as timed out; its record — the request and the response that came —
// must still reach the sink (it was dropped: the proxy no longer listens to finished,
// and the inner handler, done, has no cancelled record).
void TestMainThreadHandler::answerCrossingTheTimeoutKeepsItsRecord()
{
    QThread runThread;
    runThread.start();
    QObject context;
    context.moveToThread(&runThread);
    MainThreadHandler *proxy = nullptr;
    std::vector<nlohmann::json> records;
    const auto end = qScopeGuard([&] {
        QMetaObject::invokeMethod(
            &context, [&] { delete proxy; }, Qt::BlockingQueuedConnection);
        runThread.quit();
        runThread.wait();
    });
    QMetaObject::invokeMethod(
        &context,
        [&] {
            proxy = new MainThreadHandler([] { return new FinishingHandler; }, QStringLiteral("cancelled"));
            proxy->setCancelledProtocolSink(
                [&records](nlohmann::json record) { records.push_back(std::move(record)); });
            proxy->start(HandlerRequest{});
        },
        Qt::BlockingQueuedConnection);
    QVERIFY(QTest::qWaitFor([] { return !FinishingHandler::last.isNull(); }, 5000));
    // The timeout on the run thread: the proxy stops listening and cancels (queued here).
    QMetaObject::invokeMethod(
        &context,
        [&] {
            proxy->disconnect();
            proxy->cancel();
        },
        Qt::BlockingQueuedConnection);
    // The answer is read before the queued cancel runs.
    FinishingHandler::last->finish();
    QTest::qWait(100);
    QCOMPARE(int(records.size()), 1);
    QCOMPARE(QString::fromStdString(records.front().dump()), QStringLiteral(R"({"messages":["request","response"]})"));
}

QTEST_GUILESS_MAIN(TestMainThreadHandler)
#include "tst_mainthreadhandler.moc"
