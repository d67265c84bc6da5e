// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"

#include <QPointer>

#include <functional>

class ModelClient;

/// One attempt of a model step (docs/models.md "The model step"): the step's recorded
/// request ({"model", "messages", "tools": [{"name", "description", "input_schema"}]})
/// goes to the model through `client` on the trusted side; the reply becomes the step's
/// result (ModelReply::toJson(): message, usage, stop_reason), a ModelError its error
/// with the same code (model_unreachable, rate_limited, …) and `retryable`; a
/// Retry-After is passed on as the error's detail `retry_after_ms`, which the engine's
/// backoff honours. `onUsage` gets the tokens of each reply (the run's token budget).
class ModelHandler : public ToolHandler
{
    Q_OBJECT
public:
    using Usage = std::function<void(int inputTokens, int outputTokens)>;

    ModelHandler(ModelClient *client, Usage onUsage, QObject *parent = nullptr);
    ~ModelHandler() override;

    void start(const HandlerRequest &request) override;
    void cancel() override;
    QString cancelReport() const override;

private:
    QPointer<ModelClient> m_client;
    Usage m_onUsage;
    quint64 m_request = 0;
    bool m_cancelled = false;
};
