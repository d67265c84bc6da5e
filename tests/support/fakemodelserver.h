// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The fake model endpoint (tests/data/models/fakemodelserver.py on 127.0.0.1, a free
// port) for the model suites: started once per suite, asked what it received.
#pragma once

#include "testfiles.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QUrl>

#include <nlohmann/json.hpp>

class FakeModelServer
{
public:
    ~FakeModelServer() { stop(); }

    /// python3, or empty where it is not installed (the suite skips then).
    static QString python() { return QStandardPaths::findExecutable(QStringLiteral("python3")); }

    /// Starts the server and reads the port it prints; empty on success, else why not.
    QString start()
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(python(), {sourceTreeDir() + QStringLiteral("/tests/data/models/fakemodelserver.py")});
        if (!m_process.waitForStarted())
            return m_process.errorString();
        while (!m_process.canReadLine()) {
            if (!m_process.waitForReadyRead(20000))
                return QStringLiteral("the fake model server printed no port");
        }
        const int port = m_process.readLine().trimmed().toInt();
        if (port <= 0)
            return QStringLiteral("the fake model server printed no valid port");
        m_base = QStringLiteral("http://127.0.0.1:%1").arg(port);
        return {};
    }

    void stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    /// http://127.0.0.1:PORT
    QString base() const { return m_base; }

    /// GET `path` (e.g. "/last", "/count") parsed; a discarded value where it is not JSON.
    nlohmann::json get(const QString &path)
    {
        QNetworkReply *reply = m_network.get(QNetworkRequest(QUrl(m_base + path)));
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        reply->deleteLater();
        return nlohmann::json::parse(reply->readAll().toStdString(), nullptr, false);
    }

private:
    QProcess m_process;
    QString m_base;
    QNetworkAccessManager m_network;
};
