// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpcallprotocol.h"

#include "headlessrun.h"
#include "mcp/mcpexchangetext.h"
#include "mcp/mcpserverpool.h"

#include <QTimer>

#include <algorithm>

using nlohmann::json;

McpCallProtocol::McpCallProtocol(QString projectDir, QObject *parent)
    : QObject(parent)
    , m_projectDir(std::move(projectDir))
    , m_poll(new QTimer(this))
{
    m_poll->setInterval(PollMs);
    connect(m_poll, &QTimer::timeout, this, &McpCallProtocol::poll);
}

void McpCallProtocol::follow(const Step &step)
{
    m_key = step.idempotencyKey;
    McpServerPool *pool = McpServerPool::existing(m_projectDir);
    int running = 0;
    for (const Attempt &attempt : step.attempts) {
        if (attempt.endedAt == 0 && !attempt.protocol.is_object() && !isFinal(step.status)) {
            running = attempt.number;
            continue;
        }
        if (m_done[attempt.number])
            continue;
        m_done[attempt.number] = true;
        if (attempt.protocol.is_object())
            print(attempt.number, attempt.protocol, true);
        else if (pool && !m_key.isEmpty())
            print(attempt.number, pool->cancelledExchange(m_key, attempt.number), true);
    }
    if (running != m_running) {
        m_running = running;
        m_revision = 0;
    }
    if (m_running && !m_key.isEmpty()) {
        poll();
        m_poll->start();
    } else {
        m_poll->stop();
    }
}

void McpCallProtocol::poll()
{
    McpServerPool *pool = McpServerPool::existing(m_projectDir);
    if (!pool || !m_running)
        return;
    quint64 revision = m_revision;
    const json exchange = pool->liveExchange(m_key, m_running, &revision);
    if (revision == m_revision)
        return;
    m_revision = revision;
    print(m_running, exchange, false);
}

void McpCallProtocol::print(int attempt, const json &exchange, bool last)
{
    if (!exchange.is_object())
        return;
    const auto printed = m_printed.find(attempt);
    if (printed == m_printed.end())
        printLine(stderr, tr("attempt %1 protocol:").arg(attempt));
    std::size_t &count = m_printed[attempt];
    if (const auto messages = exchange.find("messages"); messages != exchange.end() && messages->is_array()) {
        for (std::size_t row = count; row < messages->size(); ++row)
            printLine(stderr,
                      QStringLiteral("  %1  %2")
                          .arg(McpExchangeText::offset((*messages)[row]), McpExchangeText::summary((*messages)[row])));
        count = std::max(count, messages->size());
    }
    if (last)
        if (const QString omitted = McpExchangeText::omitted(exchange); !omitted.isEmpty())
            printLine(stderr, QStringLiteral("  ") + omitted);
}
