// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio init DIR [--template NAME]` and `toolstudio init --list` (README
/// "Start from nothing"): makes a project from a template (ProjectTemplates). Exit 0
/// when made, 2 for bad usage, an unknown template or a folder that is a project
/// already or has a file the template would write (nothing is written then).
int initCommand(const QStringList &arguments);
