// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class QTcpServer;
class QTcpSocket;

/// The loopback redirect of sign-in (RFC 8252 §7.3): a listener on 127.0.0.1 that
/// takes one `GET /callback?code=…&state=…` from the browser, answers it with a short
/// page and closes. Each connection's request head is read up to MaxHeadBytes (a
/// longer one is answered 431 and closed); a request for another path gets 404 and the
/// listener waits on. The `state` must be the one expected (else refused(), the code is
/// not used); an `error` (e.g. access_denied) is refused() with its description.
class McpOAuthRedirect : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxHeadBytes = 16 * 1024;

    explicit McpOAuthRedirect(QObject *parent = nullptr);

    /// Listens on 127.0.0.1:`port` (0: a port the system picks). False with the reason.
    bool listen(quint16 port, QString *why);
    quint16 port() const;
    /// http://127.0.0.1:PORT/callback
    QString redirectUri() const;
    void expectState(const QString &state) { m_state = state; }
    void close();

Q_SIGNALS:
    void arrived(const QString &code);
    void refused(const QString &why);

private:
    void onConnection();
    void onReadable(QTcpSocket *socket);
    void answer(QTcpSocket *socket, int status, const QByteArray &reason, const QString &text);

    QTcpServer *m_server = nullptr;
    QString m_state;
    bool m_done = false;
};
