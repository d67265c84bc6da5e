// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// McpQuestionCheck at the application's end: a check still running when the
// QCoreApplication goes must be done before it is gone. Its pool is a Q_GLOBAL_STATIC,
// destroyed (and so waited for) only among the static destructors after main() returned,
// while the check still runs and reads statics already destroyed (attack46 F1). Its own
// main(): the test is the application's end, which QTest's main does not let a row own.
#include "mcp/mcpquestioncheck.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QThreadPool>

#include <cstdio>

using nlohmann::json;

namespace {

/// A sampling request the check takes long over: 8 tools of 1023 objects each.
McpServerRequest costly()
{
    json tools = json::array();
    for (int n = 0; n < 8; ++n) {
        json properties = json::object();
        for (int k = 0; k < 1022; ++k)
            properties["p" + std::to_string(k)] = {{"type", "string"}};
        tools.push_back({{"name", "t" + std::to_string(n)},
                         {"inputSchema", {{"type", "object"}, {"properties", std::move(properties)}}}});
    }
    json params = {{"messages", json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "hi"}}}}})},
                   {"maxTokens", 10},
                   {"tools", std::move(tools)}};
    return McpServerRequest{"c-1", QStringLiteral("sampling/createMessage"), std::move(params), false,
                            QStringLiteral("2025-11-25")};
}

} // namespace

int main(int argc, char **argv)
{
    auto *app = new QCoreApplication(argc, argv);
    {
        QObject owner;
        McpQuestionCheck check;
        check.start(&owner, QStringLiteral("s"), std::make_shared<const McpServerRequest>(costly()),
                    [](McpQuestionCheck::Result) {});
        QElapsedTimer waited;
        waited.start();
        while (McpQuestionCheck::pool()->activeThreadCount() == 0 && waited.elapsed() < 5000)
            QThread::msleep(1);
        if (McpQuestionCheck::pool()->activeThreadCount() == 0) {
            std::fprintf(stderr, "FAIL: the check never started\n");
            return 2;
        }
        // Past the job's first look at its slot, into its schemas (longer under valgrind).
        QThread::msleep(qEnvironmentVariableIntValue("CHECK_EXIT_WAIT_MS") > 0
                            ? qEnvironmentVariableIntValue("CHECK_EXIT_WAIT_MS")
                            : 50);
    } // the owner and its check go (the quit of a window): the check is dropped, still running
    delete app;
    const int running = McpQuestionCheck::pool()->activeThreadCount();
    std::fprintf(stderr, "%s: %d checks still running after the application object was deleted\n",
                 running == 0 ? "PASS" : "FAIL", running);
    return running == 0 ? 0 : 1;
}
