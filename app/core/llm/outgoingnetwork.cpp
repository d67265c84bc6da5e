// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "outgoingnetwork.h"

#include <QFile>
#include <QHostAddress>
#include <QSslCertificate>
#include <QSslConfiguration>

bool LoopbackDirectProxyFactory::isLoopback(const QString &host)
{
    QString name = host.toLower();
    if (name.startsWith(QLatin1Char('[')) && name.endsWith(QLatin1Char(']')))
        name = name.mid(1, name.size() - 2);
    if (name == QLatin1String("localhost") || name.endsWith(QLatin1String(".localhost")))
        return true;
    const QHostAddress address(name);
    return !address.isNull() && address.isLoopback();
}

QList<QNetworkProxy> LoopbackDirectProxyFactory::queryProxy(const QNetworkProxyQuery &query)
{
    if (isLoopback(query.peerHostName()))
        return {QNetworkProxy(QNetworkProxy::NoProxy)};
    return QNetworkProxyFactory::systemProxyForQuery(query);
}

bool OutgoingNetwork::install(QString *error)
{
    // Qt takes ownership of the factory.
    QNetworkProxyFactory::setApplicationProxyFactory(new LoopbackDirectProxyFactory);

    const QString caFile = qEnvironmentVariable(ExtraCaVariable);
    if (caFile.isEmpty())
        return true;
    QFile file(caFile);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1=%2: cannot read it (%3); HTTPS trusts only the system's certificates")
                     .arg(QLatin1String(ExtraCaVariable), caFile, file.errorString());
        return false;
    }
    // Bounded: a CA bundle is a few hundred KiB; anything far larger is not one.
    const QList<QSslCertificate> extra = QSslCertificate::fromData(file.read(16 * 1024 * 1024), QSsl::Pem);
    if (extra.isEmpty()) {
        *error = QStringLiteral("%1=%2: no PEM certificate in it; HTTPS trusts only the system's certificates")
                     .arg(QLatin1String(ExtraCaVariable), caFile);
        return false;
    }
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setCaCertificates(QSslConfiguration::systemCaCertificates() + extra);
    QSslConfiguration::setDefaultConfiguration(config);
    return true;
}

QNetworkRequest OutgoingNetwork::request(const QUrl &url)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    return request;
}
