// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;

/// What one HTTP exchange of the OAuth flow gave: `status` 0 when no HTTP reply came
/// (then `error` says why), the body (at most McpOAuthHttp::MaxBodyBytes) and the
/// headers the flow reads.
struct McpOAuthResponse
{
    int status = 0;
    QByteArray body;
    QByteArray contentType;
    QByteArray wwwAuthenticate;
    QString error; ///< no reply, or the body was over the bound (then status is kept)
};

/// The HTTP requests of sign-in (discovery, registration, token), asynchronous over Qt
/// Network. Every body read is bounded by MaxBodyBytes (a larger one is dropped and
/// the reply aborted, "its body is over 65536 bytes"), redirects are not followed (a
/// redirect would carry a client secret or code elsewhere), and each request gives up
/// after TimeoutMs.
class McpOAuthHttp : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 MaxBodyBytes = 64 * 1024;
    static constexpr int TimeoutMs = 30000;
    using Done = std::function<void(const McpOAuthResponse &)>;
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    explicit McpOAuthHttp(QObject *parent = nullptr);

    void get(const QUrl &url, Done done);
    void post(const QUrl &url, const Headers &headers, const QByteArray &body, Done done);

    /// "" when the flow may send to `url`: https, or http to a loopback address
    /// (127.0.0.0/8, ::1, localhost: a local or test server); else why not. With
    /// `server`, the MCP endpoint whose sign-in it is: when that is https, plain http is
    /// refused even to loopback (a remote server must not steer the sign-in's requests,
    /// its client secret among them, to this machine's local services: attack31 F9).
    static QString refusedUrl(const QUrl &url, const QUrl &server = QUrl());

private:
    void track(class QNetworkReply *reply, Done done);

    QNetworkAccessManager *m_network = nullptr;
};
