// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QTcpServer;
class QTcpSocket;

/// The loopback redirect of sign-in (RFC 8252 §7.3): a listener on 127.0.0.1 that
/// takes one `GET /callback?code=…&state=…` from the browser, answers it with a short
/// page and closes. Each connection's request head is read up to MaxHeadBytes (a
/// longer one is answered 431 and closed) within IdleMs; at most MaxConnections are
/// open at once (a new one closes the oldest). A request for another path gets 404 and the
/// listener waits on. A redirect whose `state` is not the one expected is answered 400,
/// its code not used, and the listener waits on (stray()): any local program or web
/// page can send one, and it must not end the person's sign-in (attack31 F8). An
/// `error` (e.g. access_denied) with the expected state is refused() with its
/// description.
class McpOAuthRedirect : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxHeadBytes = 16 * 1024;
    static constexpr int MaxConnections = 16;
    static constexpr int IdleMs = 10000;

    explicit McpOAuthRedirect(QObject *parent = nullptr);

    /// Listens on 127.0.0.1:`port` (0: a port the system picks). False with the reason.
    bool listen(quint16 port, QString *why);
    quint16 port() const;
    /// http://127.0.0.1:PORT/callback
    QString redirectUri() const;
    /// The redirect URI of a listener on `port`; for 0, http://127.0.0.1/callback — a
    /// loopback redirect whose port may be any (RFC 8252 §7.3), as a client ID metadata
    /// document names it when the port is the system's choice.
    static QString redirectUri(quint16 port);
    void expectState(const QString &state) { m_state = state; }
    void close();
    /// Redirects answered 400 because their state was not the one expected.
    int strays() const { return m_strays; }

Q_SIGNALS:
    void arrived(const QString &code);
    void refused(const QString &why);
    void stray(const QString &why);

private:
    void onConnection();
    void onReadable(QTcpSocket *socket);
    void answer(QTcpSocket *socket, int status, const QByteArray &reason, const QString &text);

    QTcpServer *m_server = nullptr;
    QString m_state;
    QList<QPointer<QTcpSocket>> m_open; ///< the connections, oldest first
    int m_strays = 0;
    bool m_done = false;
};
