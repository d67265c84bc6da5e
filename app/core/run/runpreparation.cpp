// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runpreparation.h"

#include "exchange/typings.h"
#include "project/project.h"
#include "run/runfiles.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

namespace {

constexpr std::size_t FrameSlackBytes = 64 * 1024; // envelope around a call's args

bool copyTree(const QString &from, const QString &to, QString *error)
{
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info = it.fileInfo();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(path);
        if (info.isSymLink())
            continue; // never follow links out of the project
        if (info.isDir()) {
            if (!QDir().mkpath(target)) {
                *error = QObject::tr("cannot create %1").arg(target);
                return false;
            }
        } else if (!QFile::copy(path, target)) {
            *error = QObject::tr("cannot copy %1 into the run's work dir").arg(path);
            return false;
        }
    }
    return true;
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data) != data.size()) {
        *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

/// Makes `dir` and everything below it readable (and dirs traversable) by every user.
void makeWorldReadable(const QString &dir)
{
    const auto dirPerms = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
        | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther;
    const auto filePerms
        = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
    QFile::setPermissions(dir, dirPerms);
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile::setPermissions(path, it.fileInfo().isDir() ? dirPerms : filePerms);
    }
}

} // namespace

RunPreparation::RunPreparation(const Project &project, const QString &script, const QString &runDir)
    : m_project(project)
    , m_script(script)
    , m_runDir(runDir)
    , m_bound(project.boundTools(script))
{}

RunPreparation::~RunPreparation()
{
    if (m_workFd >= 0)
        ::close(m_workFd);
}

QString RunPreparation::scriptCopy() const
{
    return m_runDir + QStringLiteral("/runtime/script/") + QFileInfo(m_script).fileName();
}

QString RunPreparation::makeRunId()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss")) + QLatin1Char('-')
        + QString::number(QRandomGenerator::global()->generate() & 0xffff, 16).rightJustified(4, QLatin1Char('0'));
}

std::size_t RunPreparation::maxLineBytes(const Project &project)
{
    // A model frame has its own cap (limits.model_request_bytes): the line bound takes
    // the larger when the project declares models; the engine checks each kind's own.
    return (project.models.empty() ? project.limits.requestBytes
                                   : std::max(project.limits.requestBytes, project.limits.modelRequestBytes))
        + FrameSlackBytes;
}

bool RunPreparation::prepare(int folderFd, bool handOver, const QList<QPair<QString, QByteArray>> &inputFiles,
                             QString *error)
{
    const QString workDir = this->workDir();
    const QString runtimeDir = m_runDir + QStringLiteral("/runtime");
    const QString pythonDir = runtimeDir + QStringLiteral("/python");
    const QString nodeDir = runtimeDir + QStringLiteral("/node");
    if (!QDir().mkpath(workDir) || !QDir().mkpath(pythonDir + QStringLiteral("/toolstudio"))
        || !QDir().mkpath(pythonDir + QStringLiteral("/inngest_tools"))
        || !QDir().mkpath(nodeDir + QStringLiteral("/toolstudio"))
        || !QDir().mkpath(nodeDir + QStringLiteral("/inngest_tools"))
        || !QDir().mkpath(runtimeDir + QStringLiteral("/bash"))) {
        *error = QCoreApplication::translate("RunController", "cannot create the run folder %1").arg(m_runDir);
        return false;
    }
    // Private to the studio's user and the sandbox user (the launcher hands it over as root).
    QFile::setPermissions(workDir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const QString filesDir = m_project.dir + QStringLiteral("/files");
    if (QFileInfo(filesDir).isDir() && !copyTree(filesDir, workDir, error))
        return false;
    for (const auto &[name, bytes] : inputFiles) {
        const QString path = workDir + QLatin1Char('/') + name;
        if (!QDir().mkpath(QFileInfo(path).path()) || !writeFile(path, bytes, error))
            return false;
    }
    m_workFd = ::openat(folderFd, "work", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (m_workFd < 0) {
        *error = QCoreApplication::translate("RunController", "cannot open the work dir %1").arg(workDir);
        return false;
    }
    if (handOver)
        RunFiles::giveToOwner(m_workFd);
    if (!writeRuntime(error))
        return false;
    // Readable by the sandbox user; others cannot reach it: the run folder is 0700, or
    // 0710 with the sandbox user's group as root (LaunchWorkDir::handOver).
    makeWorldReadable(runtimeDir);
    return true;
}

bool RunPreparation::writeRuntime(QString *error) const
{
    const QString runtimeDir = m_runDir + QStringLiteral("/runtime");
    const QString pythonDir = runtimeDir + QStringLiteral("/python");
    const QString nodeDir = runtimeDir + QStringLiteral("/node");
    // Every language's shim: runtime/{python,node,bash}/… from the :/runtime resources.
    QDirIterator shim(QStringLiteral(":/runtime"), QDir::Files, QDirIterator::Subdirectories);
    while (shim.hasNext()) {
        const QString resource = shim.next();
        QFile in(resource);
        in.open(QIODevice::ReadOnly);
        if (!writeFile(runtimeDir + resource.mid(int(qstrlen(":/runtime"))), in.readAll(), error))
            return false;
    }
    nlohmann::json declared = nlohmann::json::object();
    for (const QString &name : m_bound) {
        nlohmann::json params = nlohmann::json::array();
        if (const Tool *tool = m_project.tool(name)) {
            for (const QString &param : tool->parameterOrder)
                params.push_back(param.toStdString());
        }
        declared[name.toStdString()] = params;
    }
    if (!writeFile(pythonDir + QStringLiteral("/toolstudio/_tools.json"), QByteArray::fromStdString(declared.dump()),
                   error)
        || !writeFile(nodeDir + QStringLiteral("/toolstudio/_tools.json"), QByteArray::fromStdString(declared.dump()),
                      error))
        return false;
    // Typings of the bound tools beside the shims, for editors (docs/python-tools.md "Typings").
    const std::vector<Tool> boundList = Typings::toolsOf(m_project, m_bound);
    if (!writeFile(pythonDir + QStringLiteral("/toolstudio/__init__.pyi"),
                   Typings::python(boundList, m_project.name).toUtf8(), error)
        || !writeFile(nodeDir + QStringLiteral("/toolstudio/index.d.ts"),
                      Typings::typescript(boundList, m_project.name).toUtf8(), error))
        return false;
    QDir().mkpath(runtimeDir + QStringLiteral("/script"));
    if (m_scriptBytes)
        return writeFile(scriptCopy(), *m_scriptBytes, error);
    if (!QFile::copy(m_script, scriptCopy())) {
        *error = QCoreApplication::translate("RunController", "cannot copy %1 into the run folder").arg(m_script);
        return false;
    }
    return true;
}
