// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

/// Tool definitions into a project (DESIGN.md "import the same formats and an MCP
/// tools/list result as manual or mock tools"; docs/python-tools.md "Import").
///
/// Accepted JSON (one definition or an array of them): Anthropic `{name, description,
/// input_schema}`, OpenAI Chat `{"type":"function","function":{name, description,
/// parameters}}`, OpenAI Responses `{"type":"function", name, description,
/// parameters}`, and an MCP `tools/list` result `{"tools":[{name, description,
/// inputSchema, outputSchema}]}` (bare or inside a JSON-RPC response's `result`).
/// Each becomes a manifest tool entry whose handler is `manual` (a person answers) or
/// `mock` (one `{"result": null}` entry to edit).
///
/// Names are never changed: a name the studio cannot use
/// (`Tool::isValidName`: MCP's 1–128 of `A-Z a-z 0-9 _ - .`; the refusal suggests a
/// valid name), one already in the project (toolstudio.json or a
/// tools/*.py method), or one given twice in the file is refused with the reason, and
/// then nothing is imported.
namespace ToolImport {

enum class As { Manual, Mock };

struct Parsed
{
    QString format;                            ///< "anthropic", "openai-chat", "openai-responses", "mcp"
    std::vector<nlohmann::ordered_json> tools; ///< manifest tool entries
};

/// Parses `data`; nullopt with the reason (not JSON, not a known shape, a definition
/// without a name).
std::optional<Parsed> parseDefinitions(const QByteArray &data, As as, QString *error);

/// Imports FILE into the project in `projectDir`: JSON definitions are added to
/// toolstudio.json; a `.py` file is copied into tools/ (refused when a file of that
/// name exists, or when the project does not load with it — then it is removed again).
/// `imported` gets the new tool names. False with every reason in `errors`
/// (one line each); the project is unchanged then.
/// `renames` (OLD → NEW, the CLI's `--rename OLD=NEW`) gives a definition of FILE
/// another name before the checks: how a person accepts a suggested name. A rename
/// whose OLD is not in FILE is refused; a `.py` file takes none.
bool importFile(const QString &projectDir, const QString &file, As as, QStringList *imported, QStringList *errors,
                const QMap<QString, QString> &renames = {});

} // namespace ToolImport
