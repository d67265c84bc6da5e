// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

struct McpServerConfig;

/// A stdio server entry that starts with `npx` (docs/mcp.md "npx entries"), as people
/// paste them: `"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything",
/// "stdio"]`. npx would download the package into the server's scratch folder and run it
/// from there, which the sandbox forbids (nothing written may be executed). Instead the
/// studio installs the package once, with the network and without running its install
/// scripts (`npm install --ignore-scripts`), into a folder of its own (installDir()),
/// and runs its bin with `node`, that folder granted read-only.
///
/// Only registry packages are taken — a name with an optional version, range or tag
/// (`pkg`, `@scope/pkg@1.2.3`, `pkg@latest`); a path, a URL, a git or `npm:` alias spec,
/// or an npx option the studio does not know is refused, naming it. A spec without a
/// version is installed once and then kept: pin a version to update.
class McpNpxPackage
{
public:
    /// Seconds an install may take.
    static constexpr int InstallTimeoutSeconds = 300;

    /// The package `server` runs when its command is npx; nullopt when it is not an npx
    /// entry (`error` left empty) or when it cannot be taken (`error` says why).
    static std::optional<McpNpxPackage> of(const McpServerConfig &server, QString *error);

    /// The folder the studio's npx packages are installed in: $TOOLSTUDIO_NPX_CACHE when
    /// set, else `toolstudio/npx` in the user's cache folder — as root
    /// `/var/cache/toolstudio/npx`, which the sandbox user can read (root's home it cannot).
    static QString cacheRoot();

    QString spec() const { return m_spec; }
    /// The package's name, without the version: "@scope/pkg".
    QString name() const { return m_name; }
    /// Where this spec is (or will be) installed: a folder of cacheRoot() named for the spec.
    QString installDir() const;
    /// True once an install of this spec finished there.
    bool isInstalled() const;
    /// `npm` and its arguments that install the spec into `prefix`.
    QStringList installCommand(const QString &prefix) const;

    /// The bin to run of the package installed at `installDir` (absolute): the `bin`
    /// named by `-p`'s command, else the package's only bin, else the one named as the
    /// package (without its scope), as npx chooses. "" with the reason when there is
    /// none, or when it points outside the package.
    QString binPath(const QString &installDir, QString *error) const;
    /// The arguments after the package: the server's own.
    QStringList serverArguments() const { return m_arguments; }

    /// True when `spec` is a registry package spec the studio installs (see the class).
    static bool isRegistrySpec(const QString &spec);
    /// The file an install writes last into its folder, holding the spec: the folder is complete.
    static QString markerName();
    /// "" when every package npm placed in `installDir` came from the registry (npm's
    /// hidden lockfile node_modules/.package-lock.json: a registry package's "resolved"
    /// is http(s), or left out), else which did not — a `file:` or git dependency, a
    /// link — or why the lockfile could not be read.
    static QString notFromTheRegistry(const QString &installDir);
    /// npm's hidden lockfile is read up to this size.
    static constexpr qint64 MaxLockfileBytes = 16 * 1024 * 1024;

private:
    QString m_spec;
    QString m_name;
    QString m_command; ///< with -p/--package: the bin to run
    QStringList m_arguments;
};
