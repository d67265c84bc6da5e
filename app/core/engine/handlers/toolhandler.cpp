// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/toolhandler.h"

#include <QMutex>

#include <map>

HandlerOutcome HandlerOutcome::success(nlohmann::json result)
{
    HandlerOutcome outcome;
    outcome.ok = true;
    outcome.result = std::move(result);
    return outcome;
}

HandlerOutcome HandlerOutcome::failure(const QString &message, bool retryable, ErrorCode code)
{
    HandlerOutcome outcome;
    outcome.error.code = code;
    outcome.error.message = message.toStdString();
    outcome.error.retryable = retryable;
    return outcome;
}

ToolHandler::ToolHandler(QObject *parent)
    : QObject(parent)
{}

ToolHandler::~ToolHandler() = default;

namespace {

struct Registered
{
    ToolHandler::Factory make;
    bool mainThread = false;
};

// Written at start-up (before the first run) and read by the engines: guarded anyway,
// since an engine may live on a run thread.
QMutex registryMutex;
std::map<HandlerKind, Registered> &registry()
{
    static std::map<HandlerKind, Registered> factories;
    return factories;
}

} // namespace

void ToolHandler::registerFactory(HandlerKind kind, Factory make, bool mainThread)
{
    const QMutexLocker lock(&registryMutex);
    registry()[kind] = Registered{std::move(make), mainThread};
}

ToolHandler::Factory ToolHandler::factory(HandlerKind kind, bool *mainThread)
{
    const QMutexLocker lock(&registryMutex);
    const auto it = registry().find(kind);
    if (it == registry().end())
        return {};
    *mainThread = it->second.mainThread;
    return it->second.make;
}
