// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthredirect.h"

#include "project/printabletext.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

McpOAuthRedirect::McpOAuthRedirect(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &McpOAuthRedirect::onConnection);
}

bool McpOAuthRedirect::listen(quint16 port, QString *why)
{
    if (m_server->listen(QHostAddress::LocalHost, port))
        return true;
    *why = QStringLiteral("cannot listen on 127.0.0.1:%1 for the sign-in redirect: %2")
               .arg(port)
               .arg(m_server->errorString());
    return false;
}

quint16 McpOAuthRedirect::port() const
{
    return m_server->serverPort();
}

QString McpOAuthRedirect::redirectUri() const
{
    return redirectUri(port());
}

QString McpOAuthRedirect::redirectUri(quint16 port)
{
    return port == 0 ? QStringLiteral("http://127.0.0.1/callback")
                     : QStringLiteral("http://127.0.0.1:%1/callback").arg(port);
}

void McpOAuthRedirect::close()
{
    m_done = true;
    m_server->close();
}

void McpOAuthRedirect::onConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        if (m_done) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        // At the cap the oldest connection goes, not the new one: a program that holds
        // connections open cannot keep the browser's redirect out (attack32 F1).
        m_open.removeIf([](const QPointer<QTcpSocket> &open) { return open.isNull(); });
        while (m_open.size() >= MaxConnections) {
            const QPointer<QTcpSocket> oldest = m_open.takeFirst();
            oldest->abort();
            oldest->deleteLater();
        }
        m_open.append(socket);
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadable(socket); });
        // A connection that sends no whole request head in time holds no slot for long.
        QTimer::singleShot(IdleMs, socket, [socket] {
            socket->abort();
            socket->deleteLater();
        });
    }
}

void McpOAuthRedirect::answer(QTcpSocket *socket, int status, const QByteArray &reason, const QString &text)
{
    const QByteArray body = "<!doctype html><meta charset=\"utf-8\"><title>Tool Studio</title><p>"
        + text.toHtmlEscaped().toUtf8() + "</p>\n";
    socket->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reason
                  + "\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nConnection: "
                    "close\r\nContent-Length: "
                  + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    socket->disconnectFromHost();
}

void McpOAuthRedirect::onReadable(QTcpSocket *socket)
{
    if (m_done) {
        socket->abort();
        return;
    }
    QByteArray head = socket->property("head").toByteArray();
    head += socket->read(MaxHeadBytes + 1 - head.size());
    socket->setProperty("head", head);
    if (head.size() > MaxHeadBytes) {
        disconnect(socket, &QTcpSocket::readyRead, this, nullptr);
        answer(socket, 431, "Request Header Fields Too Large", QStringLiteral("The request is too large."));
        return;
    }
    if (!head.contains("\r\n\r\n") && !head.contains("\n\n"))
        return;                                                // the rest of the head comes later
    disconnect(socket, &QTcpSocket::readyRead, this, nullptr); // one request per connection
    const QList<QByteArray> line = head.left(head.indexOf('\n')).trimmed().split(' ');
    const QUrl target(QString::fromLatin1(line.value(1)));
    if (line.value(0) != "GET" || target.path() != QLatin1String("/callback")) {
        answer(socket, 404, "Not Found", QStringLiteral("Not found."));
        return;
    }
    // Form encoding (RFC 6749 appendix B): "+" is a space.
    const QUrlQuery query(target.query(QUrl::FullyEncoded).replace(u'+', QStringLiteral("%20")));
    const QString state = query.queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded);
    const QString error = query.queryItemValue(QStringLiteral("error"), QUrl::FullyDecoded);
    const QString code = query.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded);
    if (m_state.isEmpty() || state != m_state) { // none expected yet: nothing matches (attack31 F4)
        answer(socket, 400, "Bad Request",
               QStringLiteral("This is not the redirect Tool Studio waits for (its state does not match); the "
                              "sign-in goes on."));
        ++m_strays;
        Q_EMIT stray(QStringLiteral("a redirect whose state is not the one sent was answered 400 and its code not used "
                                    "(a redirect the studio did not ask for); still waiting"));
        return;
    }
    close();
    if (!error.isEmpty()) {
        const QString description = query.queryItemValue(QStringLiteral("error_description"), QUrl::FullyDecoded);
        answer(socket, 200, "OK", QStringLiteral("Sign-in failed: %1. You can close this window.").arg(error));
        Q_EMIT refused(QStringLiteral("the authorization server answered %1%2")
                           .arg(elidedText(printableText(error), 80),
                                description.isEmpty()
                                    ? QString()
                                    : QStringLiteral(": ") + elidedText(printableText(description), 300)));
        return;
    }
    if (code.isEmpty()) {
        answer(socket, 400, "Bad Request", QStringLiteral("Sign-in failed: no code."));
        Q_EMIT refused(QStringLiteral("the redirect has neither a code nor an error"));
        return;
    }
    answer(socket, 200, "OK", QStringLiteral("Signed in. You can close this window and return to Tool Studio."));
    Q_EMIT arrived(code);
}
