// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcplogincommand.h"

#include "headlessrun.h"
#include "mcp/mcpoauthflow.h"
#include "mcpservernamed.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "python/secrets.h"
#include "trustcommand.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("mcplogincommand", text);
}

} // namespace

int mcpLoginCommand(const QString &projectDir, const QString &server, int timeoutSeconds, bool trust)
{
    int exitCode = ExitBadInput;
    const auto project = loadProjectToRun(QStringLiteral("mcp"), projectDir, trust, &exitCode);
    if (!project)
        return exitCode;
    const McpServerConfig *config = mcpServerNamed(*project, server, QStringLiteral("login"));
    if (!config)
        return ExitBadInput;
    if (config->transport != McpServerConfig::Transport::StreamableHttp) {
        printLine(stderr,
                  tr("toolstudio mcp login: %1 is not a remote (Streamable HTTP) server: there is nothing to sign in "
                     "to")
                      .arg(server));
        return ExitBadInput;
    }
    QStringList missing;
    const McpOAuthFlow::Settings settings = McpOAuthFlow::settingsFor(*config, project->dir, &missing);
    if (!missing.isEmpty()) {
        printLine(stderr,
                  tr("toolstudio mcp login: its oauth.client_secret names secrets that are not set: %1 (set them "
                     "with: toolstudio tools secret PROJECT NAME)")
                      .arg(missing.join(QStringLiteral(", "))));
        return ExitBadInput;
    }
    McpOAuthFlow flow(settings);
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    int result = ExitRunFailed;
    QObject::connect(&flow, &McpOAuthFlow::authorizationUrl, &loop, [&](const QUrl &url, const QString &redirect) {
        printLine(stdout, tr("Open this URL in a browser to sign in to %1:").arg(server));
        printLine(stdout, QStringLiteral("  ") + url.toString(QUrl::FullyEncoded));
        printLine(stdout,
                  tr("waiting for the browser to come back to %1 (at most %2 s)…").arg(redirect).arg(timeoutSeconds));
        timeout.start(timeoutSeconds * 1000);
    });
    QObject::connect(&timeout, &QTimer::timeout, &loop,
                     [&] { flow.abort(tr("no redirect came within %1 s (--timeout)").arg(timeoutSeconds)); });
    QObject::connect(&flow, &McpOAuthFlow::notNeeded, &loop, [&](int status) {
        printLine(stdout, tr("%1 answered HTTP %2 without a token: it needs no sign-in").arg(server).arg(status));
        result = ExitCompleted;
        loop.quit();
    });
    QObject::connect(&flow, &McpOAuthFlow::succeeded, &loop, [&] {
        const McpOAuthState &state = flow.state();
        printLine(stdout,
                  tr("signed in to %1: its tokens are saved with the project's secrets in %2 (mode 0600, not in "
                     "toolstudio.json)")
                      .arg(server, Secrets::filePath(project->dir)));
        printLine(stdout,
                  tr("the access token %1; a refresh token %2")
                      .arg(state.expiresAt > 0
                               ? tr("expires in %1 s")
                                     .arg(std::max<qint64>(
                                         0, (state.expiresAt - QDateTime::currentMSecsSinceEpoch() + 500) / 1000))
                               : tr("has no stated expiry"),
                           state.refreshToken.isEmpty() ? tr("was not given") : tr("is kept to renew it")));
        result = ExitCompleted;
        loop.quit();
    });
    QObject::connect(&flow, &McpOAuthFlow::failed, &loop, [&](const QString &why) {
        printLine(stderr, tr("toolstudio mcp login: the sign-in to %1 failed. Its steps:").arg(server));
        printLine(stderr, flow.log().text());
        printLine(stderr, tr("toolstudio mcp login: %1").arg(why));
        result = ExitRunFailed;
        loop.quit();
    });
    QTimer::singleShot(0, &flow, &McpOAuthFlow::start);
    loop.exec();
    return result;
}
