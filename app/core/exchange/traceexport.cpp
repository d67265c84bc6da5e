// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/traceexport.h"

#include "journal/journal.h"
#include "jsoninput.h"
#include "project/jsonerror.h"
#include "project/laneassigner.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
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

nlohmann::json errorJson(const std::optional<StepError> &error)
{
    return error ? error->toJson() : nlohmann::json();
}

// A field of the run JSON that is missing or of the wrong type: `path` names it.
struct ImportError
{
    QString path;
    QString message;
};

const char *typeName(const nlohmann::json &value)
{
    return value.type_name(); // "null", "object", "array", "string", "number", "boolean"
}

/// Reads the fields of one JSON object, naming each by its path in errors.
class FieldReader
{
public:
    FieldReader(const nlohmann::json &object, QString path)
        : m_object(object)
        , m_path(std::move(path))
    {
        if (!m_object.is_object())
            throw ImportError{m_path,
                              QStringLiteral("expected an object, found %1").arg(QLatin1String(typeName(m_object)))};
    }
    QString path(const char *key) const
    {
        return m_path.isEmpty() ? QString::fromLatin1(key) : m_path + QLatin1Char('.') + QLatin1String(key);
    }
    const nlohmann::json *find(const char *key, bool required) const
    {
        const auto it = m_object.find(key);
        if (it == m_object.end()) {
            if (required)
                throw ImportError{path(key), QStringLiteral("missing")};
            return nullptr;
        }
        return &*it;
    }
    QString string(const char *key, bool required = true) const
    {
        const nlohmann::json *value = find(key, required);
        if (!value || (value->is_null() && !required))
            return {};
        if (!value->is_string())
            throw ImportError{path(key),
                              QStringLiteral("expected a string, found %1").arg(QLatin1String(typeName(*value)))};
        return QString::fromStdString(value->get<std::string>());
    }
    qint64 integer(const char *key, bool required = true, qint64 fallback = 0) const
    {
        const nlohmann::json *value = find(key, required);
        if (!value)
            return fallback;
        if (!value->is_number_integer())
            throw ImportError{
                path(key), QStringLiteral("expected an integer, found %1").arg(QString::fromStdString(value->dump()))};
        return value->get<qint64>();
    }
    bool boolean(const char *key, bool required = true) const
    {
        const nlohmann::json *value = find(key, required);
        if (!value)
            return false;
        if (!value->is_boolean())
            throw ImportError{
                path(key),
                QStringLiteral("expected true or false, found %1").arg(QString::fromStdString(value->dump()))};
        return value->get<bool>();
    }
    const nlohmann::json &array(const char *key, bool required = true) const
    {
        static const nlohmann::json empty = nlohmann::json::array();
        const nlohmann::json *value = find(key, required);
        if (!value)
            return empty;
        if (!value->is_array())
            throw ImportError{path(key),
                              QStringLiteral("expected an array, found %1").arg(QLatin1String(typeName(*value)))};
        return *value;
    }
    std::optional<StepError> error(const char *key) const
    {
        const nlohmann::json *value = find(key, false);
        if (!value || value->is_null())
            return std::nullopt;
        Result<StepError> error = StepError::fromJson(*value);
        if (!error)
            throw ImportError{path(key), error.error()};
        return std::move(error).value();
    }

private:
    const nlohmann::json &m_object;
    QString m_path;
};

QString indexPath(const char *array, std::size_t index)
{
    return QStringLiteral("%1[%2]").arg(QLatin1String(array)).arg(index);
}

QString statusNames(bool steps)
{
    QStringList names;
    if (steps) {
        for (int s = int(StepStatus::Queued); s <= int(StepStatus::Cancelled); ++s)
            names.append(stepStatusName(StepStatus(s)));
    } else {
        for (int s = int(RunStatus::Running); s <= int(RunStatus::Suspended); ++s)
            names.append(runStatusName(RunStatus(s)));
    }
    return names.join(QStringLiteral(", "));
}

Step readStep(const nlohmann::json &json, const QString &path, const QString &runId)
{
    const FieldReader f(json, path);
    Step s;
    s.runId = runId;
    s.callId = f.string("call_id");
    s.sequence = int(f.integer("sequence"));
    s.tool = f.string("tool");
    const QString status = f.string("status");
    const std::optional<StepStatus> parsed = stepStatusFromName(status);
    if (!parsed)
        throw ImportError{f.path("status"),
                          QStringLiteral("unknown step status \"%1\" (one of %2)").arg(status, statusNames(true))};
    s.status = *parsed;
    s.idempotencyKey = f.string("idempotency_key", false);
    if (const nlohmann::json *args = f.find("args", true))
        s.args = *args;
    s.maxAttempts = int(f.integer("max_attempts", false, 1));
    s.queuedAt = f.integer("queued_at", false);
    s.startedAt = f.integer("started_at", false);
    s.endedAt = f.integer("ended_at", false);
    const nlohmann::json *result = f.find("result", false);
    if (f.boolean("has_result", false) || (result && !result->is_null()))
        s.result = result ? *result : nlohmann::json();
    s.error = f.error("error");
    if (const nlohmann::json *original = f.find("original_args", false))
        s.originalArgs = *original;
    s.divergence = f.string("divergence", false);
    s.recordedStartedAt = f.integer("recorded_started_at", false);
    s.recordedEndedAt = f.integer("recorded_ended_at", false);
    s.heldAt = f.integer("held_at", false);
    const nlohmann::json &attempts = f.array("attempts", false);
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const FieldReader a(attempts[i], path + QLatin1Char('.') + indexPath("attempts", i));
        Attempt attempt;
        attempt.number = int(a.integer("number"));
        attempt.startedAt = a.integer("started_at", false);
        attempt.endedAt = a.integer("ended_at", false);
        attempt.succeeded = a.boolean("succeeded", false);
        attempt.error = a.error("error");
        attempt.output = a.string("output", false).toUtf8();
        if (const nlohmann::json *protocol = a.find("protocol", false))
            attempt.protocol = *protocol;
        if (const nlohmann::json *waits = a.find("person_waits", false))
            attempt.personWaits = personWaitsFromJson(*waits);
        s.attempts.push_back(std::move(attempt));
    }
    return s;
}

TraceExport::ImportedRun readRun(const nlohmann::json &root)
{
    const FieldReader top(root, QString());
    const QString format = top.string("format");
    if (format != QLatin1String("toolstudio-run"))
        throw ImportError{
            QStringLiteral("format"),
            QStringLiteral("\"%1\" is not a Tool Studio run export (expected \"toolstudio-run\")").arg(format)};
    const qint64 version = top.integer("version");
    if (version != 1)
        throw ImportError{QStringLiteral("version"),
                          QStringLiteral("version %1 is not supported: this Tool Studio reads version 1 "
                                         "(export the run again with this version)")
                              .arg(version)};
    TraceExport::ImportedRun imported;
    const FieldReader r(*top.find("run", true), QStringLiteral("run"));
    RunRecord &run = imported.run;
    run.id = r.string("id");
    run.scriptPath = r.string("script", false);
    const QString status = r.string("status");
    const std::optional<RunStatus> parsed = runStatusFromName(status);
    if (!parsed)
        throw ImportError{r.path("status"),
                          QStringLiteral("unknown run status \"%1\" (one of %2)").arg(status, statusNames(false))};
    run.status = *parsed;
    if (const QString kind = r.string("kind", false); !kind.isEmpty()) {
        const std::optional<RunKind> parsedKind = runKindFromName(kind);
        if (!parsedKind)
            throw ImportError{r.path("kind"), QStringLiteral("unknown run kind \"%1\"").arg(kind)};
        run.kind = *parsedKind;
    }
    run.startedAt = r.integer("started_at");
    run.endedAt = r.integer("ended_at", false);
    run.exitCode = int(r.integer("exit_code", false, -1));
    run.error = r.string("error", false);
    run.sourceRun = r.string("source_run", false);
    const nlohmann::json &steps = top.array("steps");
    for (std::size_t i = 0; i < steps.size(); ++i)
        imported.steps.push_back(readStep(steps[i], indexPath("steps", i), run.id));
    const nlohmann::json &events = top.array("policy_events", false);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const FieldReader e(events[i], indexPath("policy_events", i));
        PolicyEvent event;
        event.runId = run.id;
        event.sequence = int(e.integer("sequence"));
        event.at = e.integer("at");
        const QString kind = e.string("kind");
        const std::optional<PolicyEventKind> parsedKind = policyEventKindFromName(kind);
        if (!parsedKind)
            throw ImportError{e.path("kind"), QStringLiteral("unknown policy event kind \"%1\"").arg(kind)};
        event.kind = *parsedKind;
        if (const nlohmann::json *detail = e.find("detail", false))
            event.detail = *detail;
        imported.events.push_back(std::move(event));
    }
    if (const nlohmann::json *output = top.find("output", false)) {
        const FieldReader o(*output, QStringLiteral("output"));
        imported.stdoutText = o.string("stdout", false).toUtf8();
        imported.stderrText = o.string("stderr", false).toUtf8();
    }
    return imported;
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
    LaneAssigner assigner;
    for (size_t i : order)
        lane[i] = assigner.place(stepStart(steps[i]), stepEnd(steps[i]));
    return lane;
}

nlohmann::json runJson(const RunRecord &run, const std::vector<Step> &steps, const std::vector<PolicyEvent> &events,
                       const QByteArray &stdoutText, const QByteArray &stderrText)
{
    nlohmann::json r = {{"id", str(run.id)},
                        {"script", str(run.scriptPath)},
                        {"status", str(runStatusName(run.status))},
                        {"kind", str(runKindName(run.kind))},
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
        if (s.recordedEndedAt > 0) { // memoized from another run: its timing there
            j["recorded_started_at"] = s.recordedStartedAt;
            j["recorded_ended_at"] = s.recordedEndedAt;
        }
        if (s.heldAt > 0) // held by step mode from then until queued_at
            j["held_at"] = s.heldAt;
        nlohmann::json attempts = nlohmann::json::array();
        for (const Attempt &a : s.attempts) {
            nlohmann::json attempt{
                {"number", a.number},          {"started_at", a.startedAt},
                {"ended_at", a.endedAt},       {"succeeded", a.succeeded},
                {"error", errorJson(a.error)}, {"output", QString::fromUtf8(a.output).toStdString()}};
            if (!a.protocol.is_null()) // an MCP attempt's JSON-RPC exchange
                attempt["protocol"] = a.protocol;
            if (!a.personWaits.empty()) // [[asked_at, answered_at], ...]
                attempt["person_waits"] = personWaitsJson(a.personWaits);
            attempts.push_back(std::move(attempt));
        }
        j["attempts"] = std::move(attempts);
        stepsJson.push_back(std::move(j));
    }
    nlohmann::json eventsJson = nlohmann::json::array();
    for (const PolicyEvent &e : events)
        eventsJson.push_back(
            {{"sequence", e.sequence}, {"at", e.at}, {"kind", str(policyEventKindName(e.kind))}, {"detail", e.detail}});
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
    trace.push_back({{"name", "process_name"},
                     {"ph", "M"},
                     {"pid", 1},
                     {"tid", 0},
                     {"args", {{"name", str(QStringLiteral("run %1").arg(run.id))}}}});
    const int laneCount = lane.empty() ? 0 : *std::max_element(lane.begin(), lane.end()) + 1;
    for (int l = 0; l < laneCount; ++l)
        trace.push_back({{"name", "thread_name"},
                         {"ph", "M"},
                         {"pid", 1},
                         {"tid", l + 1},
                         {"args", {{"name", str(QStringLiteral("call slot %1").arg(l + 1))}}}});
    for (size_t i = 0; i < steps.size(); ++i) {
        const Step &s = steps[i];
        const qint64 start = stepStart(s);
        if (start == 0)
            continue;
        nlohmann::json args = {{"call_id", str(s.callId)},
                               {"sequence", s.sequence},
                               {"status", str(stepStatusName(s.status))},
                               {"attempts", str(s.attemptsText())}};
        if (s.error)
            args["error"] = s.error->text().toStdString();
        if (s.recordedEndedAt > 0) // memoized: how long it took in the recorded run
            args["recorded_duration_ms"] = s.recordedEndedAt - s.recordedStartedAt;
        trace.push_back({{"name", str(s.tool)},
                         {"cat", "step"},
                         {"ph", "X"},
                         {"pid", 1},
                         {"tid", lane[i] + 1},
                         {"ts", us(start)},
                         {"dur", (stepEnd(s) - start) * 1000},
                         {"args", std::move(args)}});
        for (const Attempt &a : s.attempts) {
            if (a.startedAt == 0)
                continue;
            const qint64 end = std::max(a.endedAt, a.startedAt);
            nlohmann::json aargs = {{"succeeded", a.succeeded}};
            if (a.error)
                aargs["error"] = a.error->text().toStdString();
            trace.push_back({{"name", str(QStringLiteral("attempt %1").arg(a.number))},
                             {"cat", "attempt"},
                             {"ph", "X"},
                             {"pid", 1},
                             {"tid", lane[i] + 1},
                             {"ts", us(a.startedAt)},
                             {"dur", (end - a.startedAt) * 1000},
                             {"args", std::move(aargs)}});
            // What of the attempt a person was waited for, nested in it (Perfetto draws
            // it under the attempt's slice).
            for (const PersonWait &w : closedWaits(a.personWaits, end))
                trace.push_back({{"name", "waiting for a person"},
                                 {"cat", "wait"},
                                 {"ph", "X"},
                                 {"pid", 1},
                                 {"tid", lane[i] + 1},
                                 {"ts", us(w.askedAt)},
                                 {"dur", (w.answeredAt - w.askedAt) * 1000}});
        }
    }
    for (const PolicyEvent &e : events)
        trace.push_back({{"name", str(policyEventKindName(e.kind))},
                         {"cat", "policy"},
                         {"ph", "i"},
                         {"s", "p"},
                         {"pid", 1},
                         {"tid", 0},
                         {"ts", us(e.at)},
                         {"args", e.detail}});
    return {{"traceEvents", std::move(trace)}, {"displayTimeUnit", "ms"}};
}

std::optional<ImportedRun> readRunJson(const QByteArray &text, QString *error)
{
    if (JsonInput::Problem bound = JsonInput::overLimit(std::string_view(text.constData(), std::size_t(text.size())));
        bound.limit) {
        if (error) {
            const TextPosition at = textPositionAt(text, bound.byte);
            bound.byte = std::string_view::npos; // worded as line and column
            *error = QStringLiteral("line %1, column %2: %3")
                         .arg(at.line)
                         .arg(at.column)
                         .arg(QString::fromStdString(JsonInput::describe("the run", bound)));
        }
        return std::nullopt;
    }
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(text.constBegin(), text.constEnd());
    } catch (const nlohmann::json::parse_error &e) {
        if (error) {
            const TextPosition at = textPositionAt(text, e.byte > 0 ? e.byte - 1 : 0);
            *error = QStringLiteral("line %1, column %2: not valid JSON: %3")
                         .arg(at.line)
                         .arg(at.column)
                         .arg(jsonParseErrorReason(e));
        }
        return std::nullopt;
    } catch (const nlohmann::json::exception &e) { // a number it cannot hold: 1e999
        if (error)
            *error = QStringLiteral("not valid JSON: %1").arg(jsonParseErrorReason(e));
        return std::nullopt;
    }
    try {
        return readRun(root);
    } catch (const ImportError &e) {
        if (error)
            *error = e.path.isEmpty() ? e.message : e.path + QStringLiteral(": ") + e.message;
        return std::nullopt;
    }
}

std::optional<ImportedRun> readRunFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return std::nullopt;
    }
    QString reason;
    std::optional<ImportedRun> run = readRunJson(file.readAll(), &reason);
    if (!run && error)
        *error = QFileInfo(path).fileName() + QStringLiteral(": ") + reason;
    return run;
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
    const std::string text
        = out.dump(format == QLatin1String("json") ? 2 : -1, ' ', false, nlohmann::json::error_handler_t::replace)
        + "\n";
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
