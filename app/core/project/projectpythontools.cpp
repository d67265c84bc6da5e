// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Project's second loading phase (docs/python-tools.md "Loading"): the tool worker's
// description of tools/*.py, and adding it to a project whose manifest is read.
#include "project/jsonpositions.h"
#include "project/jsonqt.h"
#include "project/manifestreader.h"
#include "project/project.h"
#include "project/schemavalidator.h"
#include "python/toolworker.h"

#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <utility>

namespace {

using json = nlohmann::json;
using namespace ManifestReader;

constexpr auto ManifestName = "toolstudio.json";

/// Adds the tools the tool worker described (`files`, one entry per tools/*.py file).
void addDescribedTools(Project &project, const json &files, QSet<QString> &names, QHash<QString, QString> &origin)
{
    for (const json &described : files) {
        PythonToolFile file;
        file.path = JsonQt::stringField(described, "file");
        file.frontmatter = described.value("frontmatter", json::object());
        file.error = JsonQt::stringField(described, "error");
        file.missingModule = JsonQt::stringField(described, "missing_module");
        file.valves = described.value("valves", json());
        file.userValves = described.value("user_valves", json());
        for (const json &entry : described.value("tools", json::array())) {
            const QString name = JsonQt::stringField(entry, "name");
            if (entry.contains("error")) {
                file.toolErrors.emplace_back(name, JsonQt::stringField(entry, "error"));
                continue;
            }
            Tool tool;
            tool.name = name;
            tool.description = JsonQt::stringField(entry, "description");
            tool.inputSchema = entry.value("input_schema", json{{"type", "object"}});
            for (const json &parameter : entry.value("parameter_order", json::array()))
                tool.parameterOrder << JsonQt::fromStd(parameter.get<std::string>());
            tool.handler = HandlerKind::Python;
            tool.retry = project.retryDefaults;
            for (const json &warning : entry.value("warnings", json::array()))
                if (warning.is_string())
                    tool.warnings << JsonQt::fromStd(warning.get<std::string>());
            if (names.contains(name))
                fail(QStringLiteral("tool '%1': declared twice (%2 and %3; tool names must be unique)")
                         .arg(name, origin.value(name), file.path));
            QString schemaError;
            if (!SchemaValidator::compile(tool.inputSchema, &schemaError)) {
                file.toolErrors.emplace_back(
                    name, QStringLiteral("derived input_schema does not compile: %1").arg(schemaError));
                continue;
            }
            names.insert(name);
            origin.insert(name, file.path);
            file.tools << name;
            if (entry.contains("result_schema"))
                file.resultSchemas[name] = entry["result_schema"];
            project.tools.push_back(std::move(tool));
        }
        project.pythonFiles.push_back(std::move(file));
    }
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
        if (!tool) { // its file may be broken for a moment: keep the settings, say so
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

/// Every tool a script binds is declared (in toolstudio.json or tools/*.py); when not,
/// the error says why a Python tool of that name is missing.
void checkScriptTools(const Project &project, const json &root)
{
    const json *scripts = member(root, "scripts");
    if (!scripts)
        return;
    for (std::size_t i = 0; i < scripts->size() && i < project.scripts.size(); ++i) {
        const ScriptEntry &script = project.scripts[i];
        for (const QString &toolName : std::as_const(script.tools)) {
            if (project.tool(toolName))
                continue;
            QString why;
            for (const PythonToolFile &file : project.pythonFiles) {
                for (const auto &[method, reason] : file.toolErrors)
                    if (method == toolName)
                        why = QStringLiteral(" (%1: %2)").arg(file.path, reason);
                if (why.isEmpty() && !file.error.isEmpty() && QFileInfo(file.path).completeBaseName() == toolName)
                    why = QStringLiteral(" (%1 did not load: %2)").arg(file.path, file.error);
            }
            if (why.isEmpty() && !project.pythonError.isEmpty())
                why = QStringLiteral(" (%1)").arg(project.pythonError);
            const json &bound = (*scripts)[i].at("tools");
            const auto named = std::find(bound.begin(), bound.end(), json(toolName.toStdString()));
            fail(
                QStringLiteral("script '%1': binds tool '%2', which is not declared%3").arg(script.name, toolName, why),
                named != bound.end() ? &*named : &bound);
        }
    }
}

} // namespace

PythonToolsDescription Project::describePythonTools(const QString &dir)
{
    PythonToolsDescription description;
    description.files = ToolWorker::describeSync(dir, pythonTimeoutMs, &description.error);
    return description;
}

bool Project::addPythonTools(const PythonToolsDescription &description, ProjectError *error)
{
    const json root = json::parse(manifestText.constBegin(), manifestText.constEnd(), nullptr, false);
    try {
        if (std::exchange(pythonToolsPending, false)) {
            pythonFiles.clear();
            if (description.files) {
                QSet<QString> names;
                QHash<QString, QString> origin; // tool name -> where it is declared
                for (const Tool &tool : tools) {
                    names.insert(tool.name);
                    origin.insert(tool.name, QLatin1String(ManifestName));
                }
                addDescribedTools(*this, *description.files, names, origin);
            } else {
                pythonError = description.error;
            }
        }
        applyPythonOverrides(*this, root);
        checkScriptTools(*this, root);
    } catch (const ManifestError &e) {
        const auto position = e.node ? JsonPositions(manifestText, root).positionOf(e.node, e.atKey) : std::nullopt;
        if (error)
            *error = ProjectError{manifestPath(), position ? position->line : 0, position ? position->column : 0,
                                  e.message};
        return false;
    }
    return true;
}
