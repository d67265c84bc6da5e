// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

struct PythonToolFile;

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
    void stepFinished(int exitCode, QProcess::ExitStatus status);
    void finish(bool ok, const QString &error);

    QString m_projectDir;
    QProcess *m_process = nullptr;
    QStringList m_requirements;
    QString m_stepName;   ///< "creating the virtual environment" or "pip install"
    QString m_stepOutput; ///< all output of the running step
    bool m_createdVenv = false;
    bool m_cancelled = false;
};
