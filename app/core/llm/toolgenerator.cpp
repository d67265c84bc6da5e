// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/toolgenerator.h"

#include "llm/toolgeneration.h"
#include "project/retrybackoff.h"

#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>

namespace {
/// A server's Retry-After is honoured up to a minute: a person is waiting in a dialog.
constexpr int MaxRetryAfterMs = 60 * 1000;
} // namespace

ToolGenerator::ToolGenerator(ModelConfig model, Secrets secrets, QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_client(new ModelClient(std::move(model), std::move(secrets), network, this))
    , m_retryTimer(new QTimer(this))
{
    m_client->setReplyCap(ToolGeneration::ReplyCapBytes);
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &ToolGenerator::sendAttempt);
}

ToolGenerator::~ToolGenerator() = default;

void ToolGenerator::generate(const QString &description, const QString &fileName, const QString &currentText)
{
    cancel();
    m_request = ModelRequest{};
    m_request.messages = ToolGeneration::messages(description, fileName, currentText);
    m_attempts = 0;
    m_running = true;
    m_started.start();
    sendAttempt();
}

void ToolGenerator::cancel()
{
    m_retryTimer->stop();
    if (m_requestId != 0)
        m_client->cancel(std::exchange(m_requestId, 0));
    m_running = false;
}

void ToolGenerator::sendAttempt()
{
    ++m_attempts;
    m_requestId = m_client->send(m_request, [this](const ModelResult &result) { attemptDone(result); });
}

void ToolGenerator::attemptDone(const ModelResult &result)
{
    m_requestId = 0;
    Outcome outcome;
    outcome.attempts = m_attempts;
    if (!result.reply) {
        const RetryPolicy &policy = m_model.retry;
        if (result.error.retryable && m_attempts < policy.maxAttempts) {
            int delayMs = retryBackoffMs(policy, m_attempts, QRandomGenerator::global()->generateDouble());
            if (result.error.retryAfterMs > 0)
                delayMs = std::max(delayMs, std::min(result.error.retryAfterMs, MaxRetryAfterMs));
            const bool overTotal
                = policy.totalTimeoutMs > 0 && m_started.elapsed() + delayMs >= qint64(policy.totalTimeoutMs);
            if (!overTotal) {
                Q_EMIT retrying(m_attempts + 1, delayMs, result.error.message);
                m_retryTimer->start(delayMs);
                return;
            }
        }
        m_running = false;
        outcome.error = result.error.message;
        outcome.errorCode = result.error.code;
        Q_EMIT finished(outcome);
        return;
    }
    m_running = false;
    const nlohmann::json &content = result.reply->message.value("content", nlohmann::json());
    const QString text = content.is_string() ? QString::fromStdString(content.get<std::string>()) : QString();
    const ToolGeneration::Extraction extraction = ToolGeneration::extractCode(text, result.reply->stopReason);
    if (!extraction.error.isEmpty()) {
        outcome.errorCode = QStringLiteral("no_code");
        outcome.error = result.reply->message.contains("tool_calls") && text.trimmed().isEmpty()
            ? tr("The model answered with tool calls instead of a file; generate again.")
            : extraction.error;
    } else {
        outcome.code = extraction.code;
    }
    Q_EMIT finished(outcome);
}
