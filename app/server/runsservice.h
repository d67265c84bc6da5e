// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/step.h"

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

class Journal;

/// One run as `toolstudio runs --json` prints it and `GET /v1/runs` lists it: id,
/// status, kind, started_at, ended_at (ms since the epoch), steps, script (relative to
/// the project), and source_run and error when set.
nlohmann::json runSummaryJson(const RunRecord &run, int steps, const QString &script);

/// What the studio's server offers on a project's runs, whatever the transport: seed
/// 004's HTTP routes (PendingCallsApi) and the MCP server's studio tools
/// (McpStudioTools, `toolstudio serve --studio-tools`) — list the runs, one run as the
/// run-export JSON, a run's calls that have not ended, and ending a pending call
/// through PendingAnswerIntake (the path `toolstudio answer` takes). Lives on the Qt
/// thread; the journal is the caller's.
class RunsService : public QObject
{
public:
    /// A reply in HTTP's terms: a status, and the body (status < 300) or the refusal's
    /// code and message.
    struct Reply
    {
        int status = 200;
        nlohmann::json body;
        std::string code;
        QString message;
        bool ok() const { return status < 300; }
    };

    RunsService(const Project &project, Journal *journal, QObject *parent = nullptr);

    /// {"runs": [...]}, in the order they started (oldest first).
    Reply runs() const;
    /// The run-export JSON (docs/run-export.md); 404 unknown_run.
    Reply exportRun(const QString &runId) const;
    /// {"run", "status", "pending": [{call_id, sequence, tool, args, status, attempt,
    /// held_by_step_mode}]}; 404 unknown_run.
    Reply pending(const QString &runId) const;
    /// Ends a pending call. `done` gets the reply exactly once: at once for a refusal
    /// (404/409/500) or an answer kept for a suspended run (202 "kept"); else 200
    /// "accepted" or 409 when the running process took it up or refused it, or 504
    /// not_picked_up after `waitMs`. Never after this object is gone.
    void answer(const PendingAnswer &answer, int waitMs, std::function<void(const Reply &)> done);

    /// How long an answer waits for the running process to take it up (ms).
    static constexpr int DefaultAnswerWaitMs = 10000;

private:
    static Reply failure(int status, const char *code, const QString &message);

    Project m_project;
    Journal *m_journal;
};
