// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"

/// One attempt of a Python tool (handler kind `python`): an `invoke` to the project's
/// ToolWorker with the arguments, the idempotency key (the method's
/// `__idempotency_key__`), run/call/attempt metadata (`__metadata__`) and the stored
/// valves (ValveStore). The outcome:
///
/// | the method | the attempt |
/// |---|---|
/// | returns a JSON value | succeeds |
/// | raises NonRetryableError (or anything with `retryable = False`) | fails, not retryable |
/// | raises anything else | fails, retryable |
/// | gets arguments it cannot take, returns a non-JSON value | fails, not retryable |
/// | the worker dies during the call | fails, retryable; the worker restarts |
///
/// The attempt's output is what the method printed (and emitted through
/// `__event_emitter__`), then the traceback; output and message pass through
/// Secrets::mask, so a secret never reaches the journal through them.
class PythonHandler : public ToolHandler
{
    Q_OBJECT
public:
    explicit PythonHandler(QObject *parent = nullptr);
    ~PythonHandler() override;

    void start(const HandlerRequest &request) override;
    void cancel() override;
    QString cancelReport() const override { return m_cancelReport; }

private:
    qint64 m_id = 0;
    bool m_done = false;
    QString m_projectDir;
    QString m_cancelReport;
};
