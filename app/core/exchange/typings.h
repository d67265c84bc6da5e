// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <QString>
#include <QStringList>

#include <vector>

class Project;

/// Typings for editors (issue 6 "Typings for editors"; docs/python-tools.md
/// "Typings"): a Python stub (`toolstudio.pyi`) and a TypeScript declaration file
/// (`toolstudio.d.ts`) describing the `tools` object of the shims — one method per
/// tool, its parameters from `input_schema` and its result from `output_schema`.
///
/// Mapping (the same for both languages): object properties → parameters in
/// `parameterOrder` (required ones plain, the others optional); `string`/`integer`/
/// `number`/`boolean`/`null` → `str`/`int`/`float`/`bool`/`None` and `string`/
/// `number`/`number`/`boolean`/`null`; `enum`/`const` → `Literal[...]` / a union of
/// literals; `array` → `list[T]` / `T[]`; an object with properties → a `TypedDict` /
/// an `interface` named after the tool and the path (`CreateOrderAddress`), optional
/// properties `NotRequired[...]` / `?:`; a map → `dict[str, T]` / `{ [key: string]: T }`;
/// `anyOf`/`oneOf`/a type list → a union; anything else → `Any` / `unknown`. A tool
/// without `output_schema` returns `Any` / `Promise<unknown>`.
namespace Typings {

/// Whether `name` is one of Python's keywords (`class`, `def`, `None`, …).
bool isPythonKeyword(const QString &name);
/// Whether `name` is an ASCII Python identifier that is not a keyword.
bool isPythonIdentifier(const QString &name);

/// The text of `toolstudio.pyi` for `tools` (in that order).
QString python(const std::vector<Tool> &tools, const QString &projectName);
/// The text of `toolstudio.d.ts` for `tools`.
QString typescript(const std::vector<Tool> &tools, const QString &projectName);

/// Copies of the tools of `project` named in `names` (every tool when empty), in the
/// project's order, for typings: a Python tool without output_schema gets the schema of
/// its return annotation (PythonToolFile::resultSchemas) as its result type.
std::vector<Tool> toolsOf(const Project &project, const QStringList &names = {});

/// Writes `toolstudio.pyi` and `toolstudio.d.ts` for every tool of `project` into
/// `outDir` (created when missing). `written` gets the two paths; false with the
/// reason otherwise.
bool write(const Project &project, const QString &outDir, QStringList *written, QString *error);

} // namespace Typings
