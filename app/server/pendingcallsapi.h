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
class ServedStepMode;

/// Seed 004's client API on the studio's server (docs/server.md "Runs and pending
/// calls"): `GET /v1/runs`, `GET /v1/runs/{run}` (the run-export JSON),
/// `GET /v1/runs/{run}/pending`, and `POST /v1/runs/{run}/calls/{call_id}` with
/// {"type": "tool.result", "id", "attempt", "result"} or {"type": "tool.error", "id",
/// "error", "retryable", "attempt"}, which goes through PendingAnswerIntake (the path
/// `toolstudio answer` takes) and replies when the running process accepted or
/// refused it — the HTTP routes of RunsService — and `POST
/// /v1/runs/{run}/calls/{call_id}/decision` with {"decision": "continue" | "answer" |
/// "fail" | "time_out", …} for a served call held by step mode (ServedStepMode; decided
/// in this process, not through the journal). Lives on the Qt thread; HttpServer
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
    /// Where the decision route decides held served calls; nullptr: every call is
    /// answered 409 not_held. Before install().
    void setStepMode(ServedStepMode *stepMode) { m_stepMode = stepMode; }

private:
    void answerCall(const HttpRequest &request, const HttpResponder &responder);
    void decideCall(const HttpRequest &request, const HttpResponder &responder);

    Project m_project;
    std::unique_ptr<Journal> m_journal;
    RunsService *m_runs = nullptr;
    ServedStepMode *m_stepMode = nullptr;
};
