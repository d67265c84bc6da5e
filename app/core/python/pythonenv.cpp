// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/pythonenv.h"

#include "python/pythontoolfile.h"
#include "python/toolworker.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace {

constexpr int ErrorLines = 8; ///< pip's last lines quoted in a failure

QString lastLines(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > ErrorLines)
        lines = lines.mid(lines.size() - ErrorLines);
    return lines.join(QLatin1Char('\n'));
}

QString systemPython()
{
    if (QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable())
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

} // namespace

PythonEnv::PythonEnv(const QString &projectDir, QObject *parent)
    : QObject(parent)
    , m_projectDir(projectDir)
{}

PythonEnv::~PythonEnv()
{
    if (isRunning()) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
        if (m_createdVenv) // half made: the worker must not pick it up
            QDir(venvDir(m_projectDir)).removeRecursively();
    }
}

QString PythonEnv::venvDir(const QString &projectDir)
{
    return projectDir + QStringLiteral("/.toolstudio/venv");
}

QStringList PythonEnv::requirementsOf(const PythonToolFile &file)
{
    const auto it = file.frontmatter.find("requirements");
    if (it == file.frontmatter.end() || !it->is_string())
        return {};
    QStringList requirements;
    for (const QString &part : QString::fromStdString(it->get<std::string>()).split(QLatin1Char(',')))
        if (!part.trimmed().isEmpty())
            requirements << part.trimmed();
    return requirements;
}

bool PythonEnv::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void PythonEnv::install(const QStringList &requirements)
{
    if (isRunning()) {
        Q_EMIT finished(false, QStringLiteral("an install is already running"));
        return;
    }
    if (requirements.isEmpty()) {
        Q_EMIT finished(false, QStringLiteral("nothing to install: the file has no requirements: line"));
        return;
    }
    m_requirements = requirements;
    m_cancelled = false;
    const QString venv = venvDir(m_projectDir);
    if (QFileInfo(venv + QStringLiteral("/bin/python3")).isExecutable()) {
        m_createdVenv = false;
        m_stepName = QStringLiteral("pip install");
        startStep(venv + QStringLiteral("/bin/python3"),
                  QStringList{QStringLiteral("-m"), QStringLiteral("pip"), QStringLiteral("install")} + requirements);
        return;
    }
    const QString python = systemPython();
    if (python.isEmpty()) {
        Q_EMIT finished(false, QStringLiteral("python3 is not installed: no virtual environment can be created"));
        return;
    }
    m_createdVenv = true;
    m_stepName = QStringLiteral("creating the virtual environment");
    QDir().mkpath(m_projectDir + QStringLiteral("/.toolstudio"));
    Q_EMIT output(QStringLiteral("$ %1 -m venv --system-site-packages %2\n").arg(python, venv));
    startStep(python, {QStringLiteral("-m"), QStringLiteral("venv"), QStringLiteral("--system-site-packages"), venv});
}

void PythonEnv::startStep(const QString &program, const QStringList &arguments)
{
    if (m_process)
        m_process->deleteLater();
    m_process = new QProcess(this);
    m_stepOutput.clear();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setWorkingDirectory(m_projectDir);
    QProcess *process = m_process;
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
        const QString text = QString::fromLocal8Bit(process->readAllStandardOutput());
        m_stepOutput += text;
        Q_EMIT output(text);
    });
    connect(process, &QProcess::finished, this, &PythonEnv::stepFinished);
    connect(process, &QProcess::errorOccurred, this, [this, process, program](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(false, QStringLiteral("cannot start %1: %2").arg(program, process->errorString()));
    });
    if (m_stepName == QLatin1String("pip install"))
        Q_EMIT output(QStringLiteral("$ %1 %2\n").arg(program, arguments.join(QLatin1Char(' '))));
    process->start(program, arguments);
}

void PythonEnv::stepFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_cancelled) {
        finish(false, QStringLiteral("the install was cancelled"));
        return;
    }
    if (status != QProcess::NormalExit || exitCode != 0) {
        const QString how = status == QProcess::NormalExit ? QStringLiteral("exit status %1").arg(exitCode)
                                                           : QStringLiteral("crashed");
        finish(false, QStringLiteral("%1 failed (%2):\n%3").arg(m_stepName, how, lastLines(m_stepOutput)));
        return;
    }
    if (m_stepName != QLatin1String("pip install")) {
        m_stepName = QStringLiteral("pip install");
        startStep(venvDir(m_projectDir) + QStringLiteral("/bin/python3"),
                  QStringList{QStringLiteral("-m"), QStringLiteral("pip"), QStringLiteral("install")} + m_requirements);
        return;
    }
    // The running worker still has the old interpreter: the next call starts it anew.
    ToolWorker::forProject(m_projectDir)->stop();
    finish(true, QString());
}

void PythonEnv::cancel()
{
    if (!isRunning())
        return;
    m_cancelled = true;
    m_process->kill();
}

void PythonEnv::finish(bool ok, const QString &error)
{
    if (!ok && m_createdVenv)
        QDir(venvDir(m_projectDir)).removeRecursively();
    m_createdVenv = false;
    Q_EMIT finished(ok, error);
}
