// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMutex>

#include <nlohmann/json.hpp>

#include <functional>

class QObject;

/// Protocol records that reach a run's engine after their attempt ended. An MCP attempt
/// the engine ends by its timeout or Stop on the run thread is cancelled on the main
/// thread (MainThreadHandler), where its record is made (ToolHandler::cancelledProtocol):
/// post() is called there and hands the record to the engine's thread, while the engine
/// lives — close() is called from its destructor; a record posted after it is dropped
/// (and one still queued is dropped with the engine by Qt).
class LateProtocols
{
public:
    using Apply = std::function<void(int index, int attempt, nlohmann::json record)>;

    /// `apply` runs on `target`'s thread.
    LateProtocols(QObject *target, Apply apply);

    /// Any thread: hands the record of attempt `attempt` of the step at `index` on.
    void post(int index, int attempt, nlohmann::json record);
    /// The engine's thread, before the engine is gone: nothing is handed on any more.
    void close();

private:
    QMutex m_mutex;
    QObject *m_target;
    Apply m_apply;
};
