// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// File ▸ Serve Project in the window (issue 22, part 1): the window serves the open
// project on a free port, a seed-003 client's served run shows in the Runs dock and its
// call in Pending Calls, a person answers it there, and the client's later result for
// that call is refused (409 already_ended); a port in use and an untrusted project are
// said plainly; Stop Serving and opening another project remove serve.json.

#include "labelbuddies.h"
#include "schemaform.h"
#include "servedclient.h"
#include "testfiles.h"
#include "tracemodel.h"
#include "ui/answerpane.h"
#include "ui/pendingcallspanel.h"
#include "ui/projectserving.h"
#include "ui/runspanel.h"
#include "ui/serveprojectdialog.h"
#include "ui/stepmodeactions.h"
#include "windowfixture.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTreeWidget>

#include <nlohmann/json.hpp>

namespace {

QStringList runIds(QTreeWidget *view)
{
    QStringList ids;
    for (int row = 0; row < view->topLevelItemCount(); ++row)
        ids.append(view->topLevelItem(row)->text(0) + QLatin1Char(' ') + view->topLevelItem(row)->text(5));
    return ids;
}

} // namespace

class TestServeProject
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }
    void init() { initWindow(); }
    void cleanup() { closeWindow(); }

    /// A served call answered by a person in the window: the client's later result for
    /// it is refused with the reason, and the program goes on with the person's answer.
    void personAnswersServedCall()
    {
        const QString dir = writeProject();
        QVERIFY(openTrusted(*m_window, dir));
        ProjectServing *serving = m_window->serving();
        const int port = freePort();
        QString error;
        QVERIFY2(serving->serve(port, QStringLiteral("127.0.0.1"), {}, &error), qPrintable(error));
        const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port);
        QCOMPARE(serving->url(), url);
        QVERIFY(serving->addressLabel()->isVisible());
        QCOMPARE(serving->addressLabel()->text(), QStringLiteral("Serving on ") + url);
        QVERIFY(serving->serveAction()->isChecked());
        QVERIFY(QFile::exists(dir + QStringLiteral("/.toolstudio/serve.json")));

        // The program asks for two rates; the client gets the first call.
        Client client;
        client.start(url + QStringLiteral("/v1/exec/programmatic"),
                     {{"language", "python"},
                      {"code",
                       "a = get_exchange_rate(base=\"USD\", quote=\"EUR\")\n"
                       "b = get_exchange_rate(base=\"USD\", quote=\"GBP\")\nprint(a, b)\n"},
                      {"tools", nlohmann::json::parse(RateTools)}});
        QTRY_VERIFY_WITH_TIMEOUT(client.finished(), RunTimeoutMs);
        auto [status, first] = client.reply();
        QCOMPARE(status, 200);
        QCOMPARE(QString::fromStdString(first.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = QString::fromStdString(first.value("session_id", ""));
        const QString callId = QString::fromStdString(first["tool_calls"][0].value("id", ""));
        QVERIFY(!callId.isEmpty());

        // The Runs dock lists the served run, Pending Calls shows its call.
        QTRY_VERIFY_WITH_TIMEOUT(runIds(runsView()).contains(session + QStringLiteral(" served")), RunTimeoutMs);
        PendingCallsPanel *pending = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(pending->pendingCalls().size(), 1, RunTimeoutMs);
        QCOMPARE(pending->pendingCalls().first().callId, callId);
        QCOMPARE(pending->pendingCalls().first().tool, QStringLiteral("get_exchange_rate"));
        QCOMPARE(pending->servedRun(callId), session);

        // Opening the run shows its trace: the call waits.
        Q_EMIT m_window->runsPanel()->openRequested(session);
        QCOMPARE(m_window->traceModel()->runId(), session);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->traceModel()->stepCount(), 1, RunTimeoutMs);

        // A person answers it in the window, as raw JSON: the client declared no output
        // schema, and the project's tool of the same name is not this call's tool.
        QVERIFY(pending->selectCall(callId));
        QVERIFY(!pending->answerPane()->usesForm());
        pending->answerPane()->resultEdit()->setPlainText(QStringLiteral("0.92"));
        pending->answerPane()->sendResultButton()->click();
        // The program goes on: its second call waits, in the dock and in the trace.
        QTRY_VERIFY_WITH_TIMEOUT(
            pending->pendingCalls().size() == 1 && pending->pendingCalls().first().callId != callId, RunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->traceModel()->stepCount(), 2, RunTimeoutMs);
        QVERIFY(m_window->traceModel()->stepByCallId(callId));
        QCOMPARE(m_window->traceModel()->stepByCallId(callId)->status, StepStatus::Succeeded);

        // The client's result for the answered call is refused with the reason.
        Client late;
        late.start(url + QStringLiteral("/v1/exec/programmatic"),
                   {{"session_id", session.toStdString()},
                    {"continuation_token", first.value("continuation_token", "")},
                    {"tool_results", {{{"call_id", callId.toStdString()}, {"result", 0.5}}}}});
        QTRY_VERIFY_WITH_TIMEOUT(late.finished(), RunTimeoutMs);
        auto [lateStatus, refusal] = late.reply();
        QCOMPARE(lateStatus, 409);
        const nlohmann::json expected
            = {{"status", "error"},
               {"session_id", session.toStdString()},
               {"error",
                {{"code", "already_ended"},
                 {"message",
                  "call '" + callId.toStdString()
                      + "' already has a result, given by a person (in the window, with toolstudio "
                        "answer or POST /v1/runs/{run}/calls/{call_id}); nothing was delivered"}}}};
        QCOMPARE(QString::fromStdString(refusal.dump()), QString::fromStdString(expected.dump()));

        // Stop Serving: the address goes, and serve.json with it.
        serving->serveAction()->trigger();
        QVERIFY(!serving->isServing());
        QVERIFY(!serving->serveAction()->isChecked());
        QVERIFY(!serving->addressLabel()->isVisible());
        QVERIFY(!QFile::exists(dir + QStringLiteral("/.toolstudio/serve.json")));
    }

    /// An MCP client's call to a manual tool waits in Pending Calls; the person's answer
    /// is the client's result.
    void personAnswersMcpCall()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("mcp"));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"),
                          "{\"name\": \"mcp\", \"tools\": [{\"name\": \"ask_person\", \"input_schema\": "
                          "{\"type\": \"object\"}, \"output_schema\": {\"type\": \"object\", \"properties\": "
                          "{\"answer\": {\"type\": \"string\"}}}, \"handler\": {\"kind\": \"manual\"}}]}\n"));
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(m_window->serving()->serve(freePort(), QStringLiteral("127.0.0.1"), {}));
        const QString mcp = m_window->serving()->url() + QStringLiteral("/mcp");
        Client init;
        init.start(mcp,
                   {{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "initialize"},
                    {"params",
                     {{"protocolVersion", "2025-06-18"},
                      {"capabilities", nlohmann::json::object()},
                      {"clientInfo", {{"name", "tst_serveproject"}, {"version", "1"}}}}}});
        QTRY_VERIFY_WITH_TIMEOUT(init.finished(), RunTimeoutMs);
        QCOMPARE(init.reply().first, 200);
        const QString session = QStringLiteral("Mcp-Session-Id: ") + init.header(QStringLiteral("Mcp-Session-Id"));
        QVERIFY(session.size() > 16);
        Client initialized;
        initialized.start(mcp, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, {session});
        QTRY_VERIFY_WITH_TIMEOUT(initialized.finished(), RunTimeoutMs);
        QCOMPARE(initialized.reply().first, 202);

        Client call;
        call.start(mcp,
                   {{"jsonrpc", "2.0"},
                    {"id", 2},
                    {"method", "tools/call"},
                    {"params", {{"name", "ask_person"}, {"arguments", {{"question", "ship it?"}}}}}},
                   {session});
        PendingCallsPanel *pending = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(pending->pendingCalls().size(), 1, RunTimeoutMs);
        const Step waiting = pending->pendingCalls().first();
        QCOMPARE(waiting.tool, QStringLiteral("ask_person"));
        QVERIFY(!pending->servedRun(waiting.callId).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(
            runIds(runsView()).contains(pending->servedRun(waiting.callId) + QStringLiteral(" served")), RunTimeoutMs);
        QVERIFY(!call.finished());

        // An MCP client calls the project's own tool: its output schema gives the form.
        QVERIFY(pending->selectCall(waiting.callId));
        QVERIFY(pending->answerPane()->usesForm());
        pending->answerPane()->resultForm()->setValue({{"answer", "yes"}});
        pending->answerPane()->sendResultButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(call.finished(), RunTimeoutMs);
        auto [status, reply] = call.reply();
        QCOMPARE(status, 200);
        QCOMPARE(QString::fromStdString(reply["result"].dump()),
                 QStringLiteral("{\"content\":[{\"text\":\"{\\\"answer\\\":\\\"yes\\\"}\",\"type\":\"text\"}],"
                                "\"isError\":false,\"structuredContent\":{\"answer\":\"yes\"}}"));
        QTRY_COMPARE_WITH_TIMEOUT(pending->pendingCalls().size(), 0, RunTimeoutMs);
    }

    /// An MCP client's GET /mcp stream hears of the tools the window reloads, and Stop
    /// Serving ends it properly (curl, reading as it comes, exits 0 at the last chunk).
    void stopServingEndsMcpStream()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("listened"));
        const QByteArray manifest = "{\"name\": \"listened\", \"tools\": [{\"name\": \"ask\", \"input_schema\": "
                                    "{\"type\": \"object\"}, \"handler\": {\"kind\": \"manual\"}}]}\n";
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), manifest));
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(m_window->serving()->serve(freePort(), QStringLiteral("127.0.0.1"), {}));
        const QString mcp = m_window->serving()->url() + QStringLiteral("/mcp");
        Client init;
        init.start(mcp,
                   {{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "initialize"},
                    {"params",
                     {{"protocolVersion", "2025-11-25"},
                      {"capabilities", nlohmann::json::object()},
                      {"clientInfo", {{"name", "tst_serveproject"}, {"version", "1"}}}}}});
        QTRY_VERIFY_WITH_TIMEOUT(init.finished(), RunTimeoutMs);
        QCOMPARE(QString::fromStdString(init.reply().second["result"]["capabilities"]["tools"].dump()),
                 QStringLiteral("{\"listChanged\":true}"));
        QProcess curl;
        curl.start(QStringLiteral("curl"),
                   {QStringLiteral("-sN"), QStringLiteral("-D"), QStringLiteral("-"), QStringLiteral("-H"),
                    QStringLiteral("Accept: text/event-stream"), QStringLiteral("-H"),
                    QStringLiteral("Mcp-Session-Id: ") + init.header(QStringLiteral("Mcp-Session-Id")), mcp});
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += curl.readAllStandardOutput()).contains("\r\n\r\n"), RunTimeoutMs);
        QVERIFY2(out.startsWith("HTTP/1.1 200 OK\r\n"), out.constData());
        QVERIFY2(out.contains("Content-Type: text/event-stream\r\n"), out.constData());

        // The manifest gains a tool and the window reloads it: the stream has the event.
        QByteArray added = manifest;
        added.replace("}}]}",
                      "}}, {\"name\": \"echo\", \"input_schema\": {\"type\": \"object\"}, \"handler\": "
                      "{\"kind\": \"manual\"}}]}");
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), added));
        QVERIFY(m_window->reloadProject());
        const QByteArray event
            = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
        QTRY_VERIFY_WITH_TIMEOUT((out += curl.readAllStandardOutput()).endsWith(event), RunTimeoutMs);

        // Stop Serving: the stream ends with its last chunk (curl exits 0, not 18).
        m_window->serving()->serveAction()->trigger();
        QVERIFY(!m_window->serving()->isServing());
        QTRY_VERIFY_WITH_TIMEOUT(curl.state() == QProcess::NotRunning, RunTimeoutMs);
        QCOMPARE(curl.exitStatus(), QProcess::NormalExit);
        QCOMPARE(curl.exitCode(), 0);
        QVERIFY((out + curl.readAllStandardOutput()).endsWith(event));
    }

    /// Step Mode (F10) while the window serves: an MCP client's call is held in Pending
    /// Calls like a run's; Continue runs it (the client gets the mock's result), Answer
    /// Instead is the client's result, and Continue to End (F8) releases the rest.
    void stepModeHoldsMcpCall()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("stepped"));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"),
                          "{\"name\": \"stepped\", \"tools\": [{\"name\": \"add\", \"input_schema\": "
                          "{\"type\": \"object\"}, \"output_schema\": {\"type\": \"object\", \"properties\": "
                          "{\"sum\": {\"type\": \"integer\"}}, \"required\": [\"sum\"]}, \"handler\": {\"kind\": "
                          "\"mock\", \"sequence\": [{\"result\": {\"sum\": 5}}]}}]}\n"));
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(m_window->serving()->serve(freePort(), QStringLiteral("127.0.0.1"), {}));
        QAction *stepMode = m_window->stepModeActions()->stepModeAction();
        QCOMPARE(stepMode->shortcut(), QKeySequence(Qt::Key_F10));
        stepMode->trigger();
        QVERIFY(stepMode->isChecked());
        const QString mcp = m_window->serving()->url() + QStringLiteral("/mcp");
        Client init;
        init.start(mcp,
                   {{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "initialize"},
                    {"params",
                     {{"protocolVersion", "2025-06-18"},
                      {"capabilities", nlohmann::json::object()},
                      {"clientInfo", {{"name", "tst_serveproject"}, {"version", "1"}}}}}});
        QTRY_VERIFY_WITH_TIMEOUT(init.finished(), RunTimeoutMs);
        QCOMPARE(init.reply().first, 200);
        const QString session = QStringLiteral("Mcp-Session-Id: ") + init.header(QStringLiteral("Mcp-Session-Id"));
        Client initialized;
        initialized.start(mcp, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, {session});
        QTRY_VERIFY_WITH_TIMEOUT(initialized.finished(), RunTimeoutMs);
        QCOMPARE(initialized.reply().first, 202);
        const auto callAdd = [&](Client &call, int id) {
            call.start(mcp,
                       {{"jsonrpc", "2.0"},
                        {"id", id},
                        {"method", "tools/call"},
                        {"params", {{"name", "add"}, {"arguments", {{"a", id}}}}}},
                       {session});
        };
        PendingCallsPanel *pending = m_window->pendingPanel();

        // Held, then Continue: the handler runs and the client gets its result.
        Client first;
        callAdd(first, 2);
        QTRY_VERIFY_WITH_TIMEOUT(pending->heldCalls().size() == 1 || first.finished(), RunTimeoutMs);
        QVERIFY2(!first.finished(), first.reply().second.dump().c_str());
        const Step held = pending->heldCalls().first();
        QCOMPARE(held.tool, QStringLiteral("add"));
        QCOMPARE(held.callId, QStringLiteral("mcp-1"));
        QVERIFY(!pending->servedRun(held.callId).isEmpty());
        QVERIFY2(pending->list()->item(0)->text().startsWith(QStringLiteral("#1 add (held by step mode, ")),
                 qPrintable(pending->list()->item(0)->text()));
        QVERIFY(m_window->stepModeActions()->continueAction()->isEnabled());
        QVERIFY(pending->answerPane()->isHeld());
        QVERIFY(!first.finished());
        QVERIFY(pending->continueButton()->isEnabled());
        pending->continueButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(first.finished(), RunTimeoutMs);
        QCOMPARE(QString::fromStdString(first.reply().second["result"]["structuredContent"].dump()),
                 QStringLiteral("{\"sum\":5}"));
        QCOMPARE(pending->heldCalls().size(), 0);

        // Answer Instead: the person's result is the client's.
        Client second;
        callAdd(second, 3);
        QTRY_COMPARE_WITH_TIMEOUT(pending->heldCalls().size(), 1, RunTimeoutMs);
        QVERIFY(pending->selectCall(QStringLiteral("mcp-2")));
        QVERIFY(pending->answerPane()->usesForm());
        pending->answerPane()->resultForm()->setValue({{"sum", 7}});
        pending->answerPane()->sendResultButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(second.finished(), RunTimeoutMs);
        QCOMPARE(QString::fromStdString(second.reply().second["result"]["structuredContent"].dump()),
                 QStringLiteral("{\"sum\":7}"));
        QCOMPARE(pending->heldCalls().size(), 0);

        // Continue to End (F8) releases the held call and leaves step mode.
        Client third;
        callAdd(third, 4);
        QTRY_COMPARE_WITH_TIMEOUT(pending->heldCalls().size(), 1, RunTimeoutMs);
        m_window->stepModeActions()->continueToEndAction()->trigger();
        QVERIFY(!stepMode->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(third.finished(), RunTimeoutMs);
        QCOMPARE(QString::fromStdString(third.reply().second["result"]["structuredContent"].dump()),
                 QStringLiteral("{\"sum\":5}"));
        QCOMPARE(pending->heldCalls().size(), 0);
        // Step mode off: the next call runs at once.
        Client fourth;
        callAdd(fourth, 5);
        QTRY_VERIFY_WITH_TIMEOUT(fourth.finished(), RunTimeoutMs);
        QCOMPARE(pending->heldCalls().size(), 0);
    }

    /// A port in use is said plainly, and nothing is served.
    void portInUseIsSaid()
    {
        const QString dir = writeProject();
        QVERIFY(openTrusted(*m_window, dir));
        const ListeningSocket taken;
        QVERIFY(taken.port > 0);
        QString error;
        QVERIFY(!m_window->serving()->serve(taken.port, QStringLiteral("127.0.0.1"), {}, &error));
        const QString expected = QStringLiteral("Cannot serve served: port %1 on 127.0.0.1 is in use by another "
                                                "program; stop it or choose another port.")
                                     .arg(taken.port);
        QCOMPARE(error, expected);
        QCOMPARE(m_window->lastError(), expected);
        QVERIFY(!m_window->serving()->isServing());
        QVERIFY(!m_window->serving()->serveAction()->isChecked());
        QVERIFY(!m_window->serving()->addressLabel()->isVisible());
        QVERIFY(!QFile::exists(dir + QStringLiteral("/.toolstudio/serve.json")));
    }

    /// An untrusted project is not served: a served call runs its tools.
    void untrustedProjectIsNotServed()
    {
        const QString dir = writeProject();
        QVERIFY(m_window->openProject(dir));
        QString error;
        QVERIFY(!m_window->serving()->serve(freePort(), QStringLiteral("127.0.0.1"), {}, &error));
        QVERIFY2(error.startsWith(QStringLiteral("The project is not served because it is not trusted: a served "
                                                 "call runs its tools. ")),
                 qPrintable(error));
        QVERIFY(!QFile::exists(dir + QStringLiteral("/.toolstudio/serve.json")));
    }

    /// The dialog: 3112 and loopback by default; another host needs a token file and
    /// warns that nothing is encrypted.
    void dialogAsksForATokenOffLoopback()
    {
        QVERIFY(openTrusted(*m_window, writeProject()));
        m_window->serving()->serveAction()->trigger();
        ServeProjectDialog *dialog = m_window->serving()->dialog();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->port(), 3112);
        QCOMPARE(dialog->host(), QStringLiteral("127.0.0.1"));
        QCOMPARE(labelsShowingTheirAmpersand(dialog), QStringList()); // "&Token file:" showed its "&"
        QVERIFY(!dialog->warningLabel()->isVisible());
        dialog->hostEdit()->setText(QStringLiteral("0.0.0.0"));
        QVERIFY(dialog->warningLabel()->isVisible());
        QCOMPARE(dialog->warningLabel()->text(),
                 QStringLiteral("0.0.0.0 is reachable from other machines: it needs a token file (a secret every "
                                "request must send); without it, serve on 127.0.0.1.\nWarning: serving on 0.0.0.0 "
                                "without TLS: the token and every request travel in clear text; use it only on a "
                                "network you trust, or behind a TLS proxy."));
        dialog->reject();
        QVERIFY(!m_window->serving()->serveAction()->isChecked());
    }

    /// Opening another project stops serving the last one.
    void openingAnotherProjectStopsServing()
    {
        const QString dir = writeProject(QStringLiteral("first"));
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(m_window->serving()->serve(freePort(), QStringLiteral("127.0.0.1"), {}));
        QVERIFY(QFile::exists(dir + QStringLiteral("/.toolstudio/serve.json")));
        QVERIFY(openTrusted(*m_window, writeProject(QStringLiteral("second"))));
        QVERIFY(!m_window->serving()->isServing());
        QVERIFY(!QFile::exists(dir + QStringLiteral("/.toolstudio/serve.json")));
    }

private:
    static constexpr const char *RateTools
        = "[{\"name\": \"get_exchange_rate\", \"parameters\": {\"type\": \"object\", \"properties\": {\"base\": "
          "{\"type\": \"string\"}, \"quote\": {\"type\": \"string\"}}}}]";

    /// A project without tools of its own (a served session's tools are the request's).
    QString writeProject(const QString &name = QStringLiteral("served"))
    {
        const QString dir = m_scratch->filePath(name);
        // The project's own get_exchange_rate (an object result) is not the tool a seed
        // client declares under that name.
        writeFile(dir + QStringLiteral("/toolstudio.json"),
                  "{\"name\": \"served\", \"tools\": [{\"name\": \"get_exchange_rate\", \"output_schema\": "
                  "{\"type\": \"object\", \"properties\": {\"rate\": {\"type\": \"number\"}}}, \"handler\": "
                  "{\"kind\": \"manual\"}}]}\n");
        return dir;
    }
};

QTEST_MAIN(TestServeProject)
#include "tst_serveproject.moc"
