// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// tests/data/mcp/fakeoauthserver.py — a protected MCP server and its authorization
// server on loopback — for the sign-in suites (tst_mcpoauth, tst_mcpoauthclients), and
// `toolstudio mcp login` against it with the suite as the browser: it follows the
// printed authorization URL to the studio's loopback redirect.
#pragma once

#include "clirunner.h"
#include "testfiles.h"

#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

/// What a `mcp login` left, and what the "browser" saw at the redirect.
struct Login
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QByteArray page; ///< the loopback redirect's answer ("" when no URL was followed)
};

/// GETs `url` (POSTs `body` as JSON when it is given) following redirects, as a browser
/// would; the last page's body.
inline QByteArray browse(const QUrl &url, const QByteArray &body = {})
{
    QNetworkAccessManager network;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    std::unique_ptr<QNetworkReply> reply(body.isNull() ? network.get(request) : network.post(request, body));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(30000);
    return reply->readAll();
}

inline QByteArray lastLine(const QByteArray &text)
{
    const QList<QByteArray> lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QByteArray() : lines.last();
}

class FakeOAuthServer
{
public:
    FakeOAuthServer() = default;
    FakeOAuthServer(const FakeOAuthServer &) = delete;
    FakeOAuthServer &operator=(const FakeOAuthServer &) = delete;
    ~FakeOAuthServer()
    {
        m_process.kill();
        m_process.waitForFinished();
    }

    /// Starts it and reads its port; false when it did not start.
    bool start()
    {
        m_process.setProgram(QStandardPaths::findExecutable(QStringLiteral("python3")));
        m_process.setArguments({mcpFixture("fakeoauthserver.py")});
        m_process.start();
        if (!m_process.waitForStarted())
            return false;
        for (int i = 0; i < 300 && !m_process.canReadLine(); ++i)
            m_process.waitForReadyRead(100);
        if (!m_process.canReadLine())
            return false;
        m_base = QStringLiteral("http://127.0.0.1:%1").arg(QString::fromLatin1(m_process.readLine().trimmed()));
        return true;
    }

    /// http://127.0.0.1:PORT
    QString base() const { return m_base; }

    /// A project in `dir` whose server "remote" is tenant `mode` of the fake, with
    /// `oauth` (a JSON object's text) as its "oauth" when given.
    QString project(QTemporaryDir &dir, const QString &mode, const QByteArray &oauth = {}) const
    {
        const QByteArray config = "{\"name\": \"oauth\", \"mcp_servers\": {\"remote\": {\"url\": \"" + m_base.toUtf8()
            + "/t/" + mode.toUtf8() + "/mcp\"" + (oauth.isEmpty() ? QByteArray() : ", \"oauth\": " + oauth) + "}}}";
        writeFile(dir.filePath(QStringLiteral("toolstudio.json")), config);
        return QFileInfo(dir.path()).canonicalFilePath();
    }

    /// `mcp login` of `projectDir`; follows the authorization URL when `browser`, after
    /// `beforeBrowsing` (given that URL) when there is one.
    static Login login(const QString &projectDir, bool browser, const QStringList &extra = {},
                       const std::function<void(const QUrl &)> &beforeBrowsing = {})
    {
        QProcess process;
        process.setProgram(toolstudioBinary());
        process.setArguments(withTrust(
            QStringList{QStringLiteral("mcp"), QStringLiteral("login"), projectDir, QStringLiteral("remote")} + extra));
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        Login result;
        if (!process.waitForStarted())
            return result;
        QByteArray out;
        if (browser) {
            // The URL is the line after "Open this URL…", indented by two spaces.
            QUrl url;
            while (url.isEmpty() && process.state() == QProcess::Running) {
                process.waitForReadyRead(1000);
                out += process.readAllStandardOutput();
                for (const QByteArray &line : out.split('\n'))
                    if (line.startsWith("  http") && out.contains(line + '\n'))
                        url = QUrl(QString::fromUtf8(line.trimmed()));
            }
            if (!url.isEmpty() && beforeBrowsing)
                beforeBrowsing(url);
            if (!url.isEmpty())
                result.page = browse(url);
        }
        if (!process.waitForFinished(60000))
            process.kill();
        result.exitCode = process.exitCode();
        result.out = out + process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        return result;
    }

    /// What tenant `mode` counted (see the fake's doc string); {} before anything came.
    nlohmann::json stats(const QString &mode) const
    {
        const QByteArray body = browse(QUrl(m_base + QStringLiteral("/stats")));
        const nlohmann::json all = nlohmann::json::parse(body.toStdString(), nullptr, false);
        return all.is_object() && all.contains(mode.toStdString()) ? all[mode.toStdString()] : nlohmann::json::object();
    }

    /// POSTs `request` to the fake's `path` ("/host", "/preregister"); its answer.
    nlohmann::json post(const char *path, const nlohmann::json &request) const
    {
        const QByteArray body = browse(QUrl(m_base + QLatin1String(path)), QByteArray::fromStdString(request.dump()));
        return nlohmann::json::parse(body.toStdString(), nullptr, false);
    }

private:
    QProcess m_process;
    QString m_base;
};
