// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/toolimport.h"

#include "exchange/bfcldialect.h"
#include "exchange/schemaexample.h"
#include "project/jsonerror.h"
#include "project/jsonqt.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "project/projecttrust.h"
#include "project/projectwriter.h"
#include "project/schemavalidator.h"
#include "project/tool.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
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

/// What a definition is, by its shape.
QString kindOf(const ordered &definition, bool mcp, bool bfcl)
{
    if (mcp)
        return QStringLiteral("mcp");
    // Never nlohmann's value(key, default): it throws when the member has another type
    // ({"type": 5} aborted the import).
    const bool function = JsonQt::stringField(definition, "type") == QLatin1String("function");
    if (function && definition.contains("function"))
        return QStringLiteral("openai-chat");
    if (function)
        return QStringLiteral("openai-responses");
    if (definition.contains("input_schema"))
        return QStringLiteral("anthropic");
    if (definition.contains("inputSchema"))
        return QStringLiteral("mcp");
    if (definition.contains("name") && (bfcl || definition.contains("parameters")))
        return QStringLiteral("bfcl"); // BFCL's {name, description, parameters} (also OpenAI's legacy functions)
    return QString();
}

/// The canned result of a mock: an example of its output_schema (null without one).
ordered mockResult(const ordered &tool, QStringList *notes)
{
    if (!tool.contains("output_schema"))
        return nullptr;
    const ordered example = SchemaExample::generate(tool["output_schema"]);
    const auto validator = SchemaValidator::compile(nlohmann::json::parse(tool["output_schema"].dump()));
    if (validator)
        if (const auto failure = validator->validate(nlohmann::json::parse(example.dump())))
            *notes << QStringLiteral("tool '%1': the generated mock result does not satisfy its output_schema (%2); "
                                     "edit it in the Tool dock")
                          .arg(elidedText(JsonQt::fromStd(tool["name"].get<std::string>())),
                               printableText(failure->toString()));
    return example;
}

/// One definition to a manifest entry, or nullopt with the reason.
std::optional<ordered> convert(const ordered &definition, As as, const QString &kind, QStringList *notes,
                               QString *error)
{
    if (!definition.is_object()) {
        *error = QStringLiteral("a tool definition must be a JSON object");
        return std::nullopt;
    }
    if (kind.isEmpty()) {
        *error = QStringLiteral("not a tool definition (expected Anthropic input_schema, OpenAI type: function, "
                                "an MCP tools/list result or BFCL {name, parameters})");
        return std::nullopt;
    }
    const ordered &body = kind == QLatin1String("openai-chat") ? definition["function"] : definition;
    if (!body.is_object() || !body.contains("name") || !body["name"].is_string()) {
        *error = QStringLiteral("a %1 tool definition without a name").arg(kind);
        return std::nullopt;
    }
    const ordered *schema = nullptr;
    const ordered *output = nullptr;
    const char *schemaKey = kind == QLatin1String("mcp") ? "inputSchema"
        : kind == QLatin1String("anthropic")             ? "input_schema"
                                                         : "parameters";
    if (body.contains(schemaKey))
        schema = &body[schemaKey];
    if (kind == QLatin1String("mcp") && definition.contains("outputSchema"))
        output = &definition["outputSchema"];
    ordered tool = ordered::object();
    const QString name = JsonQt::fromStd(body["name"].get<std::string>());
    tool["name"] = body["name"];
    if (kind == QLatin1String("mcp"))
        keepMcpMetadata(definition, tool);
    if (kind == QLatin1String("bfcl") && name.contains(QLatin1Char('.'))) {
        tool["name"] = BfclDialect::mappedName(name).toStdString();
        tool["title"] = body["name"];
        *notes << QStringLiteral("tool '%1' is imported as '%2' (the model APIs take no '.'; its title keeps '%1')")
                      .arg(elidedText(name), elidedText(BfclDialect::mappedName(name)));
    }
    if (body.contains("description") && body["description"].is_string())
        tool["description"] = body["description"];
    ordered input = schema && schema->is_object() ? *schema : ordered{{"type", "object"}};
    if (kind == QLatin1String("bfcl") || BfclDialect::usesDialect(input)) {
        QStringList typeNotes;
        input = BfclDialect::toJsonSchema(input, &typeNotes);
        for (const QString &note : std::as_const(typeNotes))
            *notes << QStringLiteral("tool '%1': %2").arg(elidedText(name), note);
    }
    input.erase("$schema"); // MCP servers may name a newer draft; the studio reads draft 7
    tool["input_schema"] = input;
    if (output && output->is_object()) {
        ordered copy = *output;
        copy.erase("$schema");
        tool["output_schema"] = copy;
    }
    if (as == As::Mock)
        tool["handler"]
            = {{"kind", "mock"}, {"sequence", ordered::array({ordered{{"result", mockResult(tool, notes)}}})}};
    else
        tool["handler"] = {{"kind", "manual"}};
    return tool;
}

/// The file's top-level values: one, or one per line of a JSON-lines file (BFCL's
/// data files). nullopt with the reason when neither reads.
std::optional<std::vector<ordered>> readValues(const QByteArray &data, QString *error)
{
    JsonInput::Problem problem;
    ordered root = JsonInput::read<ordered>(std::string_view(data.constData(), std::size_t(data.size())), &problem);
    if (!root.is_discarded())
        return std::vector<ordered>{std::move(root)};
    const QString whole = QStringLiteral("not valid JSON: %1").arg(describeJsonProblem(data, problem));
    std::vector<ordered> lines;
    int number = 0;
    for (const QByteArray &line : data.split('\n')) {
        ++number;
        if (line.trimmed().isEmpty())
            continue;
        JsonInput::Problem lineProblem;
        ordered value
            = JsonInput::read<ordered>(std::string_view(line.constData(), std::size_t(line.size())), &lineProblem);
        if (value.is_discarded()) {
            *error = lines.empty() ? whole
                                   : QStringLiteral("not valid JSON lines: line %1: %2")
                                         .arg(number)
                                         .arg(describeJsonProblem(line, lineProblem));
            return std::nullopt;
        }
        lines.push_back(std::move(value));
    }
    if (lines.size() < 2) {
        *error = whole;
        return std::nullopt;
    }
    return lines;
}

} // namespace

QString Outcome::describe(const Refusal &refusal)
{
    // The name is the file's: elided and escaped in the text, shell-quoted in the
    // command (a name with a quote or a control character must not make the line a
    // different command, nor drive the terminal).
    if (refusal.suggestion.isEmpty())
        return QStringLiteral("tool '%1': %2").arg(elidedText(refusal.name), refusal.reason);
    return QStringLiteral("tool '%1': %2; it is not renamed (suggested: '%3'; on the command line: --rename %4)")
        .arg(elidedText(refusal.name), refusal.reason, refusal.suggestion,
             shellQuoted(refusal.name + QLatin1Char('=') + refusal.suggestion));
}

std::optional<Parsed> parseDefinitions(const QByteArray &data, As as, QString *error, const QString &format)
{
    const auto values = readValues(data, error);
    if (!values)
        return std::nullopt;
    bool bfcl = format == QLatin1String("bfcl") || values->size() > 1;
    bool mcp = false;
    std::vector<const ordered *> definitions;
    for (const ordered &root : *values) {
        const ordered *list = &root;
        if (root.is_object() && root.contains("result") && root["result"].is_object()
            && root["result"].contains("tools")) {
            list = &root["result"]["tools"];
            mcp = true;
        } else if (root.is_object() && root.contains("tools") && root["tools"].is_array()) {
            list = &root["tools"];
            mcp = true;
        } else if (root.is_object() && root.contains("function") && root["function"].is_array()) {
            list = &root["function"]; // a BFCL entry: {"id", "question", "function": [...]}
            bfcl = true;
        }
        if (list->is_array())
            for (const ordered &definition : *list)
                definitions.push_back(&definition);
        else
            definitions.push_back(list);
    }
    Parsed parsed;
    QSet<QByteArray> seen; // a BFCL file repeats a function in many entries: read once
    int index = 0;
    for (const ordered *definition : definitions) {
        ++index;
        if (bfcl) {
            const QByteArray text = QByteArray::fromStdString(definition->dump());
            if (seen.contains(text))
                continue;
            seen.insert(text);
        }
        ++parsed.total;
        const QString kind = definition->is_object() ? kindOf(*definition, mcp, bfcl) : QString();
        QString reason;
        const auto tool = convert(*definition, as, kind, &parsed.notes, &reason);
        if (!tool) {
            const QString name = definition->is_object() ? JsonQt::stringField(*definition, "name") : QString();
            parsed.refused.push_back(
                {name.isEmpty() ? QStringLiteral("definition %1").arg(index) : name, reason, QString()});
            continue;
        }
        if (parsed.format.isEmpty())
            parsed.format = kind;
        parsed.tools.push_back(*tool);
    }
    if (mcp)
        parsed.format = QStringLiteral("mcp");
    else if (bfcl)
        parsed.format = QStringLiteral("bfcl");
    return parsed;
}

namespace {

/// `base`, or `base_2`, `base_3`, … : the first that is valid and not in `taken`.
QString freeName(const QString &name, const QSet<QString> &taken)
{
    const QString base = Tool::isValidName(name) ? name : Tool::suggestName(name);
    if (!taken.contains(base))
        return base;
    for (int n = 2;; ++n) {
        const QString suffix = QStringLiteral("_%1").arg(n);
        const QString candidate = base.left(128 - suffix.size()) + suffix;
        if (!taken.contains(candidate))
            return candidate;
    }
}

Outcome importPython(const QString &projectDir, const QString &file, const QMap<QString, QString> &renames, bool write)
{
    Outcome outcome;
    QStringList &errors = outcome.errors;
    if (!renames.isEmpty()) {
        errors << QStringLiteral("--rename is for JSON definitions; a .py file's tool names are its method names");
        return outcome;
    }
    const QString target = projectDir + QStringLiteral("/tools/") + QFileInfo(file).fileName();
    if (QFileInfo::exists(target)) {
        errors << QStringLiteral("%1 already exists; rename the file to import it").arg(target);
        return outcome;
    }
    if (!write)
        return outcome;
    QDir().mkpath(projectDir + QStringLiteral("/tools"));
    if (!QFile::copy(file, target)) {
        errors << QStringLiteral("cannot copy %1 to %2").arg(file, target);
        return outcome;
    }
    ProjectError loadError;
    const auto after = Project::load(projectDir, &loadError);
    const QString relative = QStringLiteral("tools/") + QFileInfo(file).fileName();
    if (after && !after->trusted) { // a new tool file is a change of what would run: asked again
        outcome.notes << QStringLiteral("%1 was copied to %2; its code (top-level code and methods) runs, and its "
                                        "tools load, once the project is trusted again: %3")
                             .arg(file, relative, ProjectTrust::untrustedReason(projectDir));
        outcome.changed = true;
        return outcome;
    }
    const PythonToolFile *loaded = nullptr;
    if (after)
        for (const PythonToolFile &entry : after->pythonFiles)
            if (entry.path == relative)
                loaded = &entry;
    if (!after || !loaded || !loaded->error.isEmpty() || loaded->tools.isEmpty()) {
        QFile::remove(target);
        errors << (!after        ? loadError.message
                       : !loaded ? (after->pythonError.isEmpty() ? QStringLiteral("%1 was not loaded").arg(relative)
                                                                 : after->pythonError)
                       : !loaded->error.isEmpty()
                       ? QStringLiteral("%1: %2").arg(file, loaded->error)
                       : QStringLiteral("%1: no tools (a class Tools with public methods)").arg(file));
        if (after && loaded)
            for (const auto &[method, reason] : loaded->toolErrors)
                errors << QStringLiteral("%1: tool '%2': %3").arg(file, method, reason);
        return outcome;
    }
    outcome.imported << loaded->tools;
    outcome.changed = true;
    outcome.total = int(loaded->tools.size() + loaded->toolErrors.size());
    for (const auto &[method, reason] : loaded->toolErrors)
        outcome.refused.push_back({method, QStringLiteral("not loaded from %1: %2").arg(relative, reason), QString()});
    return outcome;
}

/// Compiles a schema the way Project::load will: the reason when it does not.
QString schemaProblem(const ordered &tool, const char *key)
{
    if (!tool.contains(key))
        return QString();
    QString error;
    if (SchemaValidator::compile(nlohmann::json::parse(tool[key].dump()), &error))
        return QString();
    return QStringLiteral("its %1 is not a valid JSON Schema: %2").arg(QLatin1String(key), error);
}

Outcome run(const QString &projectDir, const QString &file, As as, const QMap<QString, QString> &renames,
            const QString &format, bool write)
{
    Outcome outcome;
    ProjectError loadError;
    const auto project = Project::load(projectDir, &loadError);
    if (!project) {
        outcome.errors << loadError.toString();
        return outcome;
    }
    if (file.endsWith(QLatin1String(".py")))
        return importPython(projectDir, file, renames, write);

    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        outcome.errors << QStringLiteral("%1: cannot read: %2").arg(file, in.errorString());
        return outcome;
    }
    QString error;
    auto parsed = parseDefinitions(in.readAll(), as, &error, format);
    if (!parsed) {
        outcome.errors << QStringLiteral("%1: %2").arg(file, error);
        return outcome;
    }
    outcome.total = parsed->total;
    outcome.notes = parsed->notes;
    outcome.refused = parsed->refused;
    QSet<QString> renamed;
    QSet<QString> taken; // project's names and every name in the file: a suggestion takes none of them
    for (const Tool &tool : project->tools)
        taken.insert(tool.name);
    QHash<QString, int> copies; // definitions per name in the file
    for (const ordered &tool : parsed->tools)
        ++copies[JsonQt::fromStd(tool["name"].get<std::string>())];
    QHash<QString, int> copiesSeen;
    for (ordered &tool : parsed->tools) {
        const QString name = JsonQt::fromStd(tool["name"].get<std::string>());
        const int copy = ++copiesSeen[name];
        const auto to = renames.constFind(name);
        // A name given twice: --rename renames one copy, the first the checks refuse (the
        // second, "defined twice", unless the name is invalid or taken: then the first).
        const bool firstRefused = !Tool::isValidName(name) || project->tool(name);
        if (to != renames.constEnd() && !renamed.contains(name)
            && (copies[name] == 1 || copy == (firstRefused ? 1 : 2))) {
            renamed.insert(name);
            tool["name"] = to.value().toStdString();
            if (copies[name] > 1)
                outcome.notes << QStringLiteral("--rename %1=%2: %3 defines '%1' %4 times; only copy %5 (%6) is "
                                                "renamed, the others keep the name")
                                     .arg(name, to.value(), QFileInfo(file).fileName())
                                     .arg(copies[name])
                                     .arg(copy)
                                     .arg(firstRefused ? QStringLiteral("the first: the name is invalid or taken")
                                                       : QStringLiteral("the one refused as defined twice"));
        }
        taken.insert(JsonQt::fromStd(tool["name"].get<std::string>()));
    }
    for (auto it = renames.constBegin(); it != renames.constEnd(); ++it)
        if (!renamed.contains(it.key()))
            outcome.errors
                << QStringLiteral("--rename %1=%2: %3 has no tool called '%1'").arg(it.key(), it.value(), file);
    if (!outcome.errors.isEmpty())
        return outcome;
    QSet<QString> seen;
    std::vector<ordered> accepted;
    for (const ordered &tool : parsed->tools) {
        const QString name = JsonQt::fromStd(tool["name"].get<std::string>());
        Refusal refusal{name, QString(), QString()};
        if (!Tool::isValidName(name))
            refusal.reason = QStringLiteral("invalid name (%1)").arg(Tool::nameRule());
        else if (project->tool(name))
            refusal.reason = QStringLiteral("the project already has a tool of that name%1")
                                 .arg(project->pythonFileOf(name)
                                          ? QStringLiteral(" (in %1)").arg(project->pythonFileOf(name)->path)
                                          : QString());
        else if (seen.contains(name))
            refusal.reason = QStringLiteral("defined twice in the file");
        if (!refusal.reason.isEmpty()) {
            refusal.suggestion = freeName(name, taken);
            taken.insert(refusal.suggestion);
            outcome.refused.push_back(refusal);
            continue;
        }
        seen.insert(name);
        QString problem = schemaProblem(tool, "input_schema");
        if (problem.isEmpty())
            problem = schemaProblem(tool, "output_schema");
        if (!problem.isEmpty()) {
            outcome.refused.push_back({name, problem, QString()});
            continue;
        }
        accepted.push_back(tool);
    }
    if (accepted.empty())
        return outcome;
    if (!write) {
        for (const ordered &tool : accepted)
            outcome.imported << JsonQt::fromStd(tool["name"].get<std::string>());
        return outcome;
    }
    auto manifest = ProjectWriter::readManifest(projectDir, &error);
    if (!manifest) {
        outcome.errors << error;
        return outcome;
    }
    const ProjectWriter::Manifest original = *manifest;
    for (const ordered &tool : accepted) {
        if (!ProjectWriter::addTool(*manifest, tool, &error)) {
            outcome.errors << error;
            return outcome;
        }
    }
    if (!ProjectWriter::writeManifest(projectDir, *manifest, &error)) {
        outcome.errors << error;
        return outcome;
    }
    if (!Project::load(projectDir, &loadError)) { // anything else the project refuses: all taken back
        ProjectWriter::writeManifest(projectDir, original, nullptr);
        outcome.errors << loadError.message;
        return outcome;
    }
    outcome.changed = true;
    for (const ordered &tool : accepted)
        outcome.imported << JsonQt::fromStd(tool["name"].get<std::string>());
    return outcome;
}

} // namespace

Outcome plan(const QString &projectDir, const QString &file, As as, const QMap<QString, QString> &renames,
             const QString &format)
{
    return run(projectDir, file, as, renames, format, false);
}

Outcome importFile(const QString &projectDir, const QString &file, As as, const QMap<QString, QString> &renames,
                   const QString &format)
{
    return run(projectDir, file, as, renames, format, true);
}

} // namespace ToolImport
