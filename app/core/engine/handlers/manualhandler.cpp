// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/manualhandler.h"

ManualHandler::ManualHandler(QObject *parent)
    : ToolHandler(parent)
{}

ManualHandler::~ManualHandler() = default;

void ManualHandler::start(const HandlerRequest &)
{
    m_open = true;
}

void ManualHandler::cancel()
{
    m_open = false;
}

QString ManualHandler::prepare(ManualAnswer &) const
{
    return {};
}

bool ManualHandler::deliver(const ManualAnswer &answer)
{
    if (!m_open)
        return false;
    m_open = false;
    const HandlerOutcome outcome = answer.isError ? HandlerOutcome::failure(answer.message, answer.retryable)
                                                  : HandlerOutcome::success(answer.result);
    // Synchronous: when StepEngine::answer() returns, the step already shows the answer.
    Q_EMIT finished(outcome);
    return true;
}
