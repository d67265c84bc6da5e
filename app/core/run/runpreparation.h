// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>

struct Project;

/// Fills a new run's folder before its script starts (docs/sandbox.md): `work/` with the
/// project's `files/` (links skipped: nothing leads out of the project) and a served
/// session's files, `runtime/` with every language's shim, the bound tools' parameter
/// order and typings, and a copy of the script, readable by the sandbox user.
class RunPreparation
{
public:
    /// `script`: absolute; `runDir`: the run folder, already created and locked.
    RunPreparation(const Project &project, const QString &script, const QString &runDir);
    ~RunPreparation(); ///< closes the work dir's fd
    RunPreparation(const RunPreparation &) = delete;
    RunPreparation &operator=(const RunPreparation &) = delete;

    /// Fills the folder. `folderFd`: the run folder's fd (RunFolder::fd); `handOver`:
    /// the folder came from a pre-warmed launcher, so work/ goes back to the studio's
    /// user first. `inputFiles`: a path relative to work/ → its bytes (prepareServed).
    /// False with `error` (what could not be created, copied or written).
    bool prepare(int folderFd, bool handOver, const QList<QPair<QString, QByteArray>> &inputFiles, QString *error);
    /// The script's copy is written from these bytes instead of read from its path (a
    /// served program: its file could be swapped between written and read).
    void setScriptBytes(const QByteArray &bytes) { m_scriptBytes = bytes; }

    QString workDir() const { return m_runDir + QStringLiteral("/work"); }
    /// work/, open (O_DIRECTORY, no symlink followed) after prepare(); -1 before.
    int workFd() const { return m_workFd; }
    /// The copy the interpreter runs: runtime/script/NAME.
    QString scriptCopy() const;
    /// The tools the script may call (Project::boundTools).
    const QStringList &boundTools() const { return m_bound; }

    /// A new run id: UTC time and 4 hex digits ("20260103T101500-0a1b").
    static QString makeRunId();
    /// The bridge's line bound: the request cap, or the model request cap when larger
    /// and the project declares models, plus room for the call's envelope.
    static std::size_t maxLineBytes(const Project &project);

private:
    bool writeRuntime(QString *error) const;

    const Project &m_project;
    QString m_script;
    QString m_runDir;
    std::optional<QByteArray> m_scriptBytes;
    QStringList m_bound;
    int m_workFd = -1;
};
