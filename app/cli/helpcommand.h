// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio help [COMMAND]` and `toolstudio --help`: without COMMAND, how to start
/// the window and every command with its options; with it, that command's. Each
/// command's text is its own `--help` (its QCommandLineParser), so the two never
/// differ. Exit 0, or 2 (on stderr, with the command names) for an unknown COMMAND.
int helpCommand(const QStringList &arguments);
