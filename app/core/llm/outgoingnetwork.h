// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QNetworkProxyFactory>
#include <QNetworkRequest>
#include <QString>

class QUrl;

/// How the studio's own HTTP(S) requests leave the machine — model endpoints (ModelClient)
/// and remote MCP servers (McpHttpTransport) — set once per process (issue 19 item 1:
/// "System proxy settings and extra CA certificates are honoured for HTTPS").
///
/// - **Proxy:** the system's settings (on Linux the `http_proxy`, `https_proxy`,
///   `all_proxy` and `no_proxy` variables, as curl reads them), except that a loopback
///   address (`localhost`, 127.0.0.0/8, `::1`) is always reached directly, as browsers
///   do: a local model server or MCP server must not be sent through a company proxy.
/// - **Extra CA certificates:** the PEM file named by `TOOLSTUDIO_EXTRA_CA_CERTS` (as
///   Node.js has NODE_EXTRA_CA_CERTS) is trusted in addition to the system's CAs — for a
///   model server or gateway with a private or self-signed certificate.
class OutgoingNetwork
{
public:
    /// Installs both for this process. False with `error` set when the CA file is named
    /// but cannot be read or holds no certificate (the proxy is installed anyway).
    static bool install(QString *error);

    /// A request to `url` as every one of the studio's own leaves: redirects not
    /// followed (a redirect would carry the headers, and the keys in them, to another
    /// URL: the request ends with its status instead), and HTTP/1.1 only — Qt 6.4's
    /// HTTP/2 (an https:// server that offers h2) does not apply setReadBufferSize, so a
    /// flooded stream piled up in memory (attack43 F1: 4 GB in 10 s; attack44 F1 for a
    /// model endpoint), and it multiplexes every request on one connection, where
    /// HTTP/1.1 opens at most six to a host at once.
    static QNetworkRequest request(const QUrl &url);

    /// The environment variable naming the extra CA file.
    static constexpr const char *ExtraCaVariable = "TOOLSTUDIO_EXTRA_CA_CERTS";
};

/// The system proxy for every host but a loopback one (OutgoingNetwork).
class LoopbackDirectProxyFactory : public QNetworkProxyFactory
{
public:
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override;
    /// `localhost`, `*.localhost`, 127.0.0.0/8 and ::1 (IPv4-mapped too).
    static bool isLoopback(const QString &host);
};
