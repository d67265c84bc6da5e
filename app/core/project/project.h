// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/mcpserverconfig.h"
#include "project/modelconfig.h"
#include "project/tool.h"
#include "python/pythontoolfile.h"

#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

/// Limits of a run (DESIGN.md "The tools bridge", defaults from the seeds).
struct ProjectLimits
{
    std::size_t requestBytes = 256 * 1024;      ///< compact UTF-8 JSON of a call's args
    std::size_t replyBytes = 1024 * 1024;       ///< compact UTF-8 JSON of a reply's value
    int maxCalls = 100;                         ///< calls per run
    int runTimeoutMs = 300000;                  ///< paused while a call waits for a person
    std::size_t outputBytes = 10 * 1024 * 1024; ///< per stream (stdout, stderr)
    qint64 workDirBytes = 1024ll * 1024 * 1024; ///< all of the work dir's files together (limits.work_dir_mb)
    // Model steps (docs/models.md "The model step"): their own budget and caps.
    int maxModelCalls = 50; ///< model calls per run (limits.max_model_calls)
    qint64 maxTokens = 0;   ///< input + output tokens per run; 0 = no bound (limits.max_tokens)
    std::size_t modelRequestBytes
        = 4096 * 1024; ///< compact JSON of a model frame's request (limits.model_request_bytes)
    std::size_t modelReplyBytes = 8 * 1024 * 1024; ///< a model's HTTP reply body (limits.model_reply_bytes)
};

/// An agent script of the project and the tools bound to it.
struct ScriptEntry
{
    QString name;      ///< e.g. "main"
    QString path;      ///< relative to the project dir, e.g. "scripts/main.py"
    QStringList tools; ///< bound tools; empty = every active tool
};

/// Why a project could not be loaded. `line`/`column` are 1-based, 0 when unknown.
struct ProjectError
{
    QString file;
    int line = 0;
    int column = 0;
    QString message;

    /// "FILE:LINE:COLUMN: MESSAGE" (line/column left out when unknown).
    QString toString() const;
};

/// What the tool worker said about a project's `tools/*.py` (Project::describePython),
/// kept by the window so that a reload reuses it while those files did not change.
struct PythonDescription
{
    QString fingerprint;                 ///< Project::pythonFingerprint of the files described
    std::optional<nlohmann::json> files; ///< the worker's "files" array, or nullopt on failure
    QString error;                       ///< why `files` is nullopt
};

/// A project folder (DESIGN.md "Tools and the project"): `toolstudio.json`,
/// `files/`, `tools/*.py`, `scripts/`, `.toolstudio/journal.sqlite`.
class Project
{
public:
    /// Loads `dir/toolstudio.json`. Returns nullopt and fills `error` when the folder
    /// or manifest is missing, the JSON is malformed (with line and column), or a
    /// tool is invalid (bad name, invalid input_schema, unknown handler — the error
    /// names the tool and the reason). Reads only; never writes.
    ///
    /// Python tools: when `tools/*.py` exist, load() runs the tool worker once
    /// (ToolWorker::describeSync, at most `pythonTimeoutMs`) and adds one tool per
    /// derived method (handler Python, the project's retry defaults, input_schema and
    /// parameterOrder from the signature). A file or method that fails to load does not
    /// fail the project: it is listed in pythonFiles with the reason (problems()). A
    /// Python tool whose name is already taken (by toolstudio.json or another file) is
    /// an error: "tool 'x': declared twice (tools/a.py and tools/b.py)".
    ///
    /// Trust (ProjectTrust): a project whose folder is not trusted loads with `trusted`
    /// false and none of its Python tool files imported: each is listed in pythonFiles
    /// with the error NotTrustedError and no tools, so it can be read but runs nothing.
    static std::optional<Project> load(const QString &dir, ProjectError *error);
    /// load() in two phases, for the window (the GUI thread never waits on the worker):
    /// the manifest is read at once, and the Python tool files are taken from `described`
    /// when its fingerprint is that of `tools/*.py` now. Otherwise (nullptr, or the
    /// files changed) they are listed as loading — pythonLoading is true, each file has
    /// the error LoadingError and no tools, and neither scripts binding a tool nor
    /// `python_tools` entries are checked — until describePython() (run on a worker
    /// thread) gives the description to load with again. An untrusted project needs none.
    static std::optional<Project> loadManifest(const QString &dir, ProjectError *error,
                                               const PythonDescription *described);
    /// Runs the tool worker on `dir/tools/*.py` (at most pythonTimeoutMs); any thread.
    static PythonDescription describePython(const QString &dir);
    /// Names, modification times and sizes of `dir/tools/*.py` and the modification time
    /// of the project venv's site-packages (`.toolstudio/venv`), as one string.
    static QString pythonFingerprint(const QString &dir);
    /// `dir` as Project::dir spells it: absolute and clean ("." when empty).
    static QString folderPath(const QString &dir);
    static constexpr auto LoadingError = "loading…";
    /// The largest toolstudio.json read (a larger one is refused, not read).
    static constexpr std::size_t MaxManifestBytes = 8u << 20;
    static constexpr auto NotTrustedError = "not loaded: the project is not trusted";
    static inline int pythonTimeoutMs = 20000;

    QString name;
    QString dir; ///< absolute path of the project folder
    /// Whether the project's code may run (ProjectTrust::refusal). Set by load() from
    /// the user's grants; a Project built in code (not read from a folder) is trusted.
    bool trusted = true;
    std::vector<Tool> tools;
    std::vector<ScriptEntry> scripts;
    QString defaultScript; ///< a ScriptEntry name
    ProjectLimits limits;
    /// `sandbox.tools_network`: the project's tools (worker, command tools) may use the
    /// network (docs/sandbox.md "Trusted code"); ToolSandbox reads it at each launch.
    bool toolsNetwork = true;
    /// `mcp_servers`, sorted by server name.
    std::vector<McpServerConfig> mcpServers;
    /// `models`, in the manifest's order (docs/models.md).
    std::vector<ModelConfig> models;
    RetryPolicy retryDefaults;
    std::vector<PythonToolFile> pythonFiles;
    /// loadManifest(): the Python tool files are still being described (see there).
    bool pythonLoading = false;
    QString pythonError; ///< set when the tool worker could not describe tools/ at all
    /// `python_tools` entries (toolstudio.json) naming no loaded Python tool.
    QStringList pythonOverrideProblems;

    /// One line per Python file or method that did not load, pythonError, and
    /// pythonOverrideProblems.
    QStringList problems() const;
    /// The file that defines Python tool `name`, or nullptr.
    const PythonToolFile *pythonFileOf(const QString &name) const;

    const Tool *tool(const QString &name) const;
    const ScriptEntry *script(const QString &name) const;
    const ModelConfig *model(const QString &name) const;
    /// Absolute path of the default script, or empty when the project has none.
    QString defaultScriptPath() const;
    QString manifestPath() const;
    QString journalPath() const; ///< dir/.toolstudio/journal.sqlite
    /// Tools a script may call: its bound list, or every active tool.
    QStringList boundTools(const QString &scriptPath) const;

    /// The loader's rule for a `retry` object (docs/project-format.md "retry"): empty
    /// when `retry` is valid, else the reason, e.g. "retry: 'factor' must be at least 1".
    static QString retryProblem(const nlohmann::json &retry);
    /// The loader's rule for a mock handler's `sequence`: empty when valid, else the
    /// reason, e.g. "sequence[1]: needs exactly one of 'result' or 'error'".
    static QString mockSequenceProblem(const nlohmann::json &sequence);

private:
    /// load() and loadManifest(): `describeNow` runs the worker when `described` does
    /// not fit the files.
    static std::optional<Project> read(const QString &dir, ProjectError *error, const PythonDescription *described,
                                       bool describeNow);
};
