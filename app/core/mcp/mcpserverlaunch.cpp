// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpserverlaunch.h"

#include "mcp/mcphttpfallbacktransport.h"
#include "mcp/mcphttptransport.h"
#include "mcp/mcpnpxpackage.h"
#include "mcp/mcpoauthauthorizer.h"
#include "mcp/mcpssetransport.h"
#include "project/mcpserverconfig.h"
#include "python/secrets.h"
#include "python/toolsandbox.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>

namespace McpServerLaunch {

const QRegularExpression &secretReference()
{
    static const QRegularExpression reference(QStringLiteral("\\$\\{secret:([A-Za-z_][A-Za-z0-9_]*)\\}"));
    return reference;
}

QString expandSecrets(const QString &value, const Secrets &secrets, QStringList *missing)
{
    QString expanded;
    qsizetype last = 0;
    for (auto it = secretReference().globalMatch(value); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        expanded += value.mid(last, match.capturedStart() - last);
        const QString name = match.captured(1);
        if (secrets.names().contains(name))
            expanded += secrets.value(name);
        else if (!missing->contains(name))
            *missing << name;
        last = match.capturedEnd();
    }
    return expanded + value.mid(last);
}

std::optional<McpStdioTransport::Launch> forServer(const McpServerConfig &server, const QString &projectDir,
                                                   const Secrets &secrets, QString *error)
{
    const QString canonical = QFileInfo(projectDir).canonicalFilePath();
    const QString project = canonical.isEmpty() ? projectDir : canonical;
    std::shared_ptr<ToolSandbox> sandbox = ToolSandbox::forProject(project, error);
    if (!sandbox)
        return std::nullopt;

    ToolSandbox::Launch confined;
    confined.argv = QStringList{server.command} + server.args;
    // An npx entry runs its installed package with node, that folder read-only (McpNpxPackage).
    QString npxFolder;
    const std::optional<McpNpxPackage> npx = McpNpxPackage::of(server, error);
    if (!error->isEmpty())
        return std::nullopt;
    if (npx) {
        if (!npx->isInstalled()) {
            *error = QStringLiteral("npx package \"%1\" is not installed yet").arg(npx->spec());
            return std::nullopt;
        }
        npxFolder = npx->installDir();
        const QString bin = npx->binPath(npxFolder, error);
        if (bin.isEmpty())
            return std::nullopt;
        if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty()) {
            *error = QStringLiteral("node is not installed, so npx package \"%1\" cannot run (Debian: apt install "
                                    "nodejs)")
                         .arg(npx->spec());
            return std::nullopt;
        }
        confined.argv = QStringList{QStringLiteral("node"), bin} + npx->serverArguments();
    }
    QStringList missing;
    for (auto it = server.env.cbegin(); it != server.env.cend(); ++it)
        confined.env.insert(it.key(), expandSecrets(it.value(), secrets, &missing));
    if (!missing.isEmpty()) {
        *error = QStringLiteral("its env names secrets that are not set: %1 (set them with: toolstudio tools secret "
                                "PROJECT NAME)")
                     .arg(missing.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    confined.cpuSeconds = 0; // a server outlives calls
    if (!server.cwd.isEmpty()) {
        confined.cwd = QDir::cleanPath(project + QLatin1Char('/') + server.cwd);
        if (!confined.cwd.startsWith(project + QLatin1Char('/')) || !QFileInfo(confined.cwd).isDir()) {
            *error = QStringLiteral("its cwd \"%1\" is not a folder inside the project").arg(server.cwd.left(200));
            return std::nullopt;
        }
    }
    if (server.sandboxed) {
        confined.readProject = false;
        confined.network = server.network;
        const auto grant = [&](const QStringList &folders, bool inCopy, QStringList *into) {
            for (const QString &folder : folders) {
                const QString path = QDir::cleanPath(project + QLatin1Char('/') + folder);
                if (!QFileInfo(path).isDir()) {
                    *error = QStringLiteral("its sandbox folder \"%1\" does not exist in the project")
                                 .arg(folder.left(200));
                    return false;
                }
                // As root the code reads the project's private copy (ToolSandbox).
                *into << (inCopy ? sandbox->projectPath() + path.mid(project.size()) : path);
            }
            return true;
        };
        if (!grant(server.read, true, &confined.readPaths) || !grant(server.readWrite, false, &confined.writePaths))
            return std::nullopt;
    }
    if (!npxFolder.isEmpty())
        confined.readPaths << npxFolder;

    McpStdioTransport::Launch launch;
    launch.program = confined.argv.first();
    launch.arguments = confined.argv.mid(1);
    launch.configure
        = [sandbox, confined](QProcess *process, QString *why) { return sandbox->configure(process, confined, why); };
    return launch;
}

std::unique_ptr<McpTransport> transportFor(const McpServerConfig &server, const QString &projectDir,
                                           const Secrets &secrets, QString *error)
{
    switch (server.transport) {
    case McpServerConfig::Transport::Stdio: {
        const auto launch = forServer(server, projectDir, secrets, error);
        if (!launch)
            return nullptr;
        auto stdio = std::make_unique<McpStdioTransport>();
        stdio->setLaunch(*launch);
        return stdio;
    }
    case McpServerConfig::Transport::StreamableHttp:
    case McpServerConfig::Transport::Sse:
        break;
    }
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(server.url);
    const QString scheme = endpoint.url.scheme();
    if (!endpoint.url.isValid() || endpoint.url.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        *error = QStringLiteral("its url \"%1\" is not an http:// or https:// URL").arg(server.url.left(200));
        return nullptr;
    }
    QStringList missing;
    for (auto it = server.headers.cbegin(); it != server.headers.cend(); ++it)
        endpoint.headers.append({it.key().toUtf8(), expandSecrets(it.value(), secrets, &missing).toUtf8()});
    if (!missing.isEmpty()) {
        *error = QStringLiteral("its headers name secrets that are not set: %1 (set them with: toolstudio tools "
                                "secret PROJECT NAME)")
                     .arg(missing.join(QStringLiteral(", ")));
        return nullptr;
    }
    // Issue 16: a secret goes only to the hosts it was entered for (bound on first use).
    // (An HTTP+SSE endpoint is of the URL's origin, McpSseTransport::resolveEndpoint.)
    Secrets binding = secrets;
    for (const QString &value : server.headers) {
        for (auto it = secretReference().globalMatch(value); it.hasNext();) {
            if (const QString refused = binding.allowSend(it.next().captured(1), endpoint.url); !refused.isEmpty()) {
                *error = QStringLiteral("its headers: %1").arg(refused);
                return nullptr;
            }
        }
    }
    // Signing in (docs/mcp.md "Signing in") unless the entry gives its own Authorization.
    const bool ownAuthorization
        = std::any_of(server.headers.keyBegin(), server.headers.keyEnd(), [](const QString &key) {
              return key.compare(QLatin1String("Authorization"), Qt::CaseInsensitive) == 0;
          });
    McpOAuthAuthorizer *authorizer = ownAuthorization
        ? nullptr
        : new McpOAuthAuthorizer(server.name, projectDir, QUrl(server.url), McpOAuthState::load(secrets, server.name));
    if (server.transport == McpServerConfig::Transport::Sse) {
        auto sse = std::make_unique<McpSseTransport>(std::move(endpoint));
        if (authorizer)
            sse->setAuthorizer(authorizer);
        return sse;
    }
    if (!server.typeGiven) // the spec's fallback to HTTP+SSE (McpHttpFallbackTransport)
        return std::make_unique<McpHttpFallbackTransport>(std::move(endpoint), authorizer);
    auto http = std::make_unique<McpHttpTransport>(std::move(endpoint));
    if (authorizer)
        http->setAuthorizer(authorizer);
    return http;
}

nlohmann::json rootsFor(const McpServerConfig &server, const QString &projectDir, const QString &projectName)
{
    const QString name = projectName.isEmpty() ? QFileInfo(projectDir).fileName() : projectName;
    const QString canonical = QFileInfo(projectDir).canonicalFilePath();
    const QString project = canonical.isEmpty() ? QDir::cleanPath(projectDir) : canonical;
    // A stdio server runs in the project as its sandbox shows it (a root studio's copy):
    // a root naming the real folder would be one it cannot read (a filesystem server
    // then refused every read).
    QString seen = project;
    if (server.transport == McpServerConfig::Transport::Stdio) {
        QString error;
        if (const std::shared_ptr<ToolSandbox> sandbox = ToolSandbox::forProject(project, &error))
            seen = sandbox->projectPath();
    }
    // A confined server's own folders: the whole project would be roots it cannot read —
    // and a filesystem server takes its roots in place of the folders in its args.
    const QStringList granted = server.sandboxed ? server.read + server.readWrite : QStringList();
    const QStringList folders = server.rootsGiven ? server.roots : granted.isEmpty() ? QStringList{QString()} : granted;
    nlohmann::json roots = nlohmann::json::array();
    for (const QString &folder : folders) {
        const bool itself = folder.isEmpty() || folder == QLatin1String(".");
        QString path = QDir::cleanPath(QDir(project).absoluteFilePath(itself ? QString() : folder));
        if (path == project || path.startsWith(project + QLatin1Char('/')))
            path = seen + path.mid(project.size());
        roots.push_back({{"uri", QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded).toStdString()},
                         {"name", (itself ? name : folder).toStdString()}});
    }
    return roots;
}

} // namespace McpServerLaunch
