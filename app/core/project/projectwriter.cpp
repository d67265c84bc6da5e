// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/projectwriter.h"

#include "project/jsonerror.h"
#include "project/jsonqt.h"
#include "project/project.h"
#include "project/tool.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cmath>

namespace ProjectWriter {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ProjectWriter", text);
}

void fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
}

std::string utf8(const QString &text)
{
    return text.toStdString();
}

std::optional<Manifest> parseFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        fail(error, tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return std::nullopt;
    }
    const QByteArray data = file.readAll();
    JsonInput::Problem problem;
    Manifest manifest
        = JsonInput::read<Manifest>(std::string_view(data.constData(), std::size_t(data.size())), &problem);
    if (manifest.is_discarded()) {
        fail(error, QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), describeJsonProblem(data, problem)));
        return std::nullopt;
    }
    return manifest;
}

} // namespace

std::optional<Manifest> readManifest(const QString &dir, QString *error)
{
    std::optional<Manifest> manifest = parseFile(QDir(dir).filePath(QStringLiteral("toolstudio.json")), error);
    if (manifest && !manifest->is_object()) {
        fail(error, tr("toolstudio.json: the manifest must be a JSON object"));
        return std::nullopt;
    }
    return manifest;
}

bool writeManifest(const QString &dir, const Manifest &manifest, QString *error)
{
    const QString path = QDir(dir).filePath(QStringLiteral("toolstudio.json"));
    QSaveFile file(path);
    const std::string text = manifest.dump(2) + '\n';
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) < 0 || !file.commit()) {
        fail(error, tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    return true;
}

int toolIndex(const Manifest &manifest, const QString &name)
{
    if (!manifest.contains("tools") || !manifest["tools"].is_array())
        return -1;
    const auto &tools = manifest["tools"];
    const std::string wanted = utf8(name);
    for (std::size_t i = 0; i < tools.size(); ++i) {
        if (tools[i].is_object() && tools[i].contains("name") && tools[i]["name"] == wanted)
            return int(i);
    }
    return -1;
}

QStringList toolNames(const Manifest &manifest)
{
    QStringList names;
    if (!manifest.contains("tools") || !manifest["tools"].is_array())
        return names;
    for (const auto &tool : manifest["tools"]) {
        if (tool.is_object() && tool.contains("name") && tool["name"].is_string())
            names.append(QString::fromStdString(tool["name"].get<std::string>()));
    }
    return names;
}

QString uniqueToolName(const Manifest &manifest, const QString &base)
{
    const QStringList taken = toolNames(manifest);
    if (!taken.contains(base))
        return base;
    QString candidate = base + QStringLiteral("_copy");
    for (int n = 2; taken.contains(candidate); ++n)
        candidate = base + QStringLiteral("_copy") + QString::number(n);
    return candidate;
}

bool addTool(Manifest &manifest, const Manifest &tool, QString *error)
{
    if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) {
        fail(error, tr("the tool has no name"));
        return false;
    }
    const QString name = QString::fromStdString(tool["name"].get<std::string>());
    if (!Tool::isValidName(name)) {
        fail(error, tr("\"%1\" is not a valid tool name (%2)").arg(name, Tool::nameRule()));
        return false;
    }
    if (toolIndex(manifest, name) >= 0) {
        fail(error, tr("the project already has a tool called %1").arg(name));
        return false;
    }
    if (!manifest.contains("tools") || !manifest["tools"].is_array())
        manifest["tools"] = Manifest::array();
    manifest["tools"].push_back(tool);
    return true;
}

Manifest newMockTool(const QString &name)
{
    Manifest tool = Manifest::object();
    tool["name"] = utf8(name);
    tool["description"] = "";
    tool["input_schema"] = Manifest{{"type", "object"}, {"properties", Manifest::object()}};
    tool["handler"] = Manifest{{"kind", "mock"}, {"sequence", Manifest::array({Manifest{{"result", nullptr}}})}};
    return tool;
}

bool removeTool(Manifest &manifest, const QString &name, QString *error)
{
    const int index = toolIndex(manifest, name);
    if (index < 0) {
        fail(error, tr("there is no tool called %1").arg(name));
        return false;
    }
    manifest["tools"].erase(std::size_t(index));
    // A binding to a tool that no longer exists would refuse the whole project at load.
    if (manifest.contains("scripts") && manifest["scripts"].is_array()) {
        for (auto &script : manifest["scripts"]) {
            if (!script.is_object() || !script.contains("tools") || !script["tools"].is_array())
                continue;
            auto &bound = script["tools"];
            for (std::size_t i = bound.size(); i-- > 0;)
                if (bound[i] == utf8(name))
                    bound.erase(i);
            if (bound.empty())
                script.erase("tools");
        }
    }
    return true;
}

bool renameTool(Manifest &manifest, const QString &from, const QString &to, QString *error)
{
    const int index = toolIndex(manifest, from);
    if (index < 0) {
        fail(error, tr("there is no tool called %1").arg(from));
        return false;
    }
    if (from == to)
        return true;
    if (!Tool::isValidName(to)) {
        fail(error, tr("\"%1\" is not a valid tool name (%2)").arg(to, Tool::nameRule()));
        return false;
    }
    if (toolIndex(manifest, to) >= 0) {
        fail(error, tr("the project already has a tool called %1").arg(to));
        return false;
    }
    manifest["tools"][std::size_t(index)]["name"] = utf8(to);
    if (manifest.contains("scripts") && manifest["scripts"].is_array()) {
        for (auto &script : manifest["scripts"]) {
            if (!script.is_object() || !script.contains("tools") || !script["tools"].is_array())
                continue;
            for (auto &bound : script["tools"]) {
                if (bound == utf8(from))
                    bound = utf8(to);
            }
        }
    }
    return true;
}

bool cloneTool(Manifest &manifest, const QString &name, const QString &newName, QString *error)
{
    const int index = toolIndex(manifest, name);
    if (index < 0) {
        fail(error, tr("there is no tool called %1").arg(name));
        return false;
    }
    if (!Tool::isValidName(newName) || toolIndex(manifest, newName) >= 0) {
        fail(error, tr("\"%1\" is not a free, valid tool name").arg(newName));
        return false;
    }
    Manifest copy = manifest["tools"][std::size_t(index)];
    copy["name"] = utf8(newName);
    auto &tools = manifest["tools"];
    tools.insert(tools.begin() + index + 1, copy);
    return true;
}

bool setToolActive(Manifest &manifest, const QString &name, bool active, QString *error)
{
    const int index = toolIndex(manifest, name);
    if (index < 0) {
        fail(error, tr("there is no tool called %1").arg(name));
        return false;
    }
    auto &tool = manifest["tools"][std::size_t(index)];
    if (active)
        tool.erase("active");
    else
        tool["active"] = false;
    return true;
}

bool setToolTags(Manifest &manifest, const QString &name, const QStringList &tags, QString *error)
{
    const int index = toolIndex(manifest, name);
    if (index < 0) {
        fail(error, tr("there is no tool called %1").arg(name));
        return false;
    }
    auto &tool = manifest["tools"][std::size_t(index)];
    if (tags.isEmpty()) {
        tool.erase("tags");
        return true;
    }
    Manifest list = Manifest::array();
    for (const QString &tag : tags)
        list.push_back(utf8(tag));
    tool["tags"] = list;
    return true;
}

namespace {

// The tools[] entry of `name` with the given handler kind, or nullptr (and `error`).
Manifest *handlerOf(Manifest &manifest, const QString &name, const char *kind, QString *error)
{
    const int index = toolIndex(manifest, name);
    if (index < 0) {
        fail(error, tr("there is no tool called %1").arg(name));
        return nullptr;
    }
    auto &tool = manifest["tools"][std::size_t(index)];
    if (!tool.contains("handler") || !tool["handler"].is_object()
        || JsonQt::stringField(tool["handler"], "kind") != QLatin1String(kind)) {
        fail(error, tr("%1 is not a %2 tool").arg(name, QLatin1String(kind)));
        return nullptr;
    }
    return &tool["handler"];
}

} // namespace

bool setMockSequence(Manifest &manifest, const QString &name, const Manifest &sequence, QString *error)
{
    Manifest *handler = handlerOf(manifest, name, "mock", error);
    if (!handler)
        return false;
    const QString problem = Project::mockSequenceProblem(nlohmann::json::parse(sequence.dump()));
    if (!problem.isEmpty()) {
        fail(error, problem);
        return false;
    }
    (*handler)["sequence"] = sequence;
    return true;
}

bool setCommand(Manifest &manifest, const QString &name, const QStringList &command, QString *error)
{
    Manifest *handler = handlerOf(manifest, name, "command", error);
    if (!handler)
        return false;
    if (command.isEmpty() || command.first().isEmpty()) {
        fail(error, tr("the command line is empty: give the program, then its arguments"));
        return false;
    }
    Manifest list = Manifest::array();
    for (const QString &argument : command)
        list.push_back(utf8(argument));
    (*handler)["command"] = list;
    return true;
}

bool setScriptTools(Manifest &manifest, const QString &script, const QStringList &tools, QString *error)
{
    if (manifest.contains("scripts") && manifest["scripts"].is_array()) {
        for (auto &entry : manifest["scripts"]) {
            if (!entry.is_object() || !entry.contains("path") || !entry["path"].is_string())
                continue;
            const QString path = QString::fromStdString(entry["path"].get<std::string>());
            const QString entryName = entry.contains("name") && entry["name"].is_string()
                ? QString::fromStdString(entry["name"].get<std::string>())
                : QFileInfo(path).completeBaseName();
            if (entryName != script)
                continue;
            for (const QString &tool : tools) {
                if (!Tool::isValidName(tool)) {
                    fail(error, tr("\"%1\" is not a valid tool name").arg(tool));
                    return false;
                }
            }
            if (tools.isEmpty()) {
                entry.erase("tools");
                return true;
            }
            Manifest list = Manifest::array();
            for (const QString &tool : tools)
                list.push_back(utf8(tool));
            entry["tools"] = list;
            return true;
        }
    }
    fail(error, tr("there is no script called %1").arg(script));
    return false;
}

namespace {

bool setPythonToolKey(Manifest &manifest, const QString &name, const char *key, const Manifest &value, bool isDefault,
                      QString *error)
{
    if (!Tool::isValidName(name)) {
        fail(error, tr("\"%1\" is not a valid tool name").arg(name));
        return false;
    }
    if (toolIndex(manifest, name) >= 0) {
        fail(error, tr("%1 is declared in toolstudio.json's tools, not in tools/*.py").arg(name));
        return false;
    }
    if (!manifest.contains("python_tools") || !manifest["python_tools"].is_object()) {
        if (isDefault)
            return true;
        manifest["python_tools"] = Manifest::object();
    }
    Manifest &overrides = manifest["python_tools"];
    const std::string tool = utf8(name);
    if (isDefault) {
        if (overrides.contains(tool) && overrides[tool].is_object()) {
            overrides[tool].erase(key);
            if (overrides[tool].empty())
                overrides.erase(tool);
        }
        if (overrides.empty())
            manifest.erase("python_tools");
        return true;
    }
    if (!overrides.contains(tool) || !overrides[tool].is_object())
        overrides[tool] = Manifest::object();
    overrides[tool][key] = value;
    return true;
}

} // namespace

bool setPythonToolActive(Manifest &manifest, const QString &name, bool active, QString *error)
{
    return setPythonToolKey(manifest, name, "active", Manifest(false), active, error);
}

bool setPythonToolTags(Manifest &manifest, const QString &name, const QStringList &tags, QString *error)
{
    Manifest list = Manifest::array();
    for (const QString &tag : tags)
        list.push_back(utf8(tag));
    return setPythonToolKey(manifest, name, "tags", list, tags.isEmpty(), error);
}

bool setToolRetryValue(Manifest &manifest, const QString &name, const QString &key, double value, QString *error)
{
    const Manifest number
        = key == QLatin1String("max_attempts") ? Manifest(qint64(std::llround(value))) : Manifest(value);
    const int index = toolIndex(manifest, name);
    Manifest retry = Manifest::object();
    if (index >= 0) {
        const auto &tool = manifest["tools"][std::size_t(index)];
        if (tool.contains("retry") && tool["retry"].is_object())
            retry = tool["retry"];
    } else if (manifest.contains("python_tools") && manifest["python_tools"].is_object()
               && manifest["python_tools"].contains(utf8(name)) && manifest["python_tools"][utf8(name)].is_object()) {
        retry = manifest["python_tools"][utf8(name)].value("retry", Manifest::object());
    }
    retry[utf8(key)] = number;
    const QString problem = Project::retryProblem(nlohmann::json::parse(retry.dump()));
    if (!problem.isEmpty()) {
        fail(error, problem);
        return false;
    }
    if (index >= 0) {
        manifest["tools"][std::size_t(index)]["retry"] = retry;
        return true;
    }
    return setPythonToolKey(manifest, name, "retry", retry, false, error);
}

QString pythonCloneRefusal(const QString &name, const QString &file)
{
    return tr("%1 is a Python tool (%2): its definition is the method's code, so it cannot be cloned by name; "
              "copy the method under a new name in the file instead")
        .arg(name, file);
}

} // namespace ProjectWriter
