// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

#include <optional>

class Project;
class QCommandLineOption;

/// Exit status of a command refused because the project is not trusted.
constexpr int ExitNotTrusted = 3;

/// `toolstudio trust PROJECT` records a grant (printing what would run), `toolstudio
/// trust PROJECT --revoke` removes it, `toolstudio trust --list` lists them
/// (ProjectTrust). Exit 0, 2 on bad input or an unwritable trust file.
int trustCommand(const QStringList &arguments);

/// `--trust` of the commands that run a project's code: trust it for this invocation
/// and record the grant.
QCommandLineOption trustOption();

/// For a command about to run the code of the project in `dir`: loads it; with `trust`
/// (--trust) an untrusted project is recorded as trusted and loaded again. A project that is not trusted is
/// refused on stderr — what would run (or what changed since the grant) and the two
/// ways to trust it — with `*exitCode` ExitNotTrusted; a load error gives ExitBadInput.
std::optional<Project> loadProjectToRun(const QString &command, const QString &dir, bool trust, int *exitCode);
/// Records a grant for `dir` (--trust); false after printing why it could not.
bool recordTrust(const QString &command, const QString &dir);
/// The refusal loadProjectToRun prints, for a project already loaded: true when
/// `project` is trusted, else printed and false.
bool refuseUntrusted(const QString &command, const Project &project);
