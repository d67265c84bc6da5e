// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/toolimport.h"

#include "project/jsonerror.h"
#include "project/jsonqt.h"
#include "project/project.h"
#include "project/projecttrust.h"
#include "project/projectwriter.h"
#include "project/tool.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

namespace ToolImport {

namespace {

using ordered = nlohmann::ordered_json;

/// MCP's `title` (or `annotations.title`) and its four behaviour hints, kept as the
/// tool's `title` and `annotations` (docs/project-format.md); a hint that is not a
/// boolean, and annotation keys MCP may add later, are not kept.
void keepMcpMetadata(const ordered &definition, ordered &tool)
{
    const auto annotations = definition.find("annotations");
    const bool hasAnnotations = annotations != definition.end() && annotations->is_object();
    if (definition.contains("title") && definition["title"].is_string())
        tool["title"] = definition["title"];
    else if (hasAnnotations && annotations->contains("title") && (*annotations)["title"].is_string())
        tool["title"] = (*annotations)["title"];
    if (!hasAnnotations)
        return;
    ordered hints = ordered::object();
    for (const char *key : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})
        if (annotations->contains(key) && (*annotations)[key].is_boolean())
            hints[key] = (*annotations)[key];
    if (!hints.empty())
        tool["annotations"] = hints;
}

/// One definition to a manifest entry; `format` is set from the first one.
std::optional<ordered> convert(const ordered &definition, As as, QString *format, QString *error, bool mcp)
{
    if (!definition.is_object()) {
        *error = QStringLiteral("a tool definition must be a JSON object");
        return std::nullopt;
    }
    const ordered *body = &definition;
    QString kind;
    const ordered *schema = nullptr;
    const ordered *output = nullptr;
    if (mcp) {
        kind = QStringLiteral("mcp");
        if (definition.contains("inputSchema"))
            schema = &definition["inputSchema"];
        if (definition.contains("outputSchema"))
            output = &definition["outputSchema"];
    } else if (definition.value("type", std::string()) == "function" && definition.contains("function")) {
        kind = QStringLiteral("openai-chat");
        body = &definition["function"];
        if (body->contains("parameters"))
            schema = &(*body)["parameters"];
    } else if (definition.value("type", std::string()) == "function") {
        kind = QStringLiteral("openai-responses");
        if (definition.contains("parameters"))
            schema = &definition["parameters"];
    } else if (definition.contains("input_schema")) {
        kind = QStringLiteral("anthropic");
        schema = &definition["input_schema"];
    } else if (definition.contains("inputSchema")) {
        kind = QStringLiteral("mcp");
        schema = &definition["inputSchema"];
        if (definition.contains("outputSchema"))
            output = &definition["outputSchema"];
    } else {
        *error = QStringLiteral("not a tool definition (expected Anthropic input_schema, OpenAI type: function, "
                                "or an MCP tools/list result)");
        return std::nullopt;
    }
    if (!body->contains("name") || !(*body)["name"].is_string()) {
        *error = QStringLiteral("a %1 tool definition without a name").arg(kind);
        return std::nullopt;
    }
    if (format->isEmpty())
        *format = kind;
    ordered tool = ordered::object();
    tool["name"] = (*body)["name"];
    if (kind == QLatin1String("mcp"))
        keepMcpMetadata(definition, tool);
    if (body->contains("description") && (*body)["description"].is_string())
        tool["description"] = (*body)["description"];
    ordered input = schema && schema->is_object() ? *schema : ordered{{"type", "object"}};
    input.erase("$schema"); // MCP servers may name a newer draft; the studio reads draft 7
    tool["input_schema"] = input;
    if (output && output->is_object()) {
        ordered copy = *output;
        copy.erase("$schema");
        tool["output_schema"] = copy;
    }
    if (as == As::Mock)
        tool["handler"] = {{"kind", "mock"}, {"sequence", ordered::array({ordered{{"result", nullptr}}})}};
    else
        tool["handler"] = {{"kind", "manual"}};
    return tool;
}

} // namespace

std::optional<Parsed> parseDefinitions(const QByteArray &data, As as, QString *error)
{
    JsonInput::Problem problem;
    const ordered root
        = JsonInput::read<ordered>(std::string_view(data.constData(), std::size_t(data.size())), &problem);
    if (root.is_discarded()) {
        *error = QStringLiteral("not valid JSON: %1").arg(describeJsonProblem(data, problem));
        return std::nullopt;
    }
    const ordered *list = &root;
    bool mcp = false;
    if (root.is_object() && root.contains("result") && root["result"].is_object() && root["result"].contains("tools")) {
        list = &root["result"]["tools"];
        mcp = true;
    } else if (root.is_object() && root.contains("tools") && root["tools"].is_array()) {
        list = &root["tools"];
        mcp = true;
    }
    Parsed parsed;
    QString format;
    const ordered single = ordered::array({root});
    if (!list->is_array())
        list = &single;
    int index = 0;
    for (const ordered &definition : *list) {
        QString reason;
        const auto tool = convert(definition, as, &format, &reason, mcp);
        if (!tool) {
            *error = QStringLiteral("definition %1: %2").arg(index).arg(reason);
            return std::nullopt;
        }
        parsed.tools.push_back(*tool);
        ++index;
    }
    parsed.format = mcp ? QStringLiteral("mcp") : format;
    return parsed;
}

bool importFile(const QString &projectDir, const QString &file, As as, QStringList *imported, QStringList *errors,
                const QMap<QString, QString> &renames)
{
    ProjectError loadError;
    const auto project = Project::load(projectDir, &loadError);
    if (!project) {
        *errors << loadError.toString();
        return false;
    }

    if (file.endsWith(QLatin1String(".py")) && !renames.isEmpty()) {
        *errors << QStringLiteral("--rename is for JSON definitions; a .py file's tool names are its method names");
        return false;
    }
    if (file.endsWith(QLatin1String(".py"))) {
        const QString target = projectDir + QStringLiteral("/tools/") + QFileInfo(file).fileName();
        if (QFileInfo::exists(target)) {
            *errors << QStringLiteral("%1 already exists; rename the file to import it").arg(target);
            return false;
        }
        QDir().mkpath(projectDir + QStringLiteral("/tools"));
        if (!QFile::copy(file, target)) {
            *errors << QStringLiteral("cannot copy %1 to %2").arg(file, target);
            return false;
        }
        const auto after = Project::load(projectDir, &loadError);
        const QString relative = QStringLiteral("tools/") + QFileInfo(file).fileName();
        if (after && !after->trusted) { // a new tool file is a change of what would run: asked again
            *errors << QStringLiteral("%1 was copied to %2; its code (top-level code and methods) runs, and its "
                                      "tools load, once the project is trusted again: %3")
                           .arg(file, relative, ProjectTrust::untrustedReason(projectDir));
            return true;
        }
        const PythonToolFile *loaded = nullptr;
        if (after)
            for (const PythonToolFile &entry : after->pythonFiles)
                if (entry.path == relative)
                    loaded = &entry;
        if (!after || !loaded || !loaded->error.isEmpty() || loaded->tools.isEmpty()) {
            QFile::remove(target);
            *errors << (!after ? loadError.message
                            : !loaded
                            ? (after->pythonError.isEmpty() ? QStringLiteral("%1 was not loaded").arg(relative)
                                                            : after->pythonError)
                            : !loaded->error.isEmpty()
                            ? QStringLiteral("%1: %2").arg(file, loaded->error)
                            : QStringLiteral("%1: no tools (a class Tools with public methods)").arg(file));
            if (after && loaded)
                for (const auto &[method, reason] : loaded->toolErrors)
                    *errors << QStringLiteral("%1: tool '%2': %3").arg(file, method, reason);
            return false;
        }
        *imported << loaded->tools;
        for (const auto &[method, reason] : loaded->toolErrors)
            *errors << QStringLiteral("%1: tool '%2' not loaded: %3").arg(relative, method, reason);
        return true;
    }

    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        *errors << QStringLiteral("%1: cannot read: %2").arg(file, in.errorString());
        return false;
    }
    QString error;
    auto parsed = parseDefinitions(in.readAll(), as, &error);
    if (!parsed) {
        *errors << QStringLiteral("%1: %2").arg(file, error);
        return false;
    }
    QSet<QString> renamed;
    for (ordered &tool : parsed->tools) {
        const auto to = renames.constFind(JsonQt::fromStd(tool["name"].get<std::string>()));
        if (to != renames.constEnd()) {
            renamed.insert(to.key());
            tool["name"] = to.value().toStdString();
        }
    }
    for (auto it = renames.constBegin(); it != renames.constEnd(); ++it)
        if (!renamed.contains(it.key()))
            *errors << QStringLiteral("--rename %1=%2: %3 has no tool called '%1'").arg(it.key(), it.value(), file);
    QSet<QString> seen;
    for (const ordered &tool : parsed->tools) {
        const QString name = JsonQt::fromStd(tool["name"].get<std::string>());
        if (!Tool::isValidName(name))
            *errors << QStringLiteral("tool '%1': invalid name (%2); it is not renamed — change it in the file to "
                                      "import it (suggested: '%3'; on the command line: --rename '%1=%3')")
                           .arg(name, Tool::nameRule(), Tool::suggestName(name));
        else if (project->tool(name))
            *errors << QStringLiteral("tool '%1': the project already has a tool of that name%2")
                           .arg(name,
                                project->pythonFileOf(name)
                                    ? QStringLiteral(" (in %1)").arg(project->pythonFileOf(name)->path)
                                    : QString());
        else if (seen.contains(name))
            *errors << QStringLiteral("tool '%1': defined twice in %2").arg(name, file);
        seen.insert(name);
    }
    if (!errors->isEmpty())
        return false;
    auto manifest = ProjectWriter::readManifest(projectDir, &error);
    if (!manifest) {
        *errors << error;
        return false;
    }
    const ProjectWriter::Manifest original = *manifest;
    for (const ordered &tool : parsed->tools) {
        if (!ProjectWriter::addTool(*manifest, tool, &error)) {
            *errors << error;
            return false;
        }
    }
    if (!ProjectWriter::writeManifest(projectDir, *manifest, &error)) {
        *errors << error;
        return false;
    }
    if (!Project::load(projectDir, &loadError)) { // e.g. a schema valijson cannot compile
        ProjectWriter::writeManifest(projectDir, original, nullptr);
        *errors << loadError.message;
        return false;
    }
    for (const ordered &tool : parsed->tools)
        *imported << JsonQt::fromStd(tool["name"].get<std::string>());
    return true;
}

} // namespace ToolImport
