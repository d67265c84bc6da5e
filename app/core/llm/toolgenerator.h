// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm/modelclient.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <memory>

class QNetworkAccessManager;
class QTimer;

/// One Generate Tool with AI request at a time (docs/models.md "Generate Tool with AI"):
/// the messages of ToolGeneration through a ModelClient — on the studio's trusted side,
/// never through the sandbox — with the model's key, `timeout_seconds`, and its `retry`
/// (a retryable failure is tried again after retryBackoffMs(), a server's
/// Retry-After a floor under it up to a minute), and the reply capped at
/// ToolGeneration::ReplyCapBytes. The code is taken out of the reply with
/// ToolGeneration::extractCode.
///
/// A `mock` model keeps its turn counter across generate() calls of one generator (the
/// second Generate gets the second turn). A `manual` model cannot answer here.
class ToolGenerator : public QObject
{
    Q_OBJECT
public:
    struct Outcome
    {
        QString code;      ///< the file, when !error
        QString error;     ///< for a person: the model's error or why the reply has no code
        QString errorCode; ///< ModelError's code ("model_auth", …), "no_code" for the reply, else ""
        int attempts = 0;
    };

    ToolGenerator(ModelConfig model, Secrets secrets, QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ToolGenerator() override;

    const ModelConfig &model() const { return m_model; }
    /// Sends the request for `description` (see ToolGeneration::messages); finished() follows
    /// once, never from inside generate(). A generation still running is cancelled first.
    void generate(const QString &description, const QString &fileName, const QString &currentText);
    /// Stops the running generation: no finished() for it.
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    /// A retryable failure; the next attempt (`attempt`, 2 or more) starts in `delayMs`.
    void retrying(int attempt, int delayMs, const QString &error);
    void finished(const ToolGenerator::Outcome &outcome);

private:
    void sendAttempt();
    void attemptDone(const ModelResult &result);

    ModelConfig m_model;
    ModelClient *m_client;
    QTimer *m_retryTimer;
    ModelRequest m_request;
    QElapsedTimer m_started;
    quint64 m_requestId = 0;
    int m_attempts = 0;
    bool m_running = false;
};
