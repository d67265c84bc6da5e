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
/// tools/list result as manual or mock tools"; docs/project-format.md "Importing tools").
///
/// Accepted JSON (one definition or an array of them): Anthropic `{name, description,
/// input_schema}`, OpenAI Chat `{"type":"function","function":{name, description,
/// parameters}}`, OpenAI Responses `{"type":"function", name, description,
/// parameters}`, an MCP `tools/list` result `{"tools":[{name, description,
/// inputSchema, outputSchema}]}` (bare or inside a JSON-RPC response's `result`), and
/// BFCL (Berkeley Function Calling Leaderboard) function documents: a list of `{name,
/// description, parameters}` or one JSON object per line with `"function": [...]`
/// (BfclDialect maps their types to JSON Schema). Each becomes a manifest tool entry
/// whose handler is `manual` (a person answers) or `mock` (one response whose result
/// is an example of `output_schema`, SchemaExample, to edit).
///
/// Import is partial: each definition the studio cannot use is refused with its
/// reason and the others are imported. Names are never changed behind a person's back:
/// a name the studio cannot use (`Tool::isValidName`), one already in the project, or
/// one given twice in the file is refused with a suggested name (valid, not taken) that
/// the person accepts with `--rename OLD=NEW` or in the window. The one mapping made
/// without asking, BFCL's dotted names (`math.factorial` → `math_factorial`, the
/// model APIs take no '.'), keeps the original as the title and is listed in `notes`.
namespace ToolImport {

enum class As { Manual, Mock };

/// One definition of the file that was not imported.
struct Refusal
{
    QString name;       ///< the tool's name as in the file (after --rename); "definition N" when it has none
    QString reason;     ///< why, in words
    QString suggestion; ///< a valid name no other tool has, for a clash or an invalid name; else empty
};

struct Parsed
{
    QString format;                            ///< "anthropic", "openai-chat", "openai-responses", "mcp", "bfcl"
    std::vector<nlohmann::ordered_json> tools; ///< manifest tool entries
    std::vector<Refusal> refused;              ///< definitions that are not tool definitions
    QStringList notes;                         ///< what the import mapped (BFCL names), one line each
    int total = 0;                             ///< definitions in the file
};

/// Parses `data`; nullopt with the reason when the file as a whole is unusable (not
/// JSON, a JSON-lines file with a bad line). `format` "bfcl" reads BFCL's dialect;
/// empty detects it (JSON lines, `"function": [...]`, `{name, parameters}`).
std::optional<Parsed> parseDefinitions(const QByteArray &data, As as, QString *error,
                                       const QString &format = QString());

/// What importFile did.
struct Outcome
{
    int total = 0;                ///< definitions in the file (tools found in a .py file)
    QStringList imported;         ///< names of the new tools
    std::vector<Refusal> refused; ///< definitions not imported, each with its reason
    QStringList notes;            ///< mappings made (BFCL names), warnings of a .py file
    QStringList errors;           ///< why nothing was imported (the file as a whole); empty otherwise
    bool changed = false;         ///< the project was written (a .py file copied into an untrusted project counts)
    bool ok() const { return changed || !imported.isEmpty(); }
    /// "tool 'X': reason (suggested: 'Y'; on the command line: --rename X=Y, shell-quoted when needed)"
    static QString describe(const Refusal &refusal);
};

/// The checks of importFile without writing anything: which definitions of FILE would
/// be imported and which refused (the window shows this before it imports).
Outcome plan(const QString &projectDir, const QString &file, As as, const QMap<QString, QString> &renames = {},
             const QString &format = QString());

/// Imports FILE into the project in `projectDir`: JSON definitions are added to
/// toolstudio.json (those that pass the checks; the others are in `refused`); a `.py`
/// file is copied into tools/ (refused when a file of that name exists, or when the
/// project does not load with it — then it is removed again).
/// `renames` (OLD → NEW, the CLI's `--rename OLD=NEW`) gives a definition of FILE
/// another name before the checks: how a person accepts a suggested name. A rename
/// whose OLD is not in FILE is an error (nothing imported); a `.py` file takes none.
Outcome importFile(const QString &projectDir, const QString &file, As as, const QMap<QString, QString> &renames = {},
                   const QString &format = QString());

} // namespace ToolImport
