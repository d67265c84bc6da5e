// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// One attempt of a tool handler outside a run, for the suites that test handlers
// directly (JSON entering through a handler, trusted-code confinement).
#pragma once

#include "engine/handlers/toolhandler.h"

#include <QDebug>
#include <QObject>
#include <QString>
#include <QTest>

#include <nlohmann/json.hpp>

/// Starts `handler` for call c1 (sequence 1 of run-1, idempotency key `key`) of `tool`
/// with `args`, attempt `attempt`, in `projectDir`, and returns its outcome; warns and
/// returns an empty (failed) outcome when none came within 30 s. `maxResultBytes`: the
/// project's reply cap (a command's stdout may be 4 times that).
inline HandlerOutcome runHandlerAttempt(ToolHandler &handler, const QString &projectDir, const QString &tool,
                                        const nlohmann::json &args = nlohmann::json::object(), int attempt = 1,
                                        const QString &key = QStringLiteral("run-1:1"),
                                        std::size_t maxResultBytes = HandlerRequest{}.maxResultBytes)
{
    HandlerOutcome outcome;
    bool done = false;
    const QMetaObject::Connection connection
        = QObject::connect(&handler, &ToolHandler::finished, &handler, [&](const HandlerOutcome &o) {
              outcome = o;
              done = true;
          });
    HandlerRequest request;
    request.runId = QStringLiteral("run-1");
    request.tool = tool;
    request.callId = QStringLiteral("c1");
    request.sequence = 1;
    request.attempt = attempt;
    request.idempotencyKey = key;
    request.args = args;
    request.projectDir = projectDir;
    request.maxResultBytes = maxResultBytes;
    handler.start(request);
    if (!QTest::qWaitFor([&] { return done; }, 30000))
        qWarning() << "no outcome for" << tool;
    QObject::disconnect(connection);
    return outcome;
}
