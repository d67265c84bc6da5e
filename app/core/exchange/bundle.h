// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

/// Tool bundles (DESIGN.md "Workspace features": import/export a bundle `.zip`;
/// docs/python-tools.md "Bundles"). A bundle is a zip (QuaZip) holding
///
/// - `bundle.json`: `{"format": "toolstudio-bundle", "version": 1, "tools": [manifest
///   tool entries], "python_tools": {per-tool overrides}, "valves": {"tools/x.py":
///   {"Valves": {...}, "UserValves": {...}}}}` — the valve values become the importing
///   project's values (the "defaults" a bundle carries);
/// - `tools/NAME.py`: the project's Python tool files.
///
/// Never secrets: they live outside the project, and every secret value of the
/// exporting project is masked (`********`) in everything written to the zip.
namespace Bundle {

/// Limits an imported zip must respect; a larger entry is refused before it is read
/// whole (the size in its header is not trusted: reading stops at the limit). The
/// entries together hold at most MaxTotalBytes once unpacked: each entry alone below
/// MaxEntryBytes, 1000 of them made a 4 MB zip of zeros take 4 GiB of memory.
inline constexpr qint64 MaxEntryBytes = 4 * 1024 * 1024;
inline constexpr int MaxEntries = 1000;
inline constexpr qint64 MaxTotalBytes = 16 * 1024 * 1024;

/// Writes every manifest tool, every `tools/*.py` file, the python_tools overrides and
/// the valve values of the project in `projectDir` to `zipPath` (replaced atomically).
/// `exported` gets one line per item ("tool 'x'", "tools/w.py", "valves of tools/w.py").
/// False with the reason in `error`.
bool exportBundle(const QString &projectDir, const QString &zipPath, QStringList *exported, QString *error);

/// Adds the bundle's tools, files and valves to the project in `projectDir` — all or
/// nothing. Refused, with every reason in `errors` (one line each) and the project
/// unchanged: an entry whose path is absolute or has a `..` component (zip-slip), an
/// entry other than `bundle.json` / `tools/NAME.py`, an entry larger than
/// MaxEntryBytes, more than MaxEntries entries or MaxTotalBytes in all (reading stops
/// there), a malformed or too deeply nested `bundle.json`, a tool
/// name or `tools/` file the project already has (names are never changed), and a
/// bundle with which the project does not load. `imported` gets the new tool names.
bool importBundle(const QString &projectDir, const QString &zipPath, QStringList *imported, QStringList *errors);

} // namespace Bundle
