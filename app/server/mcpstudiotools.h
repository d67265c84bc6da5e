// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>

class Journal;
class RunsService;

/// `toolstudio serve --studio-tools` (docs/server.md "Studio tools"): four tools beside
/// the project's, for a coding agent that drives and inspects the studio over MCP as
/// Inngest's dev server offers —
///   studio.list_runs            the project's latest runs
///   studio.get_run              one run as the run-export JSON, its steps in pages
///   studio.list_pending_calls   a run's calls that have not ended
///   studio.answer_call          end a waiting call with a result or an error
/// They are the operations of seed 004's HTTP routes (RunsService), answered at once
/// from the journal; they are not steps of the session's run. An answer goes through
/// PendingAnswerIntake like `toolstudio answer`, so the process running the call
/// checks it (output_schema, attempt) and a person's answer in the window wins the same
/// way. Names start with "studio."; a project with a tool of that prefix is not served
/// with them (clashes()).
class McpStudioTools : public QObject
{
public:
    static constexpr int MaxStepsPerPage = 500;
    static constexpr int MaxRunsListed = 1000;

    explicit McpStudioTools(const Project &project, QObject *parent = nullptr);
    ~McpStudioTools() override;

    static bool isStudioTool(const QString &name) { return name.startsWith(QLatin1String("studio.")); }
    /// The project's tools whose names start with "studio." (they would be shadowed).
    static QStringList clashes(const Project &project);
    /// The four tools as tools/list entries.
    static nlohmann::json toolList();
    /// Calls studio tool `name` with `arguments` (an object); `done` gets the
    /// CallToolResult (structuredContent and its text; `isError` with the reason for a
    /// refusal), at once or, for an answer, once the running process took it up.
    void call(const QString &name, const nlohmann::json &arguments, std::function<void(nlohmann::json)> done);

private:
    bool ensureJournal(QString *error);

    Project m_project;
    std::unique_ptr<Journal> m_journal;
    RunsService *m_runs = nullptr;
};
