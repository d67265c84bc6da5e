// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

/// Structured edits of a project's `toolstudio.json` (DESIGN.md "Tools and the
/// project"). The manifest is handled as ordered JSON, so key order and every key the
/// studio does not know survive an edit. Each edit returns false with `error` set (and
/// leaves the manifest as it was) when it cannot apply.
namespace ProjectWriter {

using Manifest = nlohmann::ordered_json;
/// One structured edit, applied to a copy of the manifest (the window's undo stack
/// keeps the manifest before and after). False with the reason when it cannot apply.
using Edit = std::function<bool(Manifest &, QString *)>;

/// Reads `dir/toolstudio.json`. nullopt with `error` ("toolstudio.json:LINE:COL: …" or
/// the I/O reason) when missing or malformed.
std::optional<Manifest> readManifest(const QString &dir, QString *error = nullptr);
/// Writes `manifest` to `dir/toolstudio.json` atomically (QSaveFile), indented by two
/// spaces with a final newline.
bool writeManifest(const QString &dir, const Manifest &manifest, QString *error = nullptr);

/// Index of the tool called `name` in `manifest["tools"]`, or -1.
int toolIndex(const Manifest &manifest, const QString &name);
QStringList toolNames(const Manifest &manifest);
/// `base` when free, else `base_copy`, `base_copy2`, … (always a valid tool name).
QString uniqueToolName(const Manifest &manifest, const QString &base);

/// Appends `tool` (an object with a valid, unused "name").
bool addTool(Manifest &manifest, const Manifest &tool, QString *error = nullptr);
/// A new mock tool with an empty object input_schema and a `null` result.
Manifest newMockTool(const QString &name);
/// Removes the tool and its mentions in `scripts[].tools` (a script left with no
/// bound tool then binds every active tool).
bool removeTool(Manifest &manifest, const QString &name, QString *error = nullptr);
/// Renames the tool and every mention of it in `scripts[].tools`.
bool renameTool(Manifest &manifest, const QString &from, const QString &to, QString *error = nullptr);
/// Appends a copy of `name` called `newName` (right after the original).
bool cloneTool(Manifest &manifest, const QString &name, const QString &newName, QString *error = nullptr);
/// Sets "active"; the key is removed when it becomes true (the default).
bool setToolActive(Manifest &manifest, const QString &name, bool active, QString *error = nullptr);

/// Sets the tags of tool `name` of `tools` (empty = the key is removed).
bool setToolTags(Manifest &manifest, const QString &name, const QStringList &tags, QString *error = nullptr);
/// Sets one key of the `retry` object of tool `name` (docs/project-format.md "retry";
/// `key` is e.g. "max_attempts" or "initial_backoff_seconds", times in seconds). A tool
/// of `tools` gets it in its own `retry`, a Python tool in `python_tools`. Refused with
/// the loader's reason when out of range ("retry: 'initial_backoff_seconds' must be at
/// least 0"); max_attempts is written as a whole number.
bool setToolRetryValue(Manifest &manifest, const QString &name, const QString &key, double value,
                       QString *error = nullptr);
/// Replaces the `sequence` of mock tool `name`; refused with the loader's reason.
bool setMockSequence(Manifest &manifest, const QString &name, const Manifest &sequence, QString *error = nullptr);
/// Replaces the `command` (program, then arguments) of command tool `name`.
bool setCommand(Manifest &manifest, const QString &name, const QStringList &command, QString *error = nullptr);
/// Binds `tools` to the script called `script` (`scripts[].tools`); an empty list
/// removes the key, which binds every active tool (docs/project-format.md "scripts").
bool setScriptTools(Manifest &manifest, const QString &script, const QStringList &tools, QString *error = nullptr);

/// Python tools (tools/*.py) are not in `tools`: their per-project settings live in
/// `python_tools` (docs/project-format.md). Sets "active" there; the entry (and the
/// key) is removed when it becomes the default again.
bool setPythonToolActive(Manifest &manifest, const QString &name, bool active, QString *error = nullptr);
/// Sets the tags of Python tool `name` in `python_tools` (empty = removed).
bool setPythonToolTags(Manifest &manifest, const QString &name, const QStringList &tags, QString *error = nullptr);
/// Why Python tool `file`:`name` cannot be cloned (the reason for every Python tool:
/// its definition is the method's code, so a second name would be a second method).
QString pythonCloneRefusal(const QString &name, const QString &file);

} // namespace ProjectWriter
