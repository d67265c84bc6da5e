// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthhttp.h"

#include "llm/outgoingnetwork.h"

#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <memory>

McpOAuthHttp::McpOAuthHttp(QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
{}

QString McpOAuthHttp::refusedUrl(const QUrl &url, const QUrl &server)
{
    if (!url.isValid() || url.host().isEmpty())
        return QStringLiteral("\"%1\" is not a URL with a host").arg(url.toDisplayString().left(200));
    if (url.scheme() == QLatin1String("https"))
        return {};
    const QString host = url.host();
    const QHostAddress address(host);
    const bool loopback = host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
        || (!address.isNull() && address.isLoopback());
    if (url.scheme() == QLatin1String("http") && loopback && server.scheme() == QLatin1String("https"))
        return QStringLiteral("%1 is plain http to this machine while the MCP server is https (%2): a remote server's "
                              "sign-in goes only to https URLs")
            .arg(url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery).left(200),
                 server.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery).left(200));
    if (url.scheme() == QLatin1String("http") && loopback)
        return {};
    return QStringLiteral("%1 is not an https:// URL (sign-in talks only https, or http to this machine's loopback "
                          "address)")
        .arg(url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery).left(200));
}

void McpOAuthHttp::get(const QUrl &url, Done done)
{
    QNetworkRequest request = OutgoingNetwork::request(url);
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(TimeoutMs);
    track(m_network->get(request), std::move(done));
}

void McpOAuthHttp::post(const QUrl &url, const Headers &headers, const QByteArray &body, Done done)
{
    QNetworkRequest request = OutgoingNetwork::request(url);
    request.setRawHeader("Accept", "application/json");
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    request.setTransferTimeout(TimeoutMs);
    track(m_network->post(request, body), std::move(done));
}

void McpOAuthHttp::track(QNetworkReply *reply, Done done)
{
    auto response = std::make_shared<McpOAuthResponse>();
    auto over = std::make_shared<bool>(false);
    connect(reply, &QNetworkReply::readyRead, this, [reply, response, over] {
        if (*over)
            return;
        const QByteArray bytes = reply->read(MaxBodyBytes + 1 - response->body.size());
        response->body += bytes;
        if (response->body.size() > MaxBodyBytes) {
            *over = true;
            response->body.truncate(0);
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::finished, this, [reply, response, over, done = std::move(done)] {
        reply->deleteLater();
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        response->status = status.isValid() ? status.toInt() : 0;
        response->contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        response->wwwAuthenticate = reply->rawHeader("WWW-Authenticate");
        if (*over)
            response->error = QStringLiteral("its body is over %1 bytes, more than the studio reads").arg(MaxBodyBytes);
        else if (!status.isValid())
            response->error = reply->errorString();
        else if (response->body.size() < MaxBodyBytes)
            response->body += reply->read(MaxBodyBytes + 1 - response->body.size());
        if (response->body.size() > MaxBodyBytes) {
            response->body.clear();
            response->error = QStringLiteral("its body is over %1 bytes, more than the studio reads").arg(MaxBodyBytes);
        }
        done(*response);
    });
}
