// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

class Project;

/// What a project would run once trusted (docs/sandbox.md "Trust before code runs"):
/// one line per thing, sorted, and their SHA-256. Lines: "Python tool file: tools/a.py",
/// "Python interpreter: /usr/bin/python3", "command tool 'x': [\"python3\",\"x.py\"]",
/// "MCP server 'n': {…}", "model 'm': https://…". Read raw from the folder and the
/// manifest: computing it runs nothing.
struct TrustFingerprint
{
    QStringList items;
    QString hash; ///< hex SHA-256 of the items joined by '\n'
};

/// The user's grants of trust (VS Code's workspace trust is the model). A project that
/// is not trusted is read and browsed only: Project::load imports none of its Python
/// tool files, and refusal() stops every run and every command or Python handler.
///
/// Grants live in `QStandardPaths::AppConfigLocation/trust.json` (mode 0600, written
/// atomically), keyed by the project's canonical folder path, each with the
/// fingerprint of what would run when it was granted; when that changes, the project
/// is no longer trusted until granted again (check() says what changed). A trust file
/// that cannot be read counts as no grants (check().storeError says why); grant() and
/// revoke() then keep it as `trust.json.bad` (or `.bad-N`) before writing a new one.
class ProjectTrust
{
public:
    enum class State {
        Trusted,    ///< granted, and the fingerprint is unchanged
        NotTrusted, ///< never granted (or revoked)
        Changed,    ///< granted, but what would run changed since
    };

    struct Check
    {
        State state = State::NotTrusted;
        QString dir; ///< canonical
        TrustFingerprint now;
        QStringList added;   ///< Changed: items that are new since the grant
        QStringList removed; ///< Changed: items that are gone since the grant
        QString storeError;  ///< the trust file could not be read (then no grant counts)
        bool trusted() const { return state == State::Trusted; }
    };

    struct Grant
    {
        QString dir;
        QString hash;
        QStringList items;
        QString grantedAt; ///< ISO 8601, UTC
    };

    /// The file the grants live in.
    static QString storePath();
    /// The folder's canonical path (symlinks resolved); the key of its grant.
    static QString canonicalDir(const QString &dir);
    /// What `dir` would run (see TrustFingerprint). Reads only.
    /// `manifest`: toolstudio.json's bytes as the caller read them (else read here).
    static TrustFingerprint fingerprint(const QString &dir, const QByteArray *manifest = nullptr);
    /// Whether `dir` is trusted now, and if not, why; `manifest` as for fingerprint().
    static Check check(const QString &dir, const QByteArray *manifest = nullptr);
    static bool isTrusted(const QString &dir) { return check(dir).trusted(); }

    /// Records a grant for `dir` with its current fingerprint. False with the reason
    /// when the file cannot be written. `note` (optional) gets a line when an unreadable
    /// trust file was kept aside first ("…/trust.json was not readable (…); kept as …").
    static bool grant(const QString &dir, QString *error, QString *note = nullptr);
    /// Removes the grant of `dir`. `removed` says whether there was one.
    static bool revoke(const QString &dir, bool *removed, QString *error, QString *note = nullptr);
    /// Every recorded grant, by folder. `error` is set when the file cannot be read.
    static std::vector<Grant> grants(QString *error);
    /// A grant held in memory by this process only (never recorded), for the folder
    /// whatever it runs: for code that was told to trust `dir`, e.g. a test suite that
    /// writes the project itself. There is deliberately no environment variable for it.
    static void grantForThisProcess(const QString &dir);

    /// The gate every start of project code passes (Project::load's Python tools,
    /// RunController::start, the step engine's command and Python handlers): empty when
    /// `project` may run code, else the reason, naming how to trust it.
    static QString refusal(const Project &project);
    /// The reason refusal() gives, for a project folder.
    static QString untrustedReason(const QString &dir);
};
