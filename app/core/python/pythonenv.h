// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

struct PythonToolFile;
class ToolSandbox;

/// The per-project virtual environment of the tool worker (issue 6 "Frontmatter and
/// dependencies"; docs/python-tools.md "Missing modules"): `PROJECT/.toolstudio/venv`,
/// created with `python3 -m venv --system-site-packages` (Debian's python3-pydantic
/// stays importable), then `VENV/bin/python -m pip install REQUIREMENTS`. The worker
/// runs in it once it exists (ToolWorker::pythonFor); install() stops the project's
/// worker after a successful install, so the next call starts in the venv.
///
/// One install at a time per object. install() returns at once; pip's output arrives
/// as output() (stdout and stderr merged, in chunks), the end as finished() exactly
/// once. A venv that install() created is removed again when the install fails or is
/// cancelled, so the project loads as before.
///
/// Both steps run confined like the tool worker (ToolSandbox; docs/sandbox.md "Trusted
/// code"): a package's build step is code from the internet. The venv is their work
/// dir and the one place they write; network on; never root. As root they build the
/// venv in the sandbox user's copy of the project and the studio copies it into the
/// project after each step; local requirement files named by an absolute path are
/// handed over as copies in the tool folder, which the sandbox user can read.
class PythonEnv : public QObject
{
    Q_OBJECT
public:
    explicit PythonEnv(const QString &projectDir, QObject *parent = nullptr);
    ~PythonEnv() override;

    /// PROJECT/.toolstudio/venv
    static QString venvDir(const QString &projectDir);
    /// The file's frontmatter `requirements:` (Open WebUI: comma separated pip
    /// requirement specifiers, e.g. "requests, beautifulsoup4>=4.12"), trimmed, in
    /// order; empty when the line is missing.
    static QStringList requirementsOf(const PythonToolFile &file);

    /// Creates the venv when it is missing, then pip-installs `requirements` into it.
    /// Nothing happens (finished(false, …)) when `requirements` is empty or an install
    /// is already running.
    void install(const QStringList &requirements);
    /// Kills the running step; finished(false, "the install was cancelled") follows.
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    /// Text the running step printed (venv creation or pip), as it comes.
    void output(const QString &text);
    /// `ok` false: `error` says what failed, with pip's last lines
    /// ("pip install failed (exit status 1):\nERROR: No matching distribution …").
    void finished(bool ok, const QString &error);

private:
    void startStep(const QString &program, const QStringList &arguments);
    /// `requirements` as the confined step names them: as root an absolute path to a
    /// local file becomes a copy the sandbox user reads; otherwise the absolute local
    /// paths are granted (m_readPaths). Empty with `error` when a file cannot be copied.
    QStringList stagedRequirements(const QStringList &requirements, QString *error);
    /// The venv as the confined steps see it: the project's, or as root the one in the
    /// sandbox user's copy of the project (ToolSandbox::projectPath()).
    QString confinedVenv() const;
    /// As root: copies the venv built in the copy into the project. False when it fails.
    bool keepConfinedVenv();
    void stepFinished(int exitCode, QProcess::ExitStatus status);
    void finish(bool ok, const QString &error);

    QString m_projectDir;
    QProcess *m_process = nullptr;
    std::shared_ptr<ToolSandbox> m_sandbox;
    QStringList m_requirements;
    QStringList m_readPaths; ///< local requirement paths granted to the confined steps
    QString m_stepName;      ///< "creating the virtual environment" or "pip install"
    QString m_stepOutput;    ///< all output of the running step
    bool m_createdVenv = false;
    bool m_cancelled = false;
};
