// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/pythonhandler.h"

#include "python/secrets.h"
#include "python/toolworker.h"
#include "python/valvestore.h"

#include <QPointer>

PythonHandler::PythonHandler(QObject *parent)
    : ToolHandler(parent)
{}

PythonHandler::~PythonHandler()
{
    cancel();
}

void PythonHandler::start(const HandlerRequest &request)
{
    m_projectDir = request.projectDir;
    ToolWorker *worker = ToolWorker::forProject(request.projectDir);
    nlohmann::json message{
        {"tool", request.tool.toStdString()},
        {"args", request.args},
        {"idempotency_key", request.idempotencyKey.toStdString()},
        {"metadata",
         {{"run_id", request.runId.toStdString()},
          {"call_id", request.callId.toStdString()},
          {"sequence", request.sequence},
          {"attempt", request.attempt}}},
        {"valves", ValveStore::load(request.projectDir).all()},
    };
    QPointer<PythonHandler> self(this);
    const QString projectDir = request.projectDir;
    m_id = worker->invoke(std::move(message), [self, projectDir](const nlohmann::json &reply) {
        if (!self || self->m_done)
            return;
        self->m_done = true;
        const Secrets secrets = Secrets::load(projectDir);
        HandlerOutcome outcome;
        if (reply.value("type", std::string()) == "result") {
            outcome = HandlerOutcome::success(reply.value("value", nlohmann::json()));
        } else {
            const nlohmann::json error = reply.value("error", nlohmann::json::object());
            const QString message = QString::fromStdString(error.value("message", std::string("the tool failed")));
            // The worker checks the arguments against the method's signature (an argument it
            // does not take, an injected __parameter__ a call passed): invalid_arguments.
            const bool invalid = error.value("code", std::string()) == "invalid_arguments";
            outcome = HandlerOutcome::failure(secrets.mask(message), error.value("retryable", true),
                                              invalid ? ErrorCode::InvalidArguments : ErrorCode::ToolFailed);
        }
        outcome.output = secrets.mask(QByteArray::fromStdString(reply.value("output", std::string())));
        Q_EMIT self->finished(outcome);
    });
}

void PythonHandler::cancel()
{
    if (m_done || m_id == 0)
        return;
    m_done = true;
    ToolWorker::forProject(m_projectDir)->cancel(m_id);
    m_cancelReport = ToolWorker::cancelReport();
}
