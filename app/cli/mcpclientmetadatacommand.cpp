// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpclientmetadatacommand.h"

#include "headlessrun.h"
#include "mcp/mcpoauthclientmetadata.h"
#include "mcp/mcpoauthredirect.h"
#include "mcpservernamed.h"
#include "project/project.h"

#include <QCoreApplication>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("mcpclientmetadatacommand", text);
}

} // namespace

int mcpClientMetadataCommand(const QString &projectDir, const QString &server, quint16 port)
{
    const auto project = loadProjectFor(QStringLiteral("mcp"), projectDir);
    if (!project)
        return ExitBadInput;
    const McpServerConfig *config = mcpServerNamed(*project, server, QStringLiteral("client-metadata"));
    if (!config)
        return ExitBadInput;
    if (config->transport != McpServerConfig::Transport::StreamableHttp) {
        printLine(stderr,
                  tr("toolstudio mcp client-metadata: %1 is not a remote (Streamable HTTP) server: there is nothing "
                     "to sign in to")
                      .arg(server));
        return ExitBadInput;
    }
    const McpServerConfig::OAuth &oauth = config->oauth;
    if (oauth.clientMetadataUrl.isEmpty()) {
        printLine(stderr,
                  tr("toolstudio mcp client-metadata: the entry of %1 names no oauth.client_metadata_url: choose the "
                     "https URL where you will host the document, add it to the entry as \"oauth\": "
                     "{\"client_metadata_url\": \"https://…\"}, and run this again (the document's client_id must be "
                     "that URL exactly)")
                      .arg(server));
        return ExitBadInput;
    }
    if (oauth.redirectPort != 0 && port != 0 && port != oauth.redirectPort) {
        printLine(stderr,
                  tr("toolstudio mcp client-metadata: --port %1 is not the entry's oauth.redirect_port (%2): the "
                     "document must name the port the studio listens on; change redirect_port, or leave --port out")
                      .arg(port)
                      .arg(oauth.redirectPort));
        return ExitBadInput;
    }
    const quint16 redirectPort = oauth.redirectPort != 0 ? oauth.redirectPort : port;
    const QString redirectUri = McpOAuthRedirect::redirectUri(redirectPort);
    writeOut(stdout,
             QByteArray::fromStdString(McpOAuthClientMetadata::describe(redirectUri, oauth.clientMetadataUrl).dump(2)
                                       + "\n"));
    printLine(stderr,
              tr("Host this document at %1 (as application/json, over https): the authorization server fetches it "
                 "when the studio signs in with that URL as its client_id.")
                  .arg(oauth.clientMetadataUrl));
    if (oauth.redirectPort != 0)
        printLine(stderr,
                  tr("The studio listens for the redirect on port %1 (oauth.redirect_port).").arg(redirectPort));
    else if (port != 0)
        printLine(stderr,
                  tr("Add \"redirect_port\": %1 to the entry's \"oauth\" so that the studio listens on that port.")
                      .arg(port));
    else
        printLine(stderr,
                  tr("Its redirect URI has no port: the studio listens on a port of the system's choice, which an "
                     "authorization server following RFC 8252 §7.3 accepts. One that compares redirect URIs exactly "
                     "refuses it: then set \"redirect_port\" in the entry's \"oauth\" and host the document printed "
                     "again."));
    return ExitCompleted;
}
