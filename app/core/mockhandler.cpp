// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mockhandler.h"

#include <QTimer>

MockHandler::MockHandler(MockResponse response, QObject *parent)
    : ToolHandler(parent)
    , m_response(std::move(response))
{
}

MockHandler::~MockHandler() = default;

const MockResponse &MockHandler::entryFor(const Tool &tool, int attemptIndex)
{
    static const MockResponse nullResult;
    if (tool.mockSequence.empty())
        return nullResult;
    const auto index = std::min<std::size_t>(std::size_t(std::max(attemptIndex, 0)), tool.mockSequence.size() - 1);
    return tool.mockSequence[index];
}

void MockHandler::start(const HandlerRequest &)
{
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_response.isError)
            Q_EMIT finished(HandlerOutcome::failure(m_response.errorMessage, m_response.retryable));
        else
            Q_EMIT finished(HandlerOutcome::success(m_response.result));
    });
    m_timer->start(m_response.delayMs); // 0 still answers asynchronously
}

void MockHandler::cancel()
{
    if (m_timer)
        m_timer->stop();
}
