// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/project.h"

#include "jsoninput.h"
#include "posixutil.h"
#include "project/jsonerror.h"
#include "project/jsonpositions.h"
#include "project/jsonqt.h"
#include "project/manifestreader.h"
#include "project/projecttrust.h"
#include "project/pythontools.h"
#include "project/schemavalidator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

// The manifest format is documented in docs/project-format.md; keep the two in step.

namespace {

/// A bound tool named SERVER__TOOL of a server in mcp_servers: its tools are known
/// once the server is connected (McpProjectTools::addTools says when it lacks one).
bool namesMcpServer(const Project &project, const QString &toolName)
{
    const qsizetype split = toolName.indexOf(QLatin1String("__"));
    const QString server = toolName.left(split);
    return split > 0
        && std::any_of(project.mcpServers.begin(), project.mcpServers.end(),
                       [&server](const McpServerConfig &config) { return config.name == server; });
}

using json = nlohmann::json;
using namespace ManifestReader;

constexpr auto ManifestName = "toolstudio.json";

ProjectLimits parseLimits(const json &object)
{
    const QString where = QStringLiteral("limits");
    checkKeys(object,
              {"request_bytes", "reply_bytes", "max_calls", "run_timeout_seconds", "output_bytes", "work_dir_mb",
               "max_model_calls", "max_tokens", "model_request_bytes", "model_reply_bytes"},
              where);
    ProjectLimits limits;
    limits.requestBytes = std::size_t(integerValue(object, "request_bytes", where, qint64(limits.requestBytes), 1));
    limits.replyBytes = std::size_t(integerValue(object, "reply_bytes", where, qint64(limits.replyBytes), 1));
    limits.maxCalls = int(
        qMin<qint64>(integerValue(object, "max_calls", where, limits.maxCalls, 1), std::numeric_limits<int>::max()));
    const double runTimeout = numberValue(object, "run_timeout_seconds", where, limits.runTimeoutMs / 1000.0, 0.001);
    limits.runTimeoutMs = secondsToMs(runTimeout);
    limits.outputBytes = std::size_t(integerValue(object, "output_bytes", where, qint64(limits.outputBytes), 1));
    // MiB, at most 2^40 (1 EiB) so that the bytes fit a qint64.
    limits.workDirBytes
        = qMin<qint64>(integerValue(object, "work_dir_mb", where, limits.workDirBytes >> 20, 1), 1ll << 40) << 20;
    limits.maxModelCalls = int(qMin<qint64>(integerValue(object, "max_model_calls", where, limits.maxModelCalls, 1),
                                            std::numeric_limits<int>::max()));
    limits.maxTokens = integerValue(object, "max_tokens", where, limits.maxTokens, 0);
    limits.modelRequestBytes
        = std::size_t(integerValue(object, "model_request_bytes", where, qint64(limits.modelRequestBytes), 1));
    limits.modelReplyBytes
        = std::size_t(integerValue(object, "model_reply_bytes", where, qint64(limits.modelReplyBytes), 1));
    return limits;
}

std::vector<MockResponse> parseMockSequence(const json &handler, const QString &where)
{
    const json *sequence = member(handler, "sequence");
    if (!sequence)
        fail(at(where) + QStringLiteral("a mock handler needs a 'sequence' of results and errors"), &handler);
    if (!sequence->is_array() || sequence->empty())
        fail(at(where) + QStringLiteral("'sequence' must be a non-empty array"), sequence);
    std::vector<MockResponse> responses;
    int index = 0;
    for (const json &entry : *sequence) {
        const QString entryWhere = where + QStringLiteral(" sequence[%1]").arg(index++);
        if (!entry.is_object())
            fail(at(entryWhere) + QStringLiteral("must be an object, not %1").arg(typeName(entry)), &entry);
        checkKeys(entry, {"result", "error", "retryable", "delay_seconds"}, entryWhere);
        MockResponse response;
        const bool hasResult = entry.contains("result");
        const bool hasError = entry.contains("error");
        if (hasResult == hasError)
            fail(at(entryWhere) + QStringLiteral("needs exactly one of 'result' or 'error'"), &entry);
        if (hasResult) {
            response.result = entry.at("result");
            if (entry.contains("retryable"))
                fail(at(entryWhere) + QStringLiteral("'retryable' only applies to an 'error' entry"),
                     &entry.at("retryable"), true);
        } else {
            response.isError = true;
            response.errorMessage = stringValue(entry, "error", entryWhere, true);
            response.retryable = boolValue(entry, "retryable", entryWhere, true);
        }
        response.delayMs = secondsToMs(numberValue(entry, "delay_seconds", entryWhere, 0, 0));
        responses.push_back(std::move(response));
    }
    return responses;
}

void parseHandler(const json &handler, Tool &tool, const QString &where)
{
    const QString kind = stringValue(handler, "kind", where + QStringLiteral(" handler"), true);
    const QString handlerWhere = where + QStringLiteral(" handler");
    if (kind == QLatin1String("mock")) {
        checkKeys(handler, {"kind", "sequence"}, handlerWhere);
        tool.handler = HandlerKind::Mock;
        tool.mockSequence = parseMockSequence(handler, handlerWhere);
    } else if (kind == QLatin1String("manual")) {
        checkKeys(handler, {"kind"}, handlerWhere);
        tool.handler = HandlerKind::Manual;
    } else if (kind == QLatin1String("command")) {
        checkKeys(handler, {"kind", "command", "file_args"}, handlerWhere);
        tool.handler = HandlerKind::Command;
        const json *command = member(handler, "command");
        if (!command || !command->is_array() || command->empty())
            fail(at(handlerWhere)
                     + QStringLiteral("'command' must be a non-empty array of strings (program, then arguments)"),
                 command ? command : &handler);
        tool.command = stringList(handler, "command", handlerWhere);
        if (tool.command.first().isEmpty())
            fail(at(handlerWhere) + QStringLiteral("the program in 'command' is empty"),
                 &handler.at("command").front());
        if (member(handler, "file_args"))
            tool.commandFileArgs = stringList(handler, "file_args", handlerWhere);
        if (tool.commandFileArgs.size() > 16)
            fail(at(handlerWhere) + QStringLiteral("'file_args' names more than 16 arguments"),
                 member(handler, "file_args"));
    } else if (kind == QLatin1String("python")) {
        fail(at(handlerWhere)
                 + QStringLiteral("Python tools are declared by the files in tools/, not in toolstudio.json"),
             member(handler, "kind"));
    } else {
        fail(at(handlerWhere) + QStringLiteral("unknown kind '%1' (expected mock, manual or command)").arg(kind),
             member(handler, "kind"));
    }
}

Tool parseTool(const json &object, const nlohmann::ordered_json *ordered, const RetryPolicy &retryDefaults, int index)
{
    const QString indexWhere = QStringLiteral("tools[%1]").arg(index);
    if (!object.is_object())
        fail(at(indexWhere) + QStringLiteral("must be an object, not %1").arg(typeName(object)), &object);
    Tool tool;
    tool.name = stringValue(object, "name", indexWhere, true);
    if (!Tool::isValidName(tool.name))
        fail(QStringLiteral("tool '%1': invalid name (%2)").arg(tool.name, Tool::nameRule()), member(object, "name"));
    const QString where = QStringLiteral("tool '%1'").arg(tool.name);
    checkKeys(object,
              {"name", "title", "description", "annotations", "input_schema", "output_schema", "tags", "active",
               "retry", "handler"},
              where);

    tool.title = stringValue(object, "title", where, false);
    tool.description = stringValue(object, "description", where, false);
    if (const json *annotations = member(object, "annotations")) { // MCP's hints
        const QString annotationsWhere = where + QStringLiteral(" annotations");
        if (!annotations->is_object())
            fail(at(where) + QStringLiteral("'annotations' must be an object, not %1").arg(typeName(*annotations)),
                 annotations);
        checkKeys(*annotations, {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"},
                  annotationsWhere);
        for (const auto &[key, value] : annotations->items())
            boolValue(*annotations, key.c_str(), annotationsWhere, false);
        tool.annotations = *annotations;
    }

    // A tool without input_schema takes no arguments.
    if (const json *schema = member(object, "input_schema")) {
        if (!schema->is_object())
            fail(at(where)
                     + QStringLiteral("invalid input_schema: must be a JSON object, not %1").arg(typeName(*schema)),
                 schema);
        const json *type = member(*schema, "type");
        if (!type || *type != json("object"))
            fail(at(where)
                     + QStringLiteral("invalid input_schema: must be an object schema (\"type\": \"object\"), got %1")
                           .arg(type ? QStringLiteral("\"type\": ") + JsonQt::fromStd(type->dump())
                                     : QStringLiteral("no \"type\"")),
                 type ? type : schema);
        tool.inputSchema = *schema;
    } else {
        tool.inputSchema = json{{"type", "object"}};
    }
    const json *declaredSchema = member(object, "input_schema"); // null: the default above
    QString schemaError;
    if (!SchemaValidator::compile(tool.inputSchema, &schemaError))
        fail(at(where) + QStringLiteral("invalid input_schema: %1").arg(schemaError), declaredSchema);
    if (const json *properties = member(tool.inputSchema, "properties"); properties && !properties->is_object())
        fail(at(where) + QStringLiteral("invalid input_schema: 'properties' must be an object"),
             member(*declaredSchema, "properties"));

    // Positional arguments follow the declaration order, which only ordered_json keeps.
    if (ordered && ordered->is_object()) {
        const auto schema = ordered->find("input_schema");
        if (schema != ordered->end() && schema->is_object()) {
            const auto properties = schema->find("properties");
            if (properties != schema->end() && properties->is_object())
                for (auto it = properties->begin(); it != properties->end(); ++it)
                    tool.parameterOrder << JsonQt::fromStd(it.key());
        }
    }

    if (const json *schema = member(object, "output_schema")) {
        if (!SchemaValidator::compile(*schema, &schemaError))
            fail(at(where) + QStringLiteral("invalid output_schema: %1").arg(schemaError), schema);
        tool.outputSchema = *schema;
    }

    tool.tags = stringList(object, "tags", where);
    tool.active = boolValue(object, "active", where, true);

    const json *handler = member(object, "handler");
    if (!handler)
        fail(at(where) + QStringLiteral("'handler' is missing (e.g. {\"kind\": \"manual\"})"), &object);
    if (!handler->is_object())
        fail(at(where) + QStringLiteral("'handler' must be an object, not %1").arg(typeName(*handler)), handler);
    parseHandler(*handler, tool, where);

    RetryKeys keys;
    tool.retry = retryDefaults;
    if (member(object, "retry"))
        tool.retry
            = retryPolicy(objectMember(object, "retry", where), retryDefaults, where + QStringLiteral(" retry"), &keys);
    // A person may take any time (DESIGN.md "Retry policy"): a manual tool has no
    // timeouts unless its own retry sets them.
    if (tool.handler == HandlerKind::Manual) {
        if (!keys.attemptTimeout)
            tool.retry.attemptTimeoutMs = 0;
        if (!keys.totalTimeout)
            tool.retry.totalTimeoutMs = 0;
    }
    return tool;
}

ScriptEntry parseScript(const json &object, int index)
{
    const QString indexWhere = QStringLiteral("scripts[%1]").arg(index);
    if (!object.is_object())
        fail(at(indexWhere) + QStringLiteral("must be an object, not %1").arg(typeName(object)), &object);
    ScriptEntry script;
    script.path = stringValue(object, "path", indexWhere, true);
    if (script.path.isEmpty())
        fail(at(indexWhere) + QStringLiteral("'path' is empty"), member(object, "path"));
    script.name = stringValue(object, "name", indexWhere, false, QFileInfo(script.path).completeBaseName());
    const QString where = QStringLiteral("script '%1'").arg(script.name);
    checkKeys(object, {"name", "path", "tools"}, where);
    script.tools = stringList(object, "tools", where);
    return script;
}

/// `python_tools` (docs/project-format.md): per-project settings of Python tools —
/// active, tags, retry — since their definition is the method in tools/*.py.
void applyPythonOverrides(Project &project, const json &root)
{
    const json *overrides = member(root, "python_tools");
    if (!overrides)
        return;
    if (!overrides->is_object())
        fail(QStringLiteral("'python_tools' must be an object, not %1").arg(typeName(*overrides)), overrides);
    for (auto it = overrides->begin(); it != overrides->end(); ++it) {
        const QString name = JsonQt::fromStd(it.key());
        const QString where = QStringLiteral("python_tools '%1'").arg(name);
        if (!it->is_object())
            fail(at(where) + QStringLiteral("must be an object, not %1").arg(typeName(*it)), &*it);
        checkKeys(*it, {"active", "tags", "retry"}, where);
        const bool active = boolValue(*it, "active", where, true);
        const QStringList tags = stringList(*it, "tags", where);
        std::optional<RetryPolicy> retry;
        if (member(*it, "retry"))
            retry = retryPolicy(objectMember(*it, "retry", where), project.retryDefaults,
                                where + QStringLiteral(" retry"));
        Tool *tool = nullptr;
        for (Tool &t : project.tools)
            if (t.name == name)
                tool = &t;
        if (!tool) { // its file may be broken (or loading) for a moment: keep the settings
            if (!project.pythonLoading)
                project.pythonOverrideProblems
                    << QStringLiteral("toolstudio.json: python_tools '%1': no Python tool of that name is loaded")
                           .arg(name);
            continue;
        }
        if (tool->handler != HandlerKind::Python)
            fail(at(where) + QStringLiteral("'%1' is declared in 'tools'; set its keys there").arg(name), &*it, true);
        tool->active = active;
        if (member(*it, "tags"))
            tool->tags = tags;
        if (retry)
            tool->retry = *retry;
    }
}

} // namespace

QString ProjectError::toString() const
{
    if (line > 0 && column > 0)
        return QStringLiteral("%1:%2:%3: %4").arg(file).arg(line).arg(column).arg(message);
    if (line > 0)
        return QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(message);
    return QStringLiteral("%1: %2").arg(file, message);
}

std::optional<Project> Project::load(const QString &dir, ProjectError *error)
{
    return read(dir, error, nullptr, true);
}

std::optional<Project> Project::loadManifest(const QString &dir, ProjectError *error,
                                             const PythonDescription *described)
{
    return read(dir, error, described, false);
}

std::optional<Project> Project::read(const QString &dir, ProjectError *error, const PythonDescription *described,
                                     bool describeNow)
{
    auto failWith = [error](const QString &file, const QString &message, int line = 0, int column = 0) {
        if (error)
            *error = ProjectError{file, line, column, message};
        return std::nullopt;
    };

    const QFileInfo dirInfo(dir.isEmpty() ? QStringLiteral(".") : dir);
    const QString absoluteDir = folderPath(dir);
    if (!dirInfo.exists())
        return failWith(absoluteDir, QStringLiteral("project folder does not exist"));
    if (!dirInfo.isDir())
        return failWith(absoluteDir, QStringLiteral("not a folder (a project is a folder with a toolstudio.json)"));

    const QString manifest = absoluteDir + QLatin1Char('/') + QLatin1String(ManifestName);
    // Read once, and only a regular file of a bounded size: a FIFO planted as the
    // manifest would block the reading thread, /dev/zero or a sparse file exhaust memory.
    std::string bytes;
    if (!PosixUtil::readRegularFile(QFile::encodeName(manifest).toStdString(), MaxManifestBytes, &bytes)) {
        const int why = errno;
        if (why == ENOENT)
            return failWith(manifest, QStringLiteral("file not found: the folder is not a Tool Studio project"));
        if (why == EINVAL)
            return failWith(manifest,
                            QStringLiteral("not a regular file (a FIFO, a device or a folder); the manifest "
                                           "must be a JSON file"));
        if (why == EFBIG)
            return failWith(
                manifest, QStringLiteral("larger than %1 MiB, the most a manifest may be").arg(MaxManifestBytes >> 20));
        return failWith(manifest,
                        QStringLiteral("cannot read: %1").arg(QString::fromStdString(PosixUtil::errnoText(why))));
    }
    const QByteArray data = QByteArray::fromStdString(bytes);
    bytes = std::string();

    // Bounded like every JSON that enters the studio (sandbox/jsoninput.h): a mock
    // sequence or a schema nested 100 000 deep would crash the first copy of it; and,
    // as it is parsed ordered too, an object of 400 000 members would keep the loader
    // busy for minutes (ordered_json finds a member by a linear search).
    if (JsonInput::Problem bound
        = JsonInput::orderedOverLimit(std::string_view(data.constData(), std::size_t(data.size())));
        bound.limit) {
        const TextPosition position = textPositionAt(data, bound.byte);
        bound.byte = std::string_view::npos; // worded as line and column
        return failWith(manifest, QString::fromStdString(JsonInput::describe("the manifest", bound)), position.line,
                        position.column);
    }
    json root;
    try {
        root = json::parse(data.constBegin(), data.constEnd());
    } catch (const json::parse_error &e) {
        // nlohmann's byte is the 1-based index of the last byte it read: the offending one.
        const TextPosition position = textPositionAt(data, e.byte > 0 ? e.byte - 1 : 0);
        const QString reason = data.trimmed().isEmpty() ? QStringLiteral("the file is empty; expected a JSON object")
                                                        : jsonParseErrorReason(e);
        return failWith(manifest, reason, position.line, position.column);
    } catch (const json::exception &e) { // a number it cannot hold: 1e999
        return failWith(manifest, jsonParseErrorReason(e));
    }
    // Same text a second time, keeping the order of object members (parameterOrder).
    const auto ordered = nlohmann::ordered_json::parse(data.constBegin(), data.constEnd(), nullptr, false);

    Project project;
    project.dir = absoluteDir;
    // The trust check reads the bytes parsed here, not the file again: a file swapped
    // between two reads would be trusted for what it was (attack27 F1).
    project.trusted = ProjectTrust::check(absoluteDir, &data).trusted();
    try {
        if (!root.is_object())
            fail(QStringLiteral("the manifest must be a JSON object, not %1").arg(typeName(root)), &root);
        checkKeys(root,
                  {"name", "default_script", "scripts", "limits", "retry", "tools", "python_tools", "sandbox",
                   "mcp_servers", "models"},
                  QString());
        project.name = stringValue(root, "name", QString(), false, QFileInfo(absoluteDir).fileName());
        if (member(root, "limits"))
            project.limits = parseLimits(objectMember(root, "limits", QString()));
        if (member(root, "sandbox")) {
            const json &sandbox = objectMember(root, "sandbox", QString());
            checkKeys(sandbox, {"tools_network"}, QStringLiteral("sandbox"));
            project.toolsNetwork = boolValue(sandbox, "tools_network", QStringLiteral("sandbox"), true);
        }
        if (const json *servers = member(root, "mcp_servers"))
            project.mcpServers = McpServerConfig::parseAll(*servers);
        if (member(root, "retry"))
            project.retryDefaults
                = retryPolicy(objectMember(root, "retry", QString()), RetryPolicy(), QStringLiteral("retry"));
        if (const json *models = member(root, "models"))
            project.models = ModelConfig::parseAll(*models, project.retryDefaults);

        QSet<QString> names;
        QHash<QString, QString> origin; // tool name -> where it is declared
        if (const json *tools = member(root, "tools")) {
            if (!tools->is_array())
                fail(QStringLiteral("'tools' must be an array, not %1").arg(typeName(*tools)), tools);
            const nlohmann::ordered_json *orderedTools = nullptr;
            if (ordered.is_object() && ordered.contains("tools") && ordered["tools"].is_array()
                && ordered["tools"].size() == tools->size())
                orderedTools = &ordered["tools"];
            for (std::size_t i = 0; i < tools->size(); ++i) {
                Tool tool = parseTool((*tools)[i], orderedTools ? &(*orderedTools)[i] : nullptr, project.retryDefaults,
                                      int(i));
                if (names.contains(tool.name))
                    fail(QStringLiteral("tool '%1': declared twice (tool names must be unique)").arg(tool.name),
                         member((*tools)[i], "name"));
                names.insert(tool.name);
                origin.insert(tool.name, QLatin1String(ManifestName));
                project.tools.push_back(std::move(tool));
            }
        }
        PythonTools::addTo(project, names, origin, described, describeNow);
        applyPythonOverrides(project, root);

        if (const json *scripts = member(root, "scripts")) {
            if (!scripts->is_array())
                fail(QStringLiteral("'scripts' must be an array, not %1").arg(typeName(*scripts)), scripts);
            QSet<QString> names;
            for (std::size_t i = 0; i < scripts->size(); ++i) {
                ScriptEntry script = parseScript((*scripts)[i], int(i));
                if (names.contains(script.name))
                    fail(QStringLiteral("script '%1': declared twice (script names must be unique)").arg(script.name),
                         &(*scripts)[i]);
                names.insert(script.name);
                for (const QString &toolName : std::as_const(script.tools))
                    if (!project.tool(toolName) && !project.pythonLoading && !namesMcpServer(project, toolName)) {
                        QString why;
                        for (const PythonToolFile &file : project.pythonFiles) {
                            for (const auto &[method, reason] : file.toolErrors)
                                if (method == toolName)
                                    why = QStringLiteral(" (%1: %2)").arg(file.path, reason);
                            if (why.isEmpty() && !file.error.isEmpty()
                                && QFileInfo(file.path).completeBaseName() == toolName)
                                why = QStringLiteral(" (%1 did not load: %2)").arg(file.path, file.error);
                        }
                        if (why.isEmpty() && !project.pythonError.isEmpty())
                            why = QStringLiteral(" (%1)").arg(project.pythonError);
                        const json &bound = (*scripts)[i].at("tools");
                        const auto named = std::find(bound.begin(), bound.end(), json(toolName.toStdString()));
                        fail(QStringLiteral("script '%1': binds tool '%2', which is not declared%3")
                                 .arg(script.name, toolName, why),
                             named != bound.end() ? &*named : &bound);
                    }
                project.scripts.push_back(std::move(script));
            }
        }

        project.defaultScript = stringValue(root, "default_script", QString(), false,
                                            project.scripts.empty() ? QString() : project.scripts.front().name);
        if (!project.defaultScript.isEmpty() && !project.script(project.defaultScript))
            fail(QStringLiteral("'default_script' names '%1', which is not in 'scripts'").arg(project.defaultScript),
                 member(root, "default_script"));
    } catch (const ManifestError &e) {
        // Point at the value (or key) as a parse error would: "toolstudio.json:LINE:COLUMN: …".
        const auto position = e.node ? JsonPositions(data, root).positionOf(e.node, e.atKey) : std::nullopt;
        return failWith(manifest, e.message, position ? position->line : 0, position ? position->column : 0);
    }
    return project;
}

const Tool *Project::tool(const QString &name) const
{
    for (const Tool &t : tools)
        if (t.name == name)
            return &t;
    return nullptr;
}

QString Project::folderPath(const QString &dir)
{
    return QDir::cleanPath(QFileInfo(dir.isEmpty() ? QStringLiteral(".") : dir).absoluteFilePath());
}

QStringList Project::problems() const
{
    QStringList lines;
    if (!pythonError.isEmpty())
        lines << QStringLiteral("tools/*.py: %1").arg(pythonError);
    if (pythonLoading) // the files listed are placeholders until described, not problems
        return lines + pythonOverrideProblems;
    for (const PythonToolFile &file : pythonFiles) {
        if (!file.error.isEmpty())
            lines << QStringLiteral("%1: %2").arg(file.path, file.error.section(QLatin1Char('\n'), 0, 0));
        for (const auto &[method, reason] : file.toolErrors)
            lines << QStringLiteral("%1: tool '%2' not loaded: %3").arg(file.path, method, reason);
    }
    return lines + pythonOverrideProblems;
}

const PythonToolFile *Project::pythonFileOf(const QString &name) const
{
    for (const PythonToolFile &file : pythonFiles)
        if (file.tools.contains(name))
            return &file;
    return nullptr;
}

const ModelConfig *Project::model(const QString &name) const
{
    for (const ModelConfig &model : models)
        if (model.name == name)
            return &model;
    return nullptr;
}

const ScriptEntry *Project::script(const QString &name) const
{
    for (const ScriptEntry &s : scripts)
        if (s.name == name)
            return &s;
    return nullptr;
}

QString Project::defaultScriptPath() const
{
    const ScriptEntry *entry = script(defaultScript);
    if (!entry)
        return QString();
    return QDir::cleanPath(QDir(dir).absoluteFilePath(entry->path));
}

QString Project::manifestPath() const
{
    return dir + QLatin1Char('/') + QLatin1String(ManifestName);
}

QString Project::journalPath() const
{
    return dir + QStringLiteral("/.toolstudio/journal.sqlite");
}

QStringList Project::boundTools(const QString &scriptPath) const
{
    const QString wanted = QDir::cleanPath(QDir(dir).absoluteFilePath(scriptPath));
    for (const ScriptEntry &entry : scripts) {
        const bool matches
            = entry.name == scriptPath || QDir::cleanPath(QDir(dir).absoluteFilePath(entry.path)) == wanted;
        if (matches && !entry.tools.isEmpty())
            return entry.tools;
    }
    QStringList names;
    for (const Tool &t : tools)
        if (t.active)
            names << t.name;
    return names;
}

QString Project::retryProblem(const nlohmann::json &retry)
{
    try {
        if (!retry.is_object())
            fail(QStringLiteral("retry: must be an object, not %1").arg(typeName(retry)));
        retryPolicy(retry, RetryPolicy(), QStringLiteral("retry"));
    } catch (const ManifestError &e) {
        return e.message;
    }
    return {};
}

QString Project::mockSequenceProblem(const nlohmann::json &sequence)
{
    try {
        parseMockSequence(json{{"sequence", sequence}}, QString());
    } catch (const ManifestError &e) {
        return e.message.startsWith(QLatin1Char(' ')) ? e.message.mid(1) : e.message;
    }
    return {};
}
