// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpstudiotools.h"

#include "journal/journal.h"
#include "project/printabletext.h"
#include "runsservice.h"

using nlohmann::json;

namespace {

json textResult(const std::string &text, bool isError)
{
    return {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", isError}};
}

json refusal(const QString &message)
{
    return textResult(message.toStdString(), true);
}

/// `reply` as a CallToolResult: the body as structuredContent and its text, or the
/// refusal's code and message as an error result.
json resultOf(const RunsService::Reply &reply)
{
    if (!reply.ok())
        return refusal(QStringLiteral("%1: %2").arg(QString::fromStdString(reply.code), reply.message));
    json result = textResult(reply.body.dump(-1, ' ', false, json::error_handler_t::replace), false);
    result["structuredContent"] = reply.body;
    return result;
}

json runProperty()
{
    return {{"type", "string"}, {"description", "The run's id, as studio.list_runs lists it."}};
}

/// A string argument `key` of `arguments`, or nullopt.
std::optional<QString> stringArgument(const json &arguments, const char *key)
{
    const auto it = arguments.find(key);
    if (it == arguments.end() || !it->is_string())
        return std::nullopt;
    return QString::fromStdString(it->get<std::string>());
}

/// An integer argument `key` from `low` to `high`, `fallback` when absent; nullopt when
/// present and not such an integer.
std::optional<int> intArgument(const json &arguments, const char *key, int low, int high, int fallback)
{
    const auto it = arguments.find(key);
    if (it == arguments.end())
        return fallback;
    if (!it->is_number_integer() || it->get<std::int64_t>() < low || it->get<std::int64_t>() > high)
        return std::nullopt;
    return int(it->get<std::int64_t>());
}

} // namespace

McpStudioTools::McpStudioTools(const Project &project, QObject *parent)
    : QObject(parent)
    , m_project(project)
{}

McpStudioTools::~McpStudioTools() = default;

QStringList McpStudioTools::clashes(const Project &project)
{
    QStringList names;
    for (const Tool &tool : project.tools)
        if (isStudioTool(tool.name))
            names << tool.name;
    return names;
}

json McpStudioTools::toolList()
{
    return json::array(
        {{{"name", "studio.list_runs"},
          {"description",
           "List the Tool Studio project's latest runs, in the order they started (the newest last): "
           "id, status, kind, times, steps, script."},
          {"inputSchema",
           {{"type", "object"},
            {"properties",
             {{"last",
               {{"type", "integer"},
                {"minimum", 1},
                {"maximum", MaxRunsListed},
                {"description", "How many of the latest runs (default 50)."}}}}},
            {"additionalProperties", false}}},
          {"annotations", {{"readOnlyHint", true}}}},
         {{"name", "studio.get_run"},
          {"description",
           "One run of the project as the run-export JSON (run, steps with their attempts, policy "
           "events, output); steps in pages of at most 500 from from_sequence."},
          {"inputSchema",
           {{"type", "object"},
            {"properties",
             {{"run", runProperty()},
              {"from_sequence", {{"type", "integer"}, {"minimum", 1}, {"description", "The first step (default 1)."}}},
              {"limit",
               {{"type", "integer"},
                {"minimum", 1},
                {"maximum", MaxStepsPerPage},
                {"description", "Steps at most (default 100)."}}}}},
            {"required", {"run"}},
            {"additionalProperties", false}}},
          {"annotations", {{"readOnlyHint", true}}}},
         {{"name", "studio.list_pending_calls"},
          {"description", "A run's calls that have not ended: which wait for an answer, which step mode holds."},
          {"inputSchema",
           {{"type", "object"},
            {"properties", {{"run", runProperty()}}},
            {"required", {"run"}},
            {"additionalProperties", false}}},
          {"annotations", {{"readOnlyHint", true}}}},
         {{"name", "studio.answer_call"},
          {"description",
           "End a call that waits for a person: give its result, or an error message. The process "
           "running the call checks it as it checks a person's answer."},
          {"inputSchema",
           {{"type", "object"},
            {"properties",
             {{"run", runProperty()},
              {"call_id", {{"type", "string"}}},
              {"attempt",
               {{"type", "integer"}, {"minimum", 1}, {"description", "The attempt answered (default: the current)."}}},
              {"result", {{"description", "The call's result (any JSON)."}}},
              {"error", {{"type", "string"}, {"description", "Fail the call with this message instead."}}},
              {"retryable", {{"type", "boolean"}, {"description", "With error: may the call be retried?"}}}}},
            {"required", {"run", "call_id"}},
            {"additionalProperties", false}}},
          {"annotations", {{"readOnlyHint", false}, {"destructiveHint", false}}}}});
}

bool McpStudioTools::ensureJournal(QString *error)
{
    if (m_journal)
        return true;
    auto journal = std::make_unique<Journal>();
    if (!journal->open(m_project.journalPath(), error))
        return false;
    m_journal = std::move(journal);
    m_runs = new RunsService(m_project, m_journal.get(), this);
    return true;
}

void McpStudioTools::call(const QString &name, const json &arguments, std::function<void(json)> done)
{
    QString error;
    if (!ensureJournal(&error))
        return done(refusal(QStringLiteral("the journal cannot be opened: %1").arg(error)));
    if (name == QLatin1String("studio.list_runs")) {
        const std::optional<int> last = intArgument(arguments, "last", 1, MaxRunsListed, 50);
        if (!last)
            return done(
                refusal(QStringLiteral("studio.list_runs: last must be an integer from 1 to %1").arg(MaxRunsListed)));
        RunsService::Reply reply = m_runs->runs();
        json &runs = reply.body["runs"];
        reply.body["runs_total"] = runs.size();
        if (runs.size() > std::size_t(*last))
            runs.erase(runs.begin(), runs.end() - *last);
        return done(resultOf(reply));
    }
    const std::optional<QString> run = stringArgument(arguments, "run");
    if (!run)
        return done(refusal(QStringLiteral("%1 needs \"run\", a run id (studio.list_runs lists them)").arg(name)));
    if (name == QLatin1String("studio.list_pending_calls"))
        return done(resultOf(m_runs->pending(*run)));
    if (name == QLatin1String("studio.get_run")) {
        const std::optional<int> from = intArgument(arguments, "from_sequence", 1, INT_MAX, 1);
        const std::optional<int> limit = intArgument(arguments, "limit", 1, MaxStepsPerPage, 100);
        if (!from || !limit)
            return done(refusal(QStringLiteral("studio.get_run: from_sequence must be an integer of at least 1, "
                                               "limit one from 1 to %1")
                                    .arg(MaxStepsPerPage)));
        RunsService::Reply reply = m_runs->exportRun(*run);
        if (reply.ok() && reply.body.contains("steps") && reply.body["steps"].is_array()) {
            json &steps = reply.body["steps"];
            json page = json::array();
            for (json &step : steps)
                if (step.value("sequence", 0) >= *from && int(page.size()) < *limit)
                    page.push_back(std::move(step));
            reply.body["steps_total"] = steps.size();
            steps = std::move(page);
        }
        return done(resultOf(reply));
    }
    if (name != QLatin1String("studio.answer_call"))
        return done(refusal(QStringLiteral("unknown studio tool '%1'").arg(elidedText(name, 64))));
    PendingAnswer pending;
    pending.runId = *run;
    const std::optional<QString> callId = stringArgument(arguments, "call_id");
    const std::optional<int> attempt = intArgument(arguments, "attempt", 1, INT_MAX, 0);
    const bool hasResult = arguments.contains("result");
    const auto message = stringArgument(arguments, "error");
    if (!callId || !attempt || hasResult == arguments.contains("error") || (arguments.contains("error") && !message)
        || (arguments.contains("retryable") && !arguments["retryable"].is_boolean()))
        return done(refusal(QStringLiteral("studio.answer_call needs \"run\", \"call_id\" and either \"result\" (any "
                                           "JSON) or \"error\" (a message, with \"retryable\" true or false); "
                                           "\"attempt\" is an integer of at least 1")));
    pending.callId = *callId;
    pending.attempt = *attempt;
    pending.answer.isError = !hasResult;
    if (hasResult)
        pending.answer.result = arguments["result"];
    else {
        pending.answer.message = *message;
        pending.answer.retryable = arguments.value("retryable", false);
    }
    m_runs->answer(pending, RunsService::DefaultAnswerWaitMs,
                   [done](const RunsService::Reply &reply) { done(resultOf(reply)); });
}
