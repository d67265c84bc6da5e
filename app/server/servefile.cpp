// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servefile.h"

#include "jsoninput.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
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

std::optional<ServeFile> ServeFile::readLive(const QString &projectDir)
{
    QFile file(pathFor(projectDir));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray text = file.read(64 * 1024);
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
    // A server killed without its clean exit leaves the file: its pid is gone.
    if (::kill(pid_t(serve.pid), 0) != 0 && errno == ESRCH)
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
