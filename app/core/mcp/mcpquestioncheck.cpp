// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpquestioncheck.h"

#include <QCoreApplication>
#include <QThreadPool>

#include <utility>

Q_GLOBAL_STATIC(QThreadPool, checkPool)

McpQuestionCheck::McpQuestionCheck()
    : m_slot(pool())
{}

void McpQuestionCheck::start(QObject *receiver, const QString &server, std::shared_ptr<const McpServerRequest> request,
                             std::function<void(Result)> done)
{
    m_busy = true;
    m_slot.schedule(
        receiver,
        [server, request = std::move(request)] {
            Result result;
            result.question = McpPersonQuestion::question(server, *request, &result.error);
            return result;
        },
        [this, done = std::move(done)](Result result) {
            // Runs only while the receiver (this check's owner) exists.
            m_busy = false;
            done(std::move(result));
        });
}

void McpQuestionCheck::cancel()
{
    m_slot.cancel();
    m_busy = false;
}

QThreadPool *McpQuestionCheck::pool()
{
    // Drained while the application object still exists (its post routines run first
    // in its destructor), as ~QCoreApplication drains the global pool: left to the
    // static destructors, a check still running would read statics main()'s end has
    // destroyed (the schema compiler's, attack46 F1) and hand back to a dead application.
    static const bool drained = [] {
        qAddPostRoutine([] {
            if (checkPool.exists() && !checkPool.isDestroyed()) {
                checkPool->clear();
                checkPool->waitForDone();
            }
        });
        return true;
    }();
    Q_UNUSED(drained);
    return checkPool();
}
