// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpfeaturessession.h"

#include "headlessrun.h"
#include "jsoninput.h"
#include "mcp/mcpnpxinstall.h"
#include "mcp/mcpserverlaunch.h"
#include "mcpservernamed.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "python/secrets.h"
#include "trustcommand.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QObject>

using nlohmann::json;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("mcpfeaturescommand", text);
}

} // namespace

void waitFor(const bool &done)
{
    QEventLoop loop;
    while (!done)
        loop.processEvents(QEventLoop::WaitForMoreEvents);
}

std::unique_ptr<McpClientSession> openMcpFeaturesServer(const QString &command, const QString &projectDir,
                                                        const QString &name, bool trust, int *exitCode)
{
    const QString prefix = QStringLiteral("toolstudio mcp %1: ").arg(command);
    const auto project = loadProjectToRun(QStringLiteral("mcp"), projectDir, trust, exitCode);
    if (!project)
        return nullptr;
    const McpServerConfig *config = mcpServerNamed(*project, name, command);
    if (!config) {
        *exitCode = ExitBadInput;
        return nullptr;
    }
    if (config->disabled) {
        printLine(stderr, prefix + tr("MCP server '%1' is disabled in toolstudio.json").arg(name));
        *exitCode = ExitRunFailed;
        return nullptr;
    }
    QString secretsError;
    const Secrets secrets = Secrets::load(project->dir, &secretsError);
    if (!secretsError.isEmpty())
        printLine(stderr, prefix + tr("warning: %1").arg(secretsError));
    if (const QString failed
        = McpNpxInstall::installIfNeeded(*config,
                                         [&prefix](const QString &spec) {
                                             printLine(stderr, prefix + tr("installing %1 with npm (once)…").arg(spec));
                                         });
        !failed.isEmpty()) {
        printLine(stderr, prefix + tr("MCP server '%1' cannot start: %2").arg(name, printableLines(failed)));
        *exitCode = ExitRunFailed;
        return nullptr;
    }
    QString why;
    std::unique_ptr<McpTransport> transport = McpServerLaunch::transportFor(*config, project->dir, secrets, &why);
    if (!transport) {
        printLine(stderr, prefix + tr("MCP server '%1' cannot start: %2").arg(name, printableLines(why)));
        *exitCode = ExitRunFailed;
        return nullptr;
    }
    auto session = std::make_unique<McpClientSession>(transport.release());
    bool settled = false;
    // Connected for this wait only: a later ready() (the session opened again) must not
    // reach `settled` once this function returned (attack37 note).
    QObject waiting;
    QObject::connect(session.get(), &McpClientSession::ready, &waiting, [&settled] { settled = true; });
    QObject::connect(session.get(), &McpClientSession::failed, &waiting, [&settled] { settled = true; });
    session->open();
    waitFor(settled);
    if (session->state() != McpClientSession::State::Ready) {
        printLine(stderr, prefix + tr("MCP server '%1' failed: %2").arg(name, printableLines(session->failure())));
        *exitCode = ExitRunFailed;
        return nullptr;
    }
    return session;
}

bool readStringArguments(const QString &command, const QString &argsText, QMap<QString, QString> *arguments)
{
    const QString prefix = QStringLiteral("toolstudio mcp %1: ").arg(command);
    JsonInput::Problem problem;
    const json args = JsonInput::read<json>(argsText.toStdString(), &problem);
    if (!problem.reason.empty()) {
        printLine(stderr,
                  prefix
                      + tr("%1; pass an object of strings, e.g. --args '{\"city\": \"Paris\"}'")
                            .arg(QString::fromStdString(JsonInput::describe("--args", problem))));
        return false;
    }
    bool strings = args.is_object();
    for (auto it = args.begin(); strings && it != args.end(); ++it) {
        strings = it->is_string();
        if (strings)
            arguments->insert(QString::fromStdString(it.key()), QString::fromStdString(it->get<std::string>()));
    }
    if (!strings)
        printLine(stderr,
                  prefix
                      + tr("--args must be a JSON object of strings (MCP prompt arguments and template variables are "
                           "strings), e.g. --args '{\"city\": \"Paris\"}'"));
    return strings;
}
