// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// For the window suites that serve a project (File ▸ Serve Project): a free port, a
// port held taken, and an HTTP client that runs while the window's event loop does.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <utility>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/// A TCP socket listening on a free loopback port (closed by the destructor).
struct ListeningSocket
{
    int fd = -1;
    int port = 0;
    ListeningSocket()
    {
        fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address = {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 && ::listen(fd, 1) == 0
            && ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
            port = ntohs(address.sin_port);
    }
    ~ListeningSocket() { ::close(fd); }
};

/// A port nothing listens on now.
inline int freePort()
{
    const ListeningSocket socket;
    return socket.port;
}

/// A POST with curl that runs while the window's event loop does (the server's routes
/// answer on the window's thread, so a blocking client would wait forever): start(),
/// then wait for finished() and read reply() and header().
class Client
{
public:
    /// POSTs `body` as JSON to `url` with the extra `headers` ("Name: value").
    void start(const QString &url, const nlohmann::json &body, const QStringList &headers = {})
    {
        QStringList arguments{QStringLiteral("-s"),
                              QStringLiteral("-D"),
                              QStringLiteral("/dev/stderr"),
                              QStringLiteral("-X"),
                              QStringLiteral("POST"),
                              QStringLiteral("-H"),
                              QStringLiteral("Content-Type: application/json"),
                              QStringLiteral("--data-binary"),
                              QStringLiteral("@-"),
                              QStringLiteral("-w"),
                              QStringLiteral("\n%{http_code}"),
                              url};
        for (const QString &header : headers)
            arguments << QStringLiteral("-H") << header;
        m_process.start(QStringLiteral("curl"), arguments);
        m_process.write(QByteArray::fromStdString(body.dump()));
        m_process.closeWriteChannel();
    }
    bool finished() const { return m_process.state() == QProcess::NotRunning; }
    /// The HTTP status and the body as JSON (discarded when there is none).
    std::pair<int, nlohmann::json> reply()
    {
        const QByteArray out = m_process.readAllStandardOutput();
        m_headers = m_process.readAllStandardError();
        const qsizetype split = out.lastIndexOf('\n');
        return {out.mid(split + 1).toInt(), nlohmann::json::parse(out.left(split).toStdString(), nullptr, false)};
    }
    /// The response header `name` (any case) after reply(); empty when absent.
    QString header(const QString &name) const
    {
        for (const QByteArray &line : m_headers.split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && QString::fromLatin1(line.left(colon)).compare(name, Qt::CaseInsensitive) == 0)
                return QString::fromLatin1(line.mid(colon + 1).trimmed());
        }
        return {};
    }

private:
    QProcess m_process;
    QByteArray m_headers;
};
