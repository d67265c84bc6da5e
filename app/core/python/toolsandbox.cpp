// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/toolsandbox.h"

#include "jsoninput.h"
#include "pidscgroup.h"
#include "sandboxpolicy.h"
#include "sandboxprocess.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSaveFile>
#include <QSet>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace {

constexpr int MaxCopiedFiles = 20000;
constexpr qint64 MaxCopiedBytes = 512ll * 1024 * 1024;

/// Entries of a project that the copy leaves out: `.toolstudio/` but its venv (the
/// journal, the valves), version control.
bool skipped(const QString &relative)
{
    const QString top = relative.section(QLatin1Char('/'), 0, 0);
    if (top == QLatin1String(".git"))
        return true;
    if (top != QLatin1String(".toolstudio") || relative == top)
        return false;
    return relative.section(QLatin1Char('/'), 1, 1) != QLatin1String("venv");
}

/// The target of symlink `path` as written (never resolved), or empty.
QByteArray linkTarget(const QString &path)
{
    char buffer[4096];
    const ssize_t size = ::readlink(QFile::encodeName(path).constData(), buffer, sizeof buffer);
    return size > 0 ? QByteArray(buffer, size) : QByteArray();
}

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

/// What `path` is, never following a link: 0 when it does not exist.
mode_t kindOf(const QString &path, struct stat *info)
{
    *info = {};
    return ::lstat(encoded(path).constData(), info) == 0 ? (info->st_mode & S_IFMT) : 0;
}

/// Every directory from the copy `root` down to the parent of `relative` is a real
/// directory of this user's that no one else can change, so nothing on the way can be
/// a link — one the project had there at an earlier sync, or one the sandbox user put
/// in a venv handed to it — or become one while the sync writes by path. `held`: the
/// directories found so, for the rest of this sync.
bool parentHeld(const QString &root, const QString &relative, QSet<QString> *held)
{
    QString path = root;
    const QStringList parts = relative.split(QLatin1Char('/'));
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        path += QLatin1Char('/') + parts[i];
        if (held->contains(path))
            continue;
        struct stat info = {};
        if (kindOf(path, &info) != S_IFDIR || info.st_uid != ::geteuid() || (info.st_mode & 022) != 0)
            return false;
        held->insert(path);
    }
    return true;
}

/// Makes room at `target` for an entry of kind `kind`: what is there of another kind
/// goes (a directory with all it holds, a link never followed). False when it stays.
bool clearFor(const QString &target, mode_t kind, QSet<QString> *held)
{
    struct stat info = {};
    const mode_t have = kindOf(target, &info);
    if (have == 0 || have == kind)
        return true;
    if (have == S_IFDIR) {
        // Its directories are not held any more.
        held->removeIf(
            [&target](const QString &dir) { return dir == target || dir.startsWith(target + QLatin1Char('/')); });
        return ProjectCopyPlace::remove(target);
    }
    return ::unlink(encoded(target).constData()) == 0;
}

/// The pids cgroups of this studio process's launches not yet released: at exit the
/// rest are killed and removed — a launch whose QProcess is never destroyed (an MCP
/// session torn down after the event loop ended, the worker at exit) would otherwise
/// leave what it started running (attack35: a server's double-forked daemon).
class LiveCgroups
{
public:
    static LiveCgroups &instance()
    {
        static LiveCgroups live;
        return live;
    }
    void add(const std::string &path)
    {
        const std::lock_guard lock(m_mutex);
        m_paths.insert(path);
    }
    /// Kills what is left in `path` and removes it; false while a task is not yet reaped.
    bool release(const std::string &path)
    {
        const std::lock_guard lock(m_mutex);
        if (!m_paths.count(path))
            return true;
        if (!PidsCgroup::killAll(path) || !PidsCgroup::remove(path))
            return false;
        m_paths.erase(path);
        return true;
    }
    ~LiveCgroups()
    {
        for (const std::string &path : m_paths)
            if (PidsCgroup::killAll(path))
                PidsCgroup::remove(path);
    }

private:
    LiveCgroups() = default;
    std::mutex m_mutex;
    std::set<std::string> m_paths;
};

/// A pids cgroup of the launch's own with `maxTasks` as pids.max, or "" where the
/// machine offers none (or TOOLSTUDIO_CGROUPS=0 plays a chroot's conditions).
std::string launchCgroup(std::uint64_t maxTasks)
{
    if (qEnvironmentVariable("TOOLSTUDIO_CGROUPS") == QLatin1String("0"))
        return {};
    static const PidsCgroup::Probe probe = PidsCgroup::probe();
    std::string ignored;
    const std::string path = probe.parent.empty() ? std::string() : PidsCgroup::create(probe, maxTasks, &ignored);
    if (!path.empty())
        LiveCgroups::instance().add(path);
    return path;
}

} // namespace

std::shared_ptr<ToolSandbox> ToolSandbox::forProject(const QString &projectDir, QString *error)
{
    static QMutex mutex;
    static QHash<QString, std::shared_ptr<ToolSandbox>> folders;
    const QMutexLocker lock(&mutex);
    std::shared_ptr<ToolSandbox> &sandbox = folders[projectDir];
    if (!sandbox) {
        auto made = std::make_shared<ToolSandbox>();
        if (!made->prepare(projectDir, error)) {
            folders.remove(projectDir);
            return nullptr;
        }
        sandbox = made;
    }
    return sandbox;
}

bool ToolSandbox::projectAllowsNetwork(const QString &projectDir)
{
    QFile file(projectDir + QStringLiteral("/toolstudio.json"));
    if (!file.exists())
        return true; // no manifest (a folder of tools only): the default
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray data = file.readAll();
    const nlohmann::json manifest
        = JsonInput::parse(std::string_view(data.constData(), std::size_t(data.size())), "toolstudio.json");
    if (!manifest.is_object())
        return false; // unreadable: Project::load refuses it; nothing gets the network meanwhile
    const auto sandbox = manifest.find("sandbox");
    if (sandbox == manifest.end())
        return true;
    if (!sandbox->is_object())
        return false;
    const auto network = sandbox->find("tools_network");
    return network == sandbox->end() || (network->is_boolean() && network->get<bool>());
}

bool ToolSandbox::studioIsRoot()
{
    return ::geteuid() == 0;
}

ToolSandbox::~ToolSandbox()
{
    if (!m_folder.isEmpty())
        QDir(m_folder).removeRecursively();
    if (m_lockFd >= 0)
        ::close(m_lockFd);
}

bool ToolSandbox::prepare(const QString &projectDir, QString *error)
{
    const QMutexLocker lock(&m_mutex);
    if (!m_folder.isEmpty() && projectDir == m_projectDir) {
        syncProjectLocked(); // again (a restarted worker): the same folder and scratch dir
        return true;
    }
    m_projectDir = projectDir;
    if (m_lockFd >= 0)
        ::close(m_lockFd); // a folder of another project before: a later sweep removes it
    m_lockFd = -1;
    QByteArray pattern
        = encoded(QDir::tempPath() + QLatin1Char('/') + QLatin1String(FolderPrefix) + QStringLiteral("XXXXXX"));
    if (!::mkdtemp(pattern.data())) {
        *error = QStringLiteral("cannot create a folder for the tool sandbox in %1: %2")
                     .arg(QDir::tempPath(), QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_folder = QFile::decodeName(pattern);
    // 0711: the sandbox user (root studio) passes through to scratch/ and project/ only.
    ::chmod(pattern.constData(), 0711);
    // The lock appears under its name already held (as a run folder's, RunFolder), so a
    // studio sweeping stale folders never finds this one unlocked.
    const QByteArray temporary = pattern + "/.lock-" + QByteArray::number(::getpid());
    m_lockFd = ::open(temporary.constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (m_lockFd < 0 || ::flock(m_lockFd, LOCK_EX) != 0
        || ::rename(temporary.constData(), (pattern + "/.lock").constData()) != 0) {
        *error = QStringLiteral("cannot lock %1: %2").arg(m_folder, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    const QString scratch = scratchDir();
    if (::mkdir(encoded(scratch).constData(), 0700) != 0) {
        *error = QStringLiteral("cannot create %1: %2").arg(scratch, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (!studioIsRoot()) {
        m_projectPath = projectDir;
        return true;
    }
    // The copy kept from the last start when this process can have it (only the
    // changes are copied then), else a private one in the folder.
    QString why;
    m_projectPath = m_copyPlace.claim(projectDir, &why);
    if (m_projectPath.isEmpty()) {
        m_projectPath = m_folder + QStringLiteral("/project");
        ::mkdir(encoded(m_projectPath).constData(), 0755);
    }
    syncProjectLocked();
    return true;
}

QString ToolSandbox::placeFile(const QString &name, const QByteArray &content, QString *error)
{
    const QMutexLocker lock(&m_mutex);
    const QString dir = m_folder + QStringLiteral("/bin");
    ::mkdir(encoded(dir).constData(), 0755);
    // A name with folders ("toolstudio_worker/serve.py"): each made like bin/ itself.
    QStringList folders = name.split(QLatin1Char('/'));
    folders.removeLast(); // the file itself
    QString folder = dir;
    for (const QString &part : folders)
        ::mkdir(encoded(folder += QLatin1Char('/') + part).constData(), 0755);
    const QString path = dir + QLatin1Char('/') + name;
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(content) != content.size() || !out.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
        return {};
    }
    ::chmod(encoded(path).constData(), 0644);
    return path;
}

void ToolSandbox::syncProject()
{
    const QMutexLocker lock(&m_mutex);
    syncProjectLocked();
}

void ToolSandbox::syncProjectLocked()
{
    if (!studioIsRoot() || m_folder.isEmpty())
        return;
    const QDir source(m_projectDir);
    QSet<QString> wanted;
    int files = 0;
    qint64 bytes = 0;
    // Symlinks are never followed: a link is copied as a link (a venv's bin/python3), so
    // a link in the project cannot carry a file root can read (a home's keys) into the
    // sandbox user's reach — following it is up to that user (and Landlock).
    // The copy is written by path, so only beneath directories of root's that no one
    // else can change (parentHeld): an entry the project changed the kind of since the
    // copy was made (a link to /etc, now a directory) is replaced, never written
    // through; a venv handed to the sandbox user is left as it is until the next claim.
    QSet<QString> held;
    QDirIterator it(m_projectDir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = source.relativeFilePath(path);
        if (skipped(relative))
            continue;
        const QFileInfo info = it.fileInfo();
        const QString target = m_projectPath + QLatin1Char('/') + relative;
        wanted.insert(relative);
        if (!parentHeld(m_projectPath, relative, &held))
            continue;
        if (info.isSymLink()) {
            const QByteArray link = linkTarget(path);
            if (!link.isEmpty() && linkTarget(target) != link && clearFor(target, S_IFLNK, &held)) {
                ::unlink(encoded(target).constData());
                ::symlink(link.constData(), encoded(target).constData());
            }
            continue;
        }
        if (info.isDir()) {
            if (clearFor(target, S_IFDIR, &held))
                ::mkdir(encoded(target).constData(), 0755);
            continue;
        }
        if (!info.isFile() || ++files > MaxCopiedFiles || (bytes += info.size()) > MaxCopiedBytes) {
            wanted.remove(relative); // not copied: not an older copy of it either
            continue;
        }
        if (!clearFor(target, S_IFREG, &held))
            continue;
        const QFileInfo copy(target);
        if (copy.exists() && copy.size() == info.size() && copy.lastModified() == info.lastModified())
            continue;
        // A plain copy: QFile::copy syncs every file to disk, which made the first copy
        // of a project with node_modules/ (4 510 files) take ~50 s.
        QFile::remove(target);
        std::error_code failed;
        if (!std::filesystem::copy_file(encoded(path).toStdString(), encoded(target).toStdString(), failed)) {
            QFile::remove(target); // a part of it (the temp folder full): none
            continue;
        }
        ::chmod(encoded(target).constData(), info.isExecutable() ? 0755 : 0644);
        QFile out(target);
        if (out.open(QIODevice::ReadWrite))
            out.setFileTime(info.lastModified(), QFileDevice::FileModificationTime);
    }
    // Files removed from the project go from the copy too (deepest first).
    QStringList stale;
    QDirIterator copied(m_projectPath, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                        QDirIterator::Subdirectories);
    const QDir copyRoot(m_projectPath);
    while (copied.hasNext()) {
        const QString path = copied.next();
        const QString relative = copyRoot.relativeFilePath(path);
        if (!wanted.contains(relative) && parentHeld(m_projectPath, relative, &held))
            stale.prepend(path);
    }
    for (const QString &path : std::as_const(stale))
        ProjectCopyPlace::remove(path); // a link itself, never what it points to
}

bool ToolSandbox::configure(QProcess *process, const Launch &launch, QString *error)
{
    const QString launcher = SandboxProcess::defaultLauncherPath();
    if (launcher.isEmpty()) {
        *error = QStringLiteral("toolstudio-sandbox was not found (beside the studio, in TOOLSTUDIO_SANDBOX or on "
                                "PATH): tools run only confined; reinstall Tool Studio");
        return false;
    }
    if (launch.argv.isEmpty()) {
        *error = QStringLiteral("no program to run");
        return false;
    }
    const QMutexLocker lock(&m_mutex);
    syncProjectLocked(); // as root: the copy follows the project
    SandboxPolicy policy;
    policy.profile = SandboxPolicy::ProfileToolWorker;
    policy.network = launch.network && projectAllowsNetwork(m_projectDir);
    policy.workDir = encoded(launch.workDir.isEmpty() ? scratchDir() : launch.workDir).toStdString();
    QString program = launch.argv.first();
    if (program.contains(QLatin1Char('/')) && QFileInfo(program).isRelative())
        program = QDir::cleanPath(QDir(m_projectPath).absoluteFilePath(program));
    else if (program.startsWith(m_projectDir + QLatin1Char('/')))
        program = m_projectPath + program.mid(m_projectDir.size()); // the venv's python, in the copy as root
    policy.argv.push_back(encoded(program).toStdString());
    for (qsizetype i = 1; i < launch.argv.size(); ++i)
        policy.argv.push_back(encoded(launch.argv[i]).toStdString());
    policy.parentPid = ::getpid();
    // A kernel without Landlock: the uid, the environment and the limits still hold
    // (docs/sandbox.md "Trusted code", residuals).
    policy.seccompOnly = true;
    if (launch.readProject)
        policy.readPaths.push_back(encoded(m_projectPath).toStdString());
    if (!launch.writePaths.isEmpty() && studioIsRoot()) {
        *error = QStringLiteral("folders granted read_write need a studio that does not run as root (as root, "
                                "confined code reads a copy of the project)");
        return false;
    }
    for (const QString &path : launch.writePaths)
        policy.writePaths.push_back(encoded(path).toStdString());
    if (QFileInfo::exists(m_folder + QStringLiteral("/bin")))
        policy.readPaths.push_back(encoded(m_folder + QStringLiteral("/bin")).toStdString());
    for (const QString &path : launch.readPaths)
        policy.readPaths.push_back(encoded(path).toStdString());
    const QString venv = m_projectPath + QStringLiteral("/.toolstudio/venv");
    if (QFileInfo(venv).isDir())
        policy.readPaths.push_back(encoded(venv).toStdString());
    if (!studioIsRoot() && launch.workDir.isEmpty()) {
        // The tools' own place to keep files between calls (not the journal or the venv).
        const QString data = m_projectDir + QStringLiteral("/.toolstudio/tool-data");
        if (QDir().mkpath(data))
            policy.writePaths.push_back(encoded(data).toStdString());
    }
    if (!launch.cwd.isEmpty())
        policy.cwd = encoded(launch.cwd.startsWith(m_projectDir + QLatin1Char('/'))
                                 ? m_projectPath + launch.cwd.mid(m_projectDir.size())
                                 : launch.cwd)
                         .toStdString();
    else if (launch.cwdInProject)
        policy.cwd = encoded(m_projectPath).toStdString();
    policy.keepFds = launch.keepFds;
    // The launch's tasks count against a budget of its own: RLIMIT_NPROC alone counts
    // every task of the sandbox user, so a run's fork bomb (as root, runs in pids cgroups
    // are nobody too), another launch or, for an ordinary user, the desktop's own
    // processes started after this one could leave the worker unable to start a thread.
    // A pids cgroup where the machine has one; else, as an ordinary user, a user
    // namespace (the same uid: the worker and command attempts share the scratch dir);
    // as root without cgroups the shared RLIMIT_NPROC on nobody (a run uid each would
    // part the scratch dir) — docs/sandbox.md "Trusted code".
    const std::string cgroup = launchCgroup(policy.limits.extraProcesses + 1);
    policy.pidsCgroup = cgroup;
    policy.isolateProcesses = cgroup.empty() && !studioIsRoot();
    policy.limits.cpuSeconds = launch.cpuSeconds;
    policy.limits.dataBytes = launch.memoryBytes;
    policy.limits.openFiles = 1024;

    // The launcher's own environment: PATH and the variables it passes on by name.
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), QString::fromStdString(policy.path));
    for (auto it = launch.env.cbegin(); it != launch.env.cend(); ++it) {
        environment.insert(it.key(), it.value());
        policy.passEnv.push_back(it.key().toStdString());
    }

    QSaveFile file(m_folder + QStringLiteral("/policy-%1.json").arg(++m_launches));
    const QByteArray json = QByteArray::fromStdString(policy.toJson().dump());
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        *error = QStringLiteral("cannot write the tool sandbox's policy: %1").arg(file.errorString());
        if (!cgroup.empty())
            LiveCgroups::instance().release(cgroup);
        return false;
    }
    process->setProgram(launcher);
    process->setArguments({QStringLiteral("--policy"), file.fileName()});
    process->setProcessEnvironment(environment);
    process->setWorkingDirectory(m_folder);
    QObject::connect(process, &QObject::destroyed, [path = file.fileName()] { QFile::remove(path); });
    if (!cgroup.empty()) {
        // Once the process is reaped, what it left running (a server's or a command's
        // children, a daemon out of its session) goes with its cgroup — when it ends, or
        // when it is destroyed: an MCP transport torn down after the event loop ended
        // kills and waits for its server but its deleteLater never runs (attack35).
        // Else again when destroyed (a zombie not yet reaped), or at exit.
        const auto release = [cgroup] { LiveCgroups::instance().release(cgroup); };
        QObject::connect(process, &QProcess::finished, release);
        QObject::connect(process, &QObject::destroyed, release);
    }
    return true;
}
