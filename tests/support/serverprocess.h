// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// `toolstudio serve` in the background and the real clients that drive it (curl,
// Python's urllib), for the suites of the studio's server (tests/system/).
#pragma once

#include "clirunner.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/// A TCP port nothing listens on now (the kernel's pick for port 0).
inline int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    ::close(fd);
    return port;
}

/// `toolstudio serve DIR --port P --trust ARGS…` in the background, until it says it serves.
struct Server
{
    QProcess process;
    int port = 0;
    QByteArray out;
    QByteArray err;

    /// `fixedPort` 0: a free port.
    bool start(const QString &dir, const QStringList &extra = {}, int fixedPort = 0)
    {
        isolateConfigDir();
        port = fixedPort > 0 ? fixedPort : freePort();
        process.setProgram(toolstudioBinary());
        process.setArguments(QStringList{QStringLiteral("serve"), dir, QStringLiteral("--port"), QString::number(port),
                                         QStringLiteral("--trust")}
                             + extra);
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
            err += process.readAllStandardError();
            if (out.contains("serving "))
                return true;
            if (process.state() == QProcess::NotRunning)
                return false;
        }
        return false;
    }
    QString url(const char *path = "") const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(QLatin1String(path));
    }
    /// True once the server's request log (its stdout) has `line`; it is written just
    /// after the reply, so it may come a moment after the client has it.
    bool logged(const QByteArray &line)
    {
        QElapsedTimer clock;
        clock.start();
        while (!out.contains(line) && clock.elapsed() < 30000 && process.state() == QProcess::Running) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
        }
        return out.contains(line);
    }
    /// SIGTERM, as Ctrl-C or a service manager stops it; its exit status.
    int stop()
    {
        process.terminate();
        if (!process.waitForFinished(30000))
            process.kill();
        out += process.readAllStandardOutput();
        err += process.readAllStandardError();
        return process.exitCode();
    }
    ~Server()
    {
        if (process.state() != QProcess::NotRunning)
            stop();
    }
};

struct HttpReply
{
    int status = 0;
    nlohmann::json body;
    QByteArray raw;
};

/// The real curl: `curl -s ARGS… URL`, its HTTP status and JSON body.
inline HttpReply curl(const QStringList &arguments, const QByteArray &stdinData = {})
{
    QProcess process;
    process.start(QStringLiteral("curl"),
                  QStringList{QStringLiteral("-s"), QStringLiteral("-w"), QStringLiteral("\n%{http_code}")}
                      + arguments);
    process.waitForStarted();
    if (!stdinData.isNull())
        process.write(stdinData);
    process.closeWriteChannel();
    process.waitForFinished(60000);
    const QByteArray out = process.readAllStandardOutput();
    const qsizetype cut = out.lastIndexOf('\n');
    HttpReply reply;
    reply.status = out.mid(cut + 1).toInt();
    reply.raw = out.left(cut);
    reply.body = nlohmann::json::parse(reply.raw.toStdString(), nullptr, false);
    return reply;
}

/// Python's urllib: a POST of `body` (JSON) to `url`; the status and JSON body, the
/// error body included (urllib raises HTTPError for 4xx/5xx).
inline HttpReply pythonPost(const QString &url, const QByteArray &body)
{
    QProcess process;
    process.start(QStringLiteral("python3"),
                  {QStringLiteral("-c"),
                   QStringLiteral("import sys, urllib.request, urllib.error\n"
                                  "req = urllib.request.Request(sys.argv[1], data=sys.stdin.buffer.read(), "
                                  "headers={'Content-Type': 'application/json'}, method='POST')\n"
                                  "try:\n"
                                  "    r = urllib.request.urlopen(req, timeout=60); s, b = r.status, r.read()\n"
                                  "except urllib.error.HTTPError as e:\n"
                                  "    s, b = e.code, e.read()\n"
                                  "sys.stdout.write(str(s) + '\\n' + b.decode())\n"),
                   url});
    process.waitForStarted();
    process.write(body);
    process.closeWriteChannel();
    process.waitForFinished(60000);
    const QByteArray out = process.readAllStandardOutput();
    const qsizetype cut = out.indexOf('\n');
    HttpReply reply;
    reply.status = out.left(cut).toInt();
    reply.raw = out.mid(cut + 1);
    reply.body = nlohmann::json::parse(reply.raw.toStdString(), nullptr, false);
    return reply;
}

/// JSON values compared as their compact text, so a failure shows both.
inline QString dumped(const nlohmann::json &json)
{
    return QString::fromStdString(json.dump());
}

inline QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

inline QByteArray errorCode(const HttpReply &reply)
{
    return reply.body.is_object() && reply.body.contains("error")
        ? QByteArray::fromStdString(reply.body["error"].value("code", ""))
        : QByteArray("(no JSON error: " + reply.raw.left(200) + ")");
}

inline QByteArray errorMessage(const HttpReply &reply)
{
    return reply.body.is_object() && reply.body.contains("error")
        ? QByteArray::fromStdString(reply.body["error"].value("message", ""))
        : QByteArray();
}

/// Waits up to 30 s until `server`'s stderr has had `text`.
inline bool serverSaid(Server &server, const QByteArray &text)
{
    QElapsedTimer clock;
    clock.start();
    while (!server.err.contains(text) && clock.elapsed() < 30000 && server.process.state() == QProcess::Running) {
        server.process.waitForReadyRead(100);
        server.err += server.process.readAllStandardError();
        server.out += server.process.readAllStandardOutput();
    }
    return server.err.contains(text);
}
