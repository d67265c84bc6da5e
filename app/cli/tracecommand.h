// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio trace export [PROJECT] RUN [--format json|chrome] [-o FILE]`: writes a
/// recorded run (TraceExport::exportRun); the process exit code.
int traceCommand(const QStringList &arguments);
