// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"

#include <functional>
#include <memory>

/// Runs a handler that must live on the application's main thread from the engine's
/// run thread (RunController serves calls off the GUI thread): the Python handler
/// talks to the project's tool worker, a main-thread object shared by every run.
/// start() and cancel() are posted to the main thread, never waited for (the main
/// thread may itself be waiting for the run thread); the inner handler's finished()
/// comes back queued. Used only when the engine is not on the main thread.
class MainThreadHandler : public ToolHandler
{
public:
    /// `make` creates the real handler; it is called on the main thread. `cancelReport`
    /// says what cancelling it does (the inner handler's own report is made later, on
    /// the main thread): the tool worker's text for Python, the MCP server's for MCP.
    MainThreadHandler(std::function<ToolHandler *()> make, QString cancelReport, QObject *parent = nullptr);
    ~MainThreadHandler() override;

    void start(const HandlerRequest &request) override;
    void cancel() override;
    QString cancelReport() const override;
    /// Posted to the inner handler on the main thread (its personAsked() comes back queued).
    void answerPerson(const nlohmann::json &question, const ManualAnswer &answer) override;
    /// Receives the inner handler's cancelledProtocol() once cancel() reached it on the
    /// main thread (called there; the proxy may be gone by then). Set before start().
    void setCancelledProtocolSink(std::function<void(nlohmann::json)> sink);

private:
    struct Shared;
    std::function<ToolHandler *()> m_make;
    QString m_cancelReport;
    std::shared_ptr<Shared> m_shared;
    bool m_cancelled = false;
    bool m_innerFinished = false; ///< its finished() came (run thread)
};
