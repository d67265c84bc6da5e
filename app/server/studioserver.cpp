// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "studioserver.h"

#include "mcphttproute.h"
#include "pendingcallsapi.h"
#include "programmaticapi.h"
#include "servedstepmode.h"
#include "servefile.h"

#include <QFile>

#include <unistd.h>

StudioServer::StudioServer(QObject *parent)
    : QObject(parent)
    , m_stepMode(new ServedStepMode(this))
{}

StudioServer::~StudioServer()
{
    stop();
}

std::string StudioServer::readToken(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the token file %1: %2").arg(path, file.errorString());
        return {};
    }
    const QByteArray token = file.read(4097).split('\n').value(0).trimmed();
    bool printable = !token.isEmpty();
    for (const char c : token)
        printable = printable && c > 0x20 && c < 0x7f;
    if (!printable || token.size() < 16 || token.size() > 4096) {
        *error = QStringLiteral("the token file %1 must hold one token of 16 to 4096 printable characters without "
                                "spaces (e.g. head -c 32 /dev/urandom | base64 > %1)")
                     .arg(path);
        return {};
    }
    return token.toStdString();
}

QString StudioServer::tokenRefusal(const std::string &host, bool hasToken, const QString &hostWords,
                                   const QString &tokenHint)
{
    if (hasToken || HttpServer::isLoopback(host))
        return {};
    return QStringLiteral("%1 is reachable from other machines: it needs %2 (a secret every request must send); "
                          "without it, serve on 127.0.0.1")
        .arg(hostWords, tokenHint);
}

QString StudioServer::noTlsWarning(const QString &host)
{
    if (HttpServer::isLoopback(host.toStdString()))
        return {};
    return QStringLiteral("serving on %1 without TLS: the token and every request travel in clear text; use it "
                          "only on a network you trust, or behind a TLS proxy")
        .arg(host);
}

bool StudioServer::start(const Project &project, HttpServerConfig config, const ProgrammaticLimits &limits,
                         QString *error, bool *cannotListen)
{
    stop();
    bool unused = false;
    if (!cannotListen)
        cannotListen = &unused;
    *cannotListen = false;
    if (const QString refusal = tokenRefusal(config.host, !config.token.empty(), QString::fromStdString(config.host),
                                             QStringLiteral("a token file"));
        !refusal.isEmpty()) {
        *error = refusal;
        return false;
    }
    if (const auto served = ServeFile::readLive(project.dir)) {
        *error = QStringLiteral("%1 is served already at %2 (process %3); stop that one first")
                     .arg(project.dir, QString::fromStdString(served->url))
                     .arg(served->pid);
        *cannotListen = true;
        return false;
    }
    config.replyTimeoutSeconds = std::max(config.replyTimeoutSeconds, ProgrammaticApi::longestReplySeconds());
    auto pending = std::make_unique<PendingCallsApi>(project);
    if (!pending->open(error))
        return false;
    auto server = std::make_unique<HttpServer>();
    server->setAbout({{"project", project.dir.toStdString()}, {"name", project.name.toStdString()}});
    pending->setStepMode(m_stepMode);
    pending->install(*server);
    auto programmatic = std::make_unique<ProgrammaticApi>(project, limits);
    programmatic->install(*server);
    auto mcp = std::make_unique<McpHttpRoute>(project);
    mcp->setStudioTools(m_studioTools);
    mcp->setStepMode(m_stepMode);
    mcp->setModernIdleMs(qint64(limits.sessionExpirySeconds) * 1000);
    mcp->install(*server);
    if (!server->listen(config, error)) {
        *cannotListen = true;
        return false;
    }
    ServeFile serveFile;
    serveFile.url = server->url();
    serveFile.host = config.host;
    serveFile.port = config.port;
    serveFile.token = config.token;
    serveFile.pid = ::getpid();
    if (!serveFile.write(project.dir, error)) {
        server->stop();
        return false;
    }
    m_projectDir = project.dir;
    m_pending = std::move(pending);
    m_programmatic = std::move(programmatic);
    m_mcp = std::move(mcp);
    m_server = std::move(server);
    return true;
}

bool StudioServer::setProject(const Project &project)
{
    return m_mcp && project.dir == m_projectDir && m_mcp->setProject(project);
}

void StudioServer::stop()
{
    if (!m_server)
        return;
    // Subscriptions end properly first (their closing result, while their streams are
    // open); then the HTTP threads (waiting requests get 503), then the routes they queued to.
    if (m_mcp)
        m_mcp->endSubscriptions();
    m_server->stop();
    m_server.reset();
    m_mcp.reset();
    m_programmatic.reset();
    m_pending.reset();
    ServeFile::removeOwn(m_projectDir);
    m_projectDir.clear();
}

QString StudioServer::url() const
{
    return m_server ? QString::fromStdString(m_server->url()) : QString();
}
