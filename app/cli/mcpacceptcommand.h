// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

/// `toolstudio mcp accept PROJECT SERVER [TOOL…] [--json]` (docs/mcp.md "Tools that
/// change"): starts SERVER, prints what changed in each of its tools since a person
/// accepted them (a diff of the definitions; every changed or new tool, or the TOOLs
/// named) and records them as accepted in `.toolstudio/mcp-accepted.json`. Exit 0 when
/// recorded (or nothing had changed), 1 when the server failed or the record cannot be
/// written, 2 on bad input (no such server, a TOOL the server does not list), 3 when the
/// project is not trusted.
int acceptMcpTools(const QString &projectDir, const QString &server, const QStringList &tools, bool asJson, bool trust);
