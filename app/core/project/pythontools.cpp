// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/pythontools.h"

#include "project/jsonqt.h"
#include "project/manifestreader.h"
#include "project/project.h"
#include "project/schemavalidator.h"
#include "python/toolworker.h"

#include <QDateTime>
#include <QDir>

using json = nlohmann::json;
using ManifestReader::fail;

void PythonTools::addTo(Project &project, QSet<QString> &names, QHash<QString, QString> &origin,
                        const PythonDescription *cached, bool describeNow)
{
    const QDir toolsDir(project.dir + QStringLiteral("/tools"));
    const QStringList pythonFiles = toolsDir.entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
    if (pythonFiles.isEmpty())
        return;
    const bool fits = cached && cached->fingerprint == Project::pythonFingerprint(project.dir);
    if (!project.trusted || (!fits && !describeNow)) {
        // Untrusted: importing a file runs its top-level code, so list it, import nothing.
        project.pythonLoading = project.trusted;
        for (const QString &name : pythonFiles) {
            PythonToolFile file;
            file.path = QStringLiteral("tools/") + name;
            file.error = QString::fromUtf8(project.trusted ? Project::LoadingError : Project::NotTrustedError);
            project.pythonFiles.push_back(std::move(file));
        }
        return;
    }
    const PythonDescription description = fits ? *cached : Project::describePython(project.dir);
    if (!description.files) {
        project.pythonError = description.error;
        return;
    }
    for (const json &described : *description.files) {
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

PythonDescription Project::describePython(const QString &dir)
{
    PythonDescription description;
    // Before describing: a file saved meanwhile makes the fingerprint stale, not the tools.
    description.fingerprint = pythonFingerprint(dir);
    description.files = ToolWorker::describeSync(dir, pythonTimeoutMs, &description.error);
    return description;
}

QString Project::pythonFingerprint(const QString &dir)
{
    QString fingerprint;
    const QDir toolsDir(dir + QStringLiteral("/tools"));
    for (const QFileInfo &info : toolsDir.entryInfoList({QStringLiteral("*.py")}, QDir::Files, QDir::Name))
        fingerprint += QStringLiteral("%1\t%2\t%3\n")
                           .arg(info.fileName())
                           .arg(info.lastModified().toMSecsSinceEpoch())
                           .arg(info.size());
    // The project's virtual environment: installing a requirement changes what imports
    // (a file missing a module loads now), though no tool file changed.
    const QDir venvLib(dir + QStringLiteral("/.toolstudio/venv/lib"));
    for (const QFileInfo &info : venvLib.entryInfoList({QStringLiteral("python*")}, QDir::Dirs, QDir::Name))
        fingerprint += QStringLiteral("venv %1\t%2\n")
                           .arg(info.fileName())
                           .arg(QFileInfo(info.filePath() + QStringLiteral("/site-packages"))
                                    .lastModified()
                                    .toMSecsSinceEpoch());
    return fingerprint;
}
