// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpconfigimport.h"

#include <QString>

/// The folders outside the project that an imported server's `args` name (a pasted
/// Claude Desktop config: the filesystem server with "/home/me/shared"). Such a folder
/// cannot be granted: a confined server reads only folders in the project (docs/mcp.md
/// "Confined servers"), and the filesystem server takes the client's roots in place of
/// its args' folders, so the server fails or never sees it. Said in the server's notes.
namespace McpImportFolders {

/// Adds to each server of `config` one note naming its args that look like a folder
/// outside `projectDir` (absolute, the folder as the caller has it): an argument that is
/// "~" or starts with "~/", or starts with "/" and is not an existing file nor the
/// project folder or a path in it. Options ("--root=/x"), relative paths and files (a
/// script the server runs) are not flagged. At most MaxNamed are named, the rest counted.
void note(McpConfigImport::Config &config, const QString &projectDir);

/// Arguments one note names ("args[1] (/a), args[2] (/b) and 3 more").
inline constexpr qsizetype MaxNamed = 3;

} // namespace McpImportFolders
