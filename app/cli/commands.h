// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

#include <optional>

/// The headless commands (DESIGN.md "Headless use"): run, runs, replay, resume,
/// answer. Returns the command's exit status, or nullopt when `name` is none of them.
/// Needs a QCoreApplication.
std::optional<int> runHeadlessCommand(const QString &name, const QStringList &arguments);
/// True when `name` is a headless command (no display needed).
bool isHeadlessCommand(const char *name);
/// The headless commands' names, in the order `toolstudio help` lists them.
QStringList headlessCommandNames();
