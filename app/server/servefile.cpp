// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servefile.h"

#include "jsoninput.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

QString ServeFile::pathFor(const QString &projectDir)
{
    return QDir(projectDir).filePath(QStringLiteral(".toolstudio/serve.json"));
}

bool ServeFile::write(const QString &projectDir, QString *error) const
{
    const QString path = pathFor(projectDir);
    QDir().mkpath(QFileInfo(path).absolutePath());
    const nlohmann::json json = {{"url", url}, {"host", host}, {"port", port}, {"token", token}, {"pid", pid}};
    const std::string text = json.dump(2) + "\n";
    // mkstemp creates the file with mode 0600 before the token is in it; rename makes
    // it appear whole.
    QByteArray temp = QFile::encodeName(path) + ".XXXXXX";
    const int fd = ::mkstemp(temp.data());
    auto fail = [&](const char *what) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2 failed: %3")
                         .arg(path, QLatin1String(what), QString::fromUtf8(std::strerror(errno)));
        return false;
    };
    if (fd < 0)
        return fail("mkstemp");
    const bool written = ::fchmod(fd, 0600) == 0
        && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
    const int savedErrno = errno;
    ::close(fd);
    if (!written || ::rename(temp.constData(), QFile::encodeName(path).constData()) != 0) {
        errno = written ? errno : savedErrno;
        ::unlink(temp.constData());
        return fail(written ? "rename" : "write");
    }
    return true;
}

namespace {

/// The file's text when this user's `serve` could have written it: a regular file (not a
/// symlink) owned by this user and private to it, as write() makes it. A file that came
/// with the project (a clone, an archive: mode 0644) or was planted by another user is
/// not a server.
std::optional<QByteArray> ownPrivateFile(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return std::nullopt;
    struct stat info = {};
    std::optional<QByteArray> text;
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == ::geteuid() && (info.st_mode & 077) == 0) {
        QByteArray bytes(64 * 1024, Qt::Uninitialized);
        const ssize_t n = ::read(fd, bytes.data(), std::size_t(bytes.size()));
        if (n >= 0)
            text = bytes.left(n);
    }
    ::close(fd);
    return text;
}

/// True when `pid` is a running process of this user started from this same program
/// (a pid that is gone, another user's, or another program is no server of ours).
bool isOurServer(qint64 pid)
{
    struct stat process = {};
    struct stat program = {};
    struct stat ours = {};
    const QByteArray proc = "/proc/" + QByteArray::number(pid);
    return ::stat(proc.constData(), &process) == 0 && process.st_uid == ::geteuid()
        && ::stat((proc + "/exe").constData(), &program) == 0 && ::stat("/proc/self/exe", &ours) == 0
        && program.st_dev == ours.st_dev && program.st_ino == ours.st_ino;
}

/// True when `host` is this machine: loopback, a wildcard, or an address it can bind.
bool isThisMachine(const std::string &host)
{
    if (host == "localhost" || host == "0.0.0.0" || host == "::")
        return true;
    addrinfo hints = {};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
    addrinfo *found = nullptr;
    if (::getaddrinfo(host.c_str(), "0", &hints, &found) != 0)
        return false;
    const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const bool local = fd >= 0 && ::bind(fd, found->ai_addr, found->ai_addrlen) == 0;
    if (fd >= 0)
        ::close(fd);
    ::freeaddrinfo(found);
    return local;
}

} // namespace

std::optional<ServeFile> ServeFile::readLive(const QString &projectDir)
{
    const std::optional<QByteArray> own = ownPrivateFile(pathFor(projectDir));
    if (!own)
        return std::nullopt;
    const QByteArray &text = *own;
    const nlohmann::json json = JsonInput::read<nlohmann::json>(std::string_view(text.constData(), text.size()));
    if (!json.is_object())
        return std::nullopt;
    // Written by us, but read as outside JSON: a member of another type is "no server".
    auto string = [&json](const char *key) {
        const auto found = json.find(key);
        return found != json.end() && found->is_string() ? found->get<std::string>() : std::string();
    };
    auto number = [&json](const char *key) {
        const auto found = json.find(key);
        return found != json.end() && found->is_number_integer() ? found->get<qint64>() : qint64(0);
    };
    ServeFile serve;
    serve.url = string("url");
    serve.host = string("host");
    serve.port = int(std::clamp<qint64>(number("port"), 0, 65535));
    serve.token = string("token");
    serve.pid = number("pid");
    if (serve.host.empty() || serve.port <= 0 || serve.pid <= 0)
        return std::nullopt;
    // A server killed without its clean exit leaves the file: its pid is gone (or
    // another program's by now). The answer and the token go to this machine only.
    if (!isOurServer(serve.pid) || !isThisMachine(serve.host))
        return std::nullopt;
    return serve;
}

void ServeFile::removeOwn(const QString &projectDir)
{
    QFile file(pathFor(projectDir));
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QByteArray text = file.read(64 * 1024);
    file.close();
    const nlohmann::json json = JsonInput::read<nlohmann::json>(std::string_view(text.constData(), text.size()));
    const auto pid = json.is_object() ? json.find("pid") : json.end();
    if (json.is_object() && pid != json.end() && pid->is_number_integer() && pid->get<qint64>() == qint64(::getpid()))
        QFile::remove(file.fileName());
}
