// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/pythonenv.h"

#include "python/pythontoolfile.h"
#include "python/toolsandbox.h"
#include "python/toolworker.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
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

/// The studio's variables an install needs to reach its index, and nothing else of its
/// environment: pip's own configuration (PIP_INDEX_URL, PIP_NO_INDEX, PIP_FIND_LINKS,
/// …), the proxies and the certificate bundles.
QMap<QString, QString> pipEnvironment()
{
    static const QStringList exact{QStringLiteral("http_proxy"),         QStringLiteral("https_proxy"),
                                   QStringLiteral("no_proxy"),           QStringLiteral("all_proxy"),
                                   QStringLiteral("ssl_cert_file"),      QStringLiteral("ssl_cert_dir"),
                                   QStringLiteral("requests_ca_bundle"), QStringLiteral("curl_ca_bundle")};
    QMap<QString, QString> env;
    const QProcessEnvironment studio = QProcessEnvironment::systemEnvironment();
    for (const QString &name : studio.keys())
        if (name.startsWith(QLatin1String("PIP_")) || exact.contains(name.toLower()))
            env.insert(name, studio.value(name));
    return env;
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
    m_cancelled = false;
    QString error;
    m_sandbox = ToolSandbox::forProject(m_projectDir, &error);
    if (!m_sandbox) {
        Q_EMIT finished(false, error);
        return;
    }
    m_requirements = stagedRequirements(requirements, &error);
    if (!error.isEmpty()) {
        Q_EMIT finished(false, error);
        return;
    }
    const QString venv = venvDir(m_projectDir);
    if (QFileInfo(venv + QStringLiteral("/bin/python3")).isExecutable()) {
        m_createdVenv = false;
        m_stepName = QStringLiteral("pip install");
        startStep(confinedVenv() + QStringLiteral("/bin/python3"),
                  QStringList{QStringLiteral("-m"), QStringLiteral("pip"), QStringLiteral("install")} + m_requirements);
        return;
    }
    const QString python = systemPython();
    if (python.isEmpty()) {
        Q_EMIT finished(false, QStringLiteral("python3 is not installed: no virtual environment can be created"));
        return;
    }
    m_createdVenv = true;
    m_stepName = QStringLiteral("creating the virtual environment");
    // The confined step writes only its work dir, the venv: it exists first.
    QDir().mkpath(venv);
    const QString confined = confinedVenv();
    QDir().mkpath(confined);
    Q_EMIT output(QStringLiteral("$ %1 -m venv --system-site-packages %2\n").arg(python, confined));
    startStep(python,
              {QStringLiteral("-m"), QStringLiteral("venv"), QStringLiteral("--system-site-packages"), confined});
}

QStringList PythonEnv::stagedRequirements(const QStringList &requirements, QString *error)
{
    QStringList staged;
    m_readPaths.clear();
    for (const QString &requirement : requirements) {
        const QFileInfo local(requirement);
        if (!local.isAbsolute() || !local.exists()) {
            staged << requirement; // a specifier, or a path relative to the project (in its copy as root)
            continue;
        }
        if (!ToolSandbox::studioIsRoot() || !local.isFile()) {
            m_readPaths << local.absoluteFilePath(); // Landlock grant; the user reads its own files
            staged << requirement;
            continue;
        }
        // As root the sandbox user may not reach the file (root's home, a 0700 temp dir):
        // a copy in the tool folder it reads, under the same name (pip parses a wheel's).
        QFile file(requirement);
        const QString copy = file.open(QIODevice::ReadOnly)
            ? m_sandbox->placeFile(local.fileName(), file.readAll(), error)
            : QString();
        if (copy.isEmpty()) {
            if (error->isEmpty())
                *error = QStringLiteral("cannot read %1: %2").arg(requirement, file.errorString());
            return {};
        }
        staged << copy;
    }
    return staged;
}

void PythonEnv::startStep(const QString &program, const QStringList &arguments)
{
    if (m_process)
        m_process->deleteLater();
    m_process = new QProcess(this);
    m_stepOutput.clear();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
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
    // Confined like the tool worker (docs/sandbox.md "Trusted code"): the system and the
    // project read-only, write only the venv (its work dir: HOME, TMPDIR and so pip's
    // cache are in it), the network unless the project turns it off, no variable of the
    // studio but pip's, the proxies' and the certificates', never root.
    ToolSandbox::Launch launch;
    launch.argv = QStringList{program} + arguments;
    launch.env = pipEnvironment();
    launch.workDir = confinedVenv();
    launch.readPaths = m_readPaths;
    QString error;
    if (!m_sandbox->configure(process, launch, &error)) {
        finish(false, error);
        return;
    }
    process->start();
}

QString PythonEnv::confinedVenv() const
{
    return m_sandbox->projectPath() + QStringLiteral("/.toolstudio/venv");
}

bool PythonEnv::keepConfinedVenv()
{
    const QString built = confinedVenv();
    const QString venv = venvDir(m_projectDir);
    if (built == venv)
        return true;
    // As root the venv was built in the sandbox user's copy of the project: it goes into
    // the project (symlinks as links, times kept so the next sync leaves the copy alone).
    QProcess copy;
    copy.start(QStringLiteral("cp"),
               {QStringLiteral("-a"), QStringLiteral("--no-preserve=ownership"), built + QStringLiteral("/."),
                venv + QLatin1Char('/')});
    return copy.waitForFinished(120000) && copy.exitStatus() == QProcess::NormalExit && copy.exitCode() == 0;
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
    if (!keepConfinedVenv()) {
        finish(false, QStringLiteral("%1: cannot copy the venv into %2").arg(m_stepName, venvDir(m_projectDir)));
        return;
    }
    if (m_stepName != QLatin1String("pip install")) {
        m_stepName = QStringLiteral("pip install");
        startStep(confinedVenv() + QStringLiteral("/bin/python3"),
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
