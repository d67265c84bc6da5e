// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcppersonquestion.h"
#include "project/jobslot.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>

class QObject;
class QThreadPool;

/// An MCP server's request made a question for a person (McpPersonQuestion::question)
/// on a worker thread, never on the GUI thread: checking a request may compile up to
/// SamplingTools::MaxToolsSchemaObjects subschemas (~190 ms of a Debug build), and a
/// server may keep many requests open (docs/mcp.md "Tools in sampling"). One request at
/// a time: start() begins it, its result is handed to `done` on the GUI thread once the
/// check is done, unless cancel() (the server withdrew the request, the call ended) or
/// another start() came first, or the receiver is gone. Its owner (McpHandler,
/// McpInputQuestionView) checks its requests one after the other, in the order they
/// came, so each answer goes to its server in that order.
class McpQuestionCheck
{
public:
    /// What McpPersonQuestion::question made of the request: the question, or why not.
    struct Result
    {
        std::optional<nlohmann::json> question;
        QString error;
    };

    /// The checks run on pool(); nothing waits for one still running when this goes.
    McpQuestionCheck();

    /// Checks `request` of `server` (shared: the check reads it while its owner keeps
    /// it; a sampling request may be tens of megabytes, never copied). `done` runs on
    /// the GUI thread, never from inside start(), while `receiver` (the owner of this
    /// check) exists. A check still running is dropped.
    void start(QObject *receiver, const QString &server, std::shared_ptr<const McpServerRequest> request,
               std::function<void(Result)> done);
    /// A check was started and neither handed over nor cancelled.
    bool busy() const { return m_busy; }
    /// Drops the check in flight: its result never comes (one not started never runs).
    void cancel();

    /// The pool of the checks, apart from QThreadPool::globalInstance() so that a
    /// server's requests never hold up other work there (images decoded for a view).
    /// Each owner has one check in flight at a time, so the pool takes them in turn:
    /// one server's flood does not keep another's question waiting behind all of it.
    static QThreadPool *pool();

private:
    JobSlot m_slot;
    bool m_busy = false;
};
