// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "python/projectcopyplace.h"

#include <QMap>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>

class QProcess;

/// Confines trusted code a project brings — the Python tool worker and command tools —
/// with `toolstudio-sandbox`'s "tool_worker" profile (docs/sandbox.md "Trusted code"):
/// Landlock with the project folder read-only, a scratch dir (HOME, TMPDIR) and the
/// project's `.toolstudio/tool-data/` read-write, the system dirs, the venv; TCP
/// allowed unless the caller says otherwise; a clean environment holding only the
/// variables given here (the secrets reach the launcher through its environment,
/// never a file); rlimits of its own; never root — a studio running as root hands the
/// code to the launcher's sandbox user, which reads a private read-only copy of the
/// project (root's home is not readable by that user): its files, symlinks as links,
/// and `.toolstudio/venv` (the venv's python is run from the copy).
///
/// prepare() makes a private folder `$TMPDIR/toolstudio-tools-XXXXXX/` (0711) with one
/// `policy-N.json` per launch and `scratch/`; as root the copy of the project is the one
/// kept from the last start (ProjectCopyPlace: only what changed is copied), or when
/// another studio process uses that one, a private `project/` in the folder. It holds its
/// `.lock` flock()ed as a run folder's (a studio that finds it unlocked — its studio
/// died — removes it: RunFolder::sweepStaleToolFolders); the destructor removes it. forProject() gives the one folder a studio process uses for a project
/// (the worker and every command attempt share its scratch dir); thread-safe.
class ToolSandbox
{
public:
    /// What the confined process may use.
    struct Launch
    {
        QStringList argv;           ///< program (absolute, or found in PATH) and arguments
        QMap<QString, QString> env; ///< the only variables besides PATH, HOME, TMPDIR, LANG
        bool network = true; ///< sockets (seccomp) and TCP (Landlock ABI >= 4); also needs projectAllowsNetwork()
        std::uint64_t memoryBytes = DefaultMemoryBytes; ///< RLIMIT_DATA
        std::uint64_t cpuSeconds = 0;                   ///< RLIMIT_CPU; 0 = none (a worker outlives attempts)
        int keepFds = 0;                                ///< fds 3.. the process gets as they are (file_args)
        bool cwdInProject = true;                       ///< start in the project folder (else the scratch dir)
        /// More dirs to read (a run's work dir, whose files a command gets as fds
        /// `/dev/fd/N`: re-opening those is checked by Landlock against the file's dir).
        QStringList readPaths;
        /// Dirs to write (an MCP server's `sandbox.read_write`; absolute). Refused as
        /// root, where the code reads a copy of the project.
        QStringList writePaths;
        /// False: the project folder is not granted (an MCP server with a `sandbox`
        /// gets only its own folders).
        bool readProject = true;
        /// The start folder (absolute, inside the project); "" = as cwdInProject says.
        QString cwd;
        /// The work dir (HOME, TMPDIR, the one folder written) as the code sees it, which
        /// then replaces the scratch dir and `.toolstudio/tool-data/`; "" = those. A
        /// requirements install writes only its venv (PythonEnv).
        QString workDir;
    };
    static constexpr std::uint64_t DefaultMemoryBytes = 2ull * 1024 * 1024 * 1024;
    /// The folders' names in $TMPDIR begin with this.
    static constexpr char FolderPrefix[] = "toolstudio-tools-";

    /// The shared, prepared folder of `projectDir` (absolute, canonical); null with the
    /// reason when it cannot be made. Lives until the studio process ends.
    static std::shared_ptr<ToolSandbox> forProject(const QString &projectDir, QString *error);

    ToolSandbox() = default;
    ~ToolSandbox();
    ToolSandbox(const ToolSandbox &) = delete;
    ToolSandbox &operator=(const ToolSandbox &) = delete;

    /// Creates the folder for `projectDir` (absolute); called again, keeps it (and the
    /// scratch dir's files) and brings the root studio's copy up to date. False with the
    /// reason otherwise.
    bool prepare(const QString &projectDir, QString *error);
    /// Writes `content` as a read-only file `name` into the folder's bin/ (the worker's
    /// files: the cache dir in the user's home is not granted) and returns its path;
    /// `name` may hold folders ("toolstudio_worker/serve.py"), made as needed.
    QString placeFile(const QString &name, const QByteArray &content, QString *error);
    /// The project folder as the confined code sees it: the project itself, or its
    /// read-only copy when the studio is root. A relative program path in argv[0]
    /// ("tools/x.sh") is resolved against it.
    QString projectPath() const { return m_projectPath; }
    QString scratchDir() const { return m_folder.isEmpty() ? QString() : m_folder + QStringLiteral("/scratch"); }
    /// As root: brings the copy up to date with the project (new, changed and removed
    /// files, modification times kept so the worker reloads changed tool files).
    /// Nothing to do otherwise.
    void syncProject();
    /// Writes the policy and sets `process` up to run `launch` under toolstudio-sandbox
    /// (program, arguments, environment). False with the reason (no launcher). The
    /// policy file is removed when `process` is destroyed.
    bool configure(QProcess *process, const Launch &launch, QString *error);

    /// The project's `sandbox.tools_network` (docs/project-format.md), read from its
    /// manifest at each launch: true when absent or true; false when false, or when the
    /// manifest exists but cannot be read as a JSON object or the value is no boolean
    /// (Project::load refuses such a manifest; nothing gets the network meanwhile).
    static bool projectAllowsNetwork(const QString &projectDir);
    /// True when the studio runs as root (the code then runs as the sandbox user).
    static bool studioIsRoot();

private:
    void syncProjectLocked();

    QMutex m_mutex; ///< command attempts prepare on run threads, the worker on the main thread
    int m_launches = 0;
    int m_lockFd = -1; ///< the folder's `.lock`, flock()ed while the folder is in use
    QString m_projectDir;
    QString m_folder;
    QString m_projectPath;
    ProjectCopyPlace m_copyPlace; ///< as root: the kept copy of the project, claimed
};
