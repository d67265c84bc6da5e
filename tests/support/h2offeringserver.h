// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "testfiles.h"

#include <QList>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTest>

/// An https:// server on the loopback that offers HTTP/2 by ALPN ("h2" before
/// "http/1.1"), with the test certificate; the process's default TLS configuration
/// trusts it. Used to check that a client of the studio does not take h2
/// (OutgoingNetwork::request; attack43 F1, attack44 F1).
class H2OfferingServer
{
public:
    /// False when the certificate or key cannot be read or the port cannot be taken.
    bool listen()
    {
        const QList<QSslCertificate> certificates
            = QSslCertificate::fromPath(mcpFixture("loopback-test.crt"), QSsl::Pem);
        const QSslKey key(fileBytes(mcpFixture("loopback-test.key")), QSsl::Rsa, QSsl::Pem);
        if (certificates.size() != 1 || key.isNull())
            return false;
        QSslConfiguration client = QSslConfiguration::defaultConfiguration();
        client.addCaCertificate(certificates.first());
        QSslConfiguration::setDefaultConfiguration(client);

        QSslConfiguration offers = QSslConfiguration::defaultConfiguration();
        offers.setLocalCertificate(certificates.first());
        offers.setPrivateKey(key);
        offers.setAllowedNextProtocols({QByteArrayLiteral("h2"), QSslConfiguration::NextProtocolHttp1_1});
        m_server.setSslConfiguration(offers);
        return m_server.listen(QHostAddress::LocalHost);
    }

    QString base() const { return QStringLiteral("https://127.0.0.1:%1").arg(m_server.serverPort()); }

    /// Waits for the client's connection and its first request line; empty on timeout.
    /// `protocol` gets what ALPN chose (empty: none, so HTTP/1.1).
    QByteArray firstRequestLine(QByteArray *protocol)
    {
        if (!QTest::qWaitFor([this] { return m_server.hasPendingConnections(); }, 10000))
            return {};
        auto *socket = qobject_cast<QSslSocket *>(m_server.nextPendingConnection());
        if (!socket || !QTest::qWaitFor([socket] { return socket->isEncrypted(); }, 10000))
            return {};
        *protocol = socket->sslConfiguration().nextNegotiatedProtocol();
        if (!QTest::qWaitFor([socket] { return socket->canReadLine(); }, 10000))
            return {};
        return socket->readLine().trimmed();
    }

private:
    QSslServer m_server;
};
