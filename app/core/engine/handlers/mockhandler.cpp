// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/mockhandler.h"

#include <QTimer>

MockHandler::MockHandler(MockResponse response, QObject *parent)
    : ToolHandler(parent)
    , m_response(std::move(response))
{}

MockHandler::~MockHandler() = default;

const MockResponse &MockHandler::entryFor(const Tool &tool, int attemptIndex)
{
    static const MockResponse nullResult;
    if (tool.mockSequence.empty())
        return nullResult;
    const auto index = std::min<std::size_t>(std::size_t(std::max(attemptIndex, 0)), tool.mockSequence.size() - 1);
    return tool.mockSequence[index];
}

HandlerOutcome MockHandler::outcomeOf(const MockResponse &response)
{
    return response.isError ? HandlerOutcome::failure(response.errorMessage, response.retryable)
                            : HandlerOutcome::success(response.result);
}

void MockHandler::start(const HandlerRequest &)
{
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, [this] { Q_EMIT finished(outcomeOf(m_response)); });
    m_timer->start(m_response.delayMs); // 0 still answers asynchronously
}

void MockHandler::cancel()
{
    if (m_timer)
        m_timer->stop();
}
