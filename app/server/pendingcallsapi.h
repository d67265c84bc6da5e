// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"

#include <QObject>

#include <nlohmann/json.hpp>

#include <memory>

class HttpServer;
struct HttpRequest;
class HttpResponder;
class Journal;
struct RunRecord;

/// One run as `toolstudio runs --json` prints it and `GET /v1/runs` lists it: id,
/// status, kind, started_at, ended_at (ms since the epoch), steps, script (relative to
/// the project), and source_run and error when set.
nlohmann::json runSummaryJson(const RunRecord &run, int steps, const QString &script);

/// Seed 004's client API on the studio's server (docs/server.md "Runs and pending
/// calls"): `GET /v1/runs`, `GET /v1/runs/{run}` (the run-export JSON),
/// `GET /v1/runs/{run}/pending`, and `POST /v1/runs/{run}/calls/{call_id}` with
/// {"type": "tool.result", "id", "attempt", "result"} or {"type": "tool.error", "id",
/// "error", "retryable", "attempt"}, which goes through PendingAnswerIntake (the path
/// `toolstudio answer` takes) and replies when the running process accepted or
/// refused it. Lives on the Qt thread; HttpServer queues each request to it.
class PendingCallsApi : public QObject
{
public:
    /// Opens the journal of `project` (created if the project never ran).
    explicit PendingCallsApi(const Project &project, QObject *parent = nullptr);
    ~PendingCallsApi() override;

    /// False with `error` when the journal cannot be opened.
    bool open(QString *error);
    void install(HttpServer &server);

    /// How long a POST waits for the running process to take the answer up (ms).
    static constexpr int DefaultAnswerWaitMs = 10000;

private:
    void listRuns(const HttpResponder &responder);
    void exportRun(const HttpRequest &request, const HttpResponder &responder);
    void listPending(const HttpRequest &request, const HttpResponder &responder);
    void answerCall(const HttpRequest &request, const HttpResponder &responder);
    /// Polls answer `id` until the running process resolves it or `waitMs` passes.
    void awaitResolution(qint64 id, const nlohmann::json &accepted, int waitMs, const HttpResponder &responder);

    Project m_project;
    std::unique_ptr<Journal> m_journal;
};
