// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"

#include <QObject>

#include <memory>

class HttpServer;
struct HttpRequest;
class HttpResponder;
class Journal;
class RunsService;

/// Seed 004's client API on the studio's server (docs/server.md "Runs and pending
/// calls"): `GET /v1/runs`, `GET /v1/runs/{run}` (the run-export JSON),
/// `GET /v1/runs/{run}/pending`, and `POST /v1/runs/{run}/calls/{call_id}` with
/// {"type": "tool.result", "id", "attempt", "result"} or {"type": "tool.error", "id",
/// "error", "retryable", "attempt"}, which goes through PendingAnswerIntake (the path
/// `toolstudio answer` takes) and replies when the running process accepted or
/// refused it — the HTTP routes of RunsService. Lives on the Qt thread; HttpServer
/// queues each request to it.
class PendingCallsApi : public QObject
{
public:
    /// Opens the journal of `project` (created if the project never ran).
    explicit PendingCallsApi(const Project &project, QObject *parent = nullptr);
    ~PendingCallsApi() override;

    /// False with `error` when the journal cannot be opened.
    bool open(QString *error);
    void install(HttpServer &server);

private:
    void answerCall(const HttpRequest &request, const HttpResponder &responder);

    Project m_project;
    std::unique_ptr<Journal> m_journal;
    RunsService *m_runs = nullptr;
};
