// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "traceexport.h"

#include "headlessrun.h"
#include "journal.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QSaveFile>

#include <algorithm>
#include <numeric>

namespace {

std::string str(const QString &s)
{
    return s.toStdString();
}

qint64 stepStart(const Step &s)
{
    if (!s.attempts.empty() && s.attempts.front().startedAt > 0)
        return s.attempts.front().startedAt;
    return s.startedAt > 0 ? s.startedAt : s.queuedAt;
}

qint64 stepEnd(const Step &s)
{
    return std::max(s.endedAt, stepStart(s) + 1);
}

nlohmann::json errorJson(const std::optional<BridgeError> &error)
{
    return error ? error->toJson() : nlohmann::json();
}

} // namespace

namespace TraceExport {

std::vector<int> lanes(const std::vector<Step> &steps)
{
    std::vector<size_t> order(steps.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return stepStart(steps[a]) < stepStart(steps[b]); });
    std::vector<int> lane(steps.size(), 0);
    std::vector<qint64> laneEnd;
    for (size_t i : order) {
        size_t l = 0;
        while (l < laneEnd.size() && laneEnd[l] > stepStart(steps[i]))
            ++l;
        if (l == laneEnd.size())
            laneEnd.push_back(0);
        laneEnd[l] = stepEnd(steps[i]);
        lane[i] = int(l);
    }
    return lane;
}

nlohmann::json runJson(const RunRecord &run, const std::vector<Step> &steps, const std::vector<PolicyEvent> &events,
                       const QByteArray &stdoutText, const QByteArray &stderrText)
{
    nlohmann::json r = {{"id", str(run.id)},
                        {"script", str(run.scriptPath)},
                        {"status", str(runStatusName(run.status))},
                        {"kind", str(run.kind)},
                        {"started_at", run.startedAt},
                        {"ended_at", run.endedAt},
                        {"exit_code", run.exitCode}};
    if (!run.error.isEmpty())
        r["error"] = str(run.error);
    if (!run.sourceRun.isEmpty())
        r["source_run"] = str(run.sourceRun);
    nlohmann::json stepsJson = nlohmann::json::array();
    for (const Step &s : steps) {
        nlohmann::json j = {{"call_id", str(s.callId)},
                            {"sequence", s.sequence},
                            {"tool", str(s.tool)},
                            {"status", str(stepStatusName(s.status))},
                            {"idempotency_key", str(s.idempotencyKey)},
                            {"args", s.args},
                            {"max_attempts", s.maxAttempts},
                            {"queued_at", s.queuedAt},
                            {"started_at", s.startedAt},
                            {"ended_at", s.endedAt},
                            {"result", s.result ? *s.result : nlohmann::json()},
                            {"has_result", s.result.has_value()},
                            {"error", errorJson(s.error)}};
        if (s.originalArgs)
            j["original_args"] = *s.originalArgs;
        if (!s.divergence.isEmpty())
            j["divergence"] = str(s.divergence);
        nlohmann::json attempts = nlohmann::json::array();
        for (const Attempt &a : s.attempts)
            attempts.push_back({{"number", a.number},
                                {"started_at", a.startedAt},
                                {"ended_at", a.endedAt},
                                {"succeeded", a.succeeded},
                                {"error", errorJson(a.error)},
                                {"output", QString::fromUtf8(a.output).toStdString()}});
        j["attempts"] = std::move(attempts);
        stepsJson.push_back(std::move(j));
    }
    nlohmann::json eventsJson = nlohmann::json::array();
    for (const PolicyEvent &e : events)
        eventsJson.push_back({{"sequence", e.sequence}, {"at", e.at}, {"kind", str(e.kind)}, {"detail", e.detail}});
    return {{"format", "toolstudio-run"},
            {"version", 1},
            {"run", std::move(r)},
            {"steps", std::move(stepsJson)},
            {"policy_events", std::move(eventsJson)},
            {"output",
             {{"stdout", QString::fromUtf8(stdoutText).toStdString()},
              {"stderr", QString::fromUtf8(stderrText).toStdString()}}}};
}

nlohmann::json chromeTrace(const RunRecord &run, const std::vector<Step> &steps, const std::vector<PolicyEvent> &events)
{
    const qint64 origin = run.startedAt;
    const auto us = [origin](qint64 ms) { return (ms - origin) * 1000; };
    const std::vector<int> lane = lanes(steps);
    nlohmann::json trace = nlohmann::json::array();
    trace.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 0},
                     {"args", {{"name", str(QStringLiteral("run %1").arg(run.id))}}}});
    const int laneCount = lane.empty() ? 0 : *std::max_element(lane.begin(), lane.end()) + 1;
    for (int l = 0; l < laneCount; ++l)
        trace.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", l + 1},
                         {"args", {{"name", str(QStringLiteral("call slot %1").arg(l + 1))}}}});
    for (size_t i = 0; i < steps.size(); ++i) {
        const Step &s = steps[i];
        const qint64 start = stepStart(s);
        if (start == 0)
            continue;
        nlohmann::json args = {{"call_id", str(s.callId)}, {"sequence", s.sequence},
                               {"status", str(stepStatusName(s.status))}, {"attempts", str(s.attemptsText())}};
        if (s.error)
            args["error"] = s.error->code + ": " + s.error->message;
        trace.push_back({{"name", str(s.tool)}, {"cat", "step"}, {"ph", "X"}, {"pid", 1}, {"tid", lane[i] + 1},
                         {"ts", us(start)}, {"dur", (stepEnd(s) - start) * 1000}, {"args", std::move(args)}});
        for (const Attempt &a : s.attempts) {
            if (a.startedAt == 0)
                continue;
            const qint64 end = std::max(a.endedAt, a.startedAt);
            nlohmann::json aargs = {{"succeeded", a.succeeded}};
            if (a.error)
                aargs["error"] = a.error->code + ": " + a.error->message;
            trace.push_back({{"name", str(QStringLiteral("attempt %1").arg(a.number))}, {"cat", "attempt"},
                             {"ph", "X"}, {"pid", 1}, {"tid", lane[i] + 1}, {"ts", us(a.startedAt)},
                             {"dur", (end - a.startedAt) * 1000}, {"args", std::move(aargs)}});
        }
    }
    for (const PolicyEvent &e : events)
        trace.push_back({{"name", str(e.kind)}, {"cat", "policy"}, {"ph", "i"}, {"s", "p"}, {"pid", 1}, {"tid", 0},
                         {"ts", us(e.at)}, {"args", e.detail}});
    return {{"traceEvents", std::move(trace)}, {"displayTimeUnit", "ms"}};
}

bool exportRun(Journal &journal, const QString &runId, const QString &format, const QString &path, QString *error)
{
    const std::optional<RunRecord> run = journal.run(runId);
    if (!run) {
        if (error)
            *error = QStringLiteral("no run %1 in the journal").arg(runId);
        return false;
    }
    const std::vector<Step> steps = journal.steps(runId);
    const std::vector<PolicyEvent> events = journal.events(runId);
    nlohmann::json out;
    if (format == QLatin1String("json"))
        out = runJson(*run, steps, events, journal.output(runId, 1), journal.output(runId, 2));
    else if (format == QLatin1String("chrome"))
        out = chromeTrace(*run, steps, events);
    else {
        if (error)
            *error = QStringLiteral("unknown format %1 (json or chrome)").arg(format);
        return false;
    }
    const std::string text = out.dump(format == QLatin1String("json") ? 2 : -1, ' ', false,
                                      nlohmann::json::error_handler_t::replace) + "\n";
    if (path.isEmpty() || path == QLatin1String("-")) {
        fwrite(text.data(), 1, text.size(), stdout);
        fflush(stdout);
        return true;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

} // namespace TraceExport

int traceCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Export a recorded run as JSON (docs/run-export.md) or Chrome trace-event JSON (Perfetto)."));
    parser.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The subcommand: export."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder (default: the current folder)."));
    parser.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("The run id (toolstudio runs PROJECT)."));
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("json (default) or chrome."),
                                          QStringLiteral("FORMAT"), QStringLiteral("json"));
    const QCommandLineOption outputOption({QStringLiteral("o"), QStringLiteral("output")},
                                          QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE"));
    parser.addOption(formatOption);
    parser.addOption(outputOption);
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("trace"), arguments, 2, 3, &exitCode);
    if (!positional)
        return exitCode;
    if (positional->at(0) != QLatin1String("export")) {
        printLine(stderr, QStringLiteral("toolstudio trace: unknown subcommand %1 (export)").arg(positional->at(0)));
        return ExitBadInput;
    }
    const QString dir = positional->size() == 3 ? positional->at(1) : QDir::currentPath();
    const QString runId = positional->last();
    const auto project = loadProjectFor(QStringLiteral("trace"), dir);
    if (!project)
        return ExitBadInput;
    Journal journal;
    QString error;
    if (!journal.open(project->journalPath(), &error)
        || !TraceExport::exportRun(journal, runId, parser.value(formatOption), parser.value(outputOption), &error)) {
        printLine(stderr, QStringLiteral("toolstudio trace: %1").arg(error));
        return ExitBadInput;
    }
    return ExitCompleted;
}
