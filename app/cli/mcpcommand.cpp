// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpcommand.h"

#include "engine/toolcall.h"
#include "headlessrun.h"
#include "jsoninput.h"
#include "mcp/mcpacceptedtools.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcpexchangetext.h"
#include "mcp/mcpnpxinstall.h"
#include "mcp/mcpprojecttools.h"
#include "mcp/mcpserverlaunch.h"
#include "mcpacceptcommand.h"
#include "mcpcallprotocol.h"
#include "mcpclientmetadatacommand.h"
#include "mcpcompletecommand.h"
#include "mcpfeaturescommand.h"
#include "mcpimportcommand.h"
#include "mcplogincommand.h"
#include "mcpservernamed.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "python/secrets.h"
#include "questionprompt.h"
#include "trustcommand.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>

#include <algorithm>
#include <memory>

using nlohmann::json;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("mcpcommand", text);
}

/// What `mcp list` found out about one server.
struct ServerListing
{
    const McpServerConfig *config = nullptr;
    QString state; ///< "ready", "failed", "disabled"
    QString error;
    /// The transport the ready session used ("HTTP+SSE" for a typeless url server that
    /// fell back to it); "" until ready.
    QString transport;
    std::unique_ptr<McpClientSession> session;
    std::vector<json> tools;
    bool done = false;
    /// The tools that differ from what a person accepted (McpAcceptedTools), by the server's name.
    std::map<QString, McpToolChange> changes;
};

QString transportName(McpServerConfig::Transport transport)
{
    switch (transport) {
    case McpServerConfig::Transport::Stdio:
        return QStringLiteral("stdio");
    case McpServerConfig::Transport::StreamableHttp:
        return QStringLiteral("Streamable HTTP");
    case McpServerConfig::Transport::Sse:
        return QStringLiteral("HTTP+SSE");
    }
    return {};
}

/// Starts every listing's server; returns when each has listed its tools or failed.
void connectAll(std::vector<ServerListing> &listings, const Project &project, const Secrets &secrets)
{
    QEventLoop loop;
    int open = 0;
    const auto settle = [&](ServerListing &listing, const QString &state, const QString &error) {
        if (listing.done)
            return;
        listing.state = state;
        listing.error = error;
        listing.done = true;
        if (--open == 0)
            loop.quit();
    };
    for (ServerListing &listing : listings) {
        const McpServerConfig &config = *listing.config;
        if (config.disabled) {
            listing.state = QStringLiteral("disabled");
            continue;
        }
        if (const QString failed = McpNpxInstall::installIfNeeded(config,
                                                                  [](const QString &spec) {
                                                                      printLine(stderr,
                                                                                tr("toolstudio: installing %1 "
                                                                                   "with npm (once)…")
                                                                                    .arg(spec));
                                                                  });
            !failed.isEmpty()) {
            listing.state = QStringLiteral("failed");
            listing.error = tr("cannot start: %1").arg(failed);
            continue;
        }
        QString why;
        std::unique_ptr<McpTransport> transport = McpServerLaunch::transportFor(config, project.dir, secrets, &why);
        if (!transport) {
            listing.state = QStringLiteral("failed");
            listing.error = tr("cannot start: %1").arg(why);
            continue;
        }
        ++open;
        listing.session = std::make_unique<McpClientSession>(transport.release());
        McpClientSession *session = listing.session.get();
        QObject::connect(session, &McpClientSession::failed, session,
                         [&, l = &listing](const QString &reason) { settle(*l, QStringLiteral("failed"), reason); });
        QObject::connect(session, &McpClientSession::ready, session, [&, l = &listing, session] {
            session->listTools([&, l](const std::vector<json> &tools, const McpReply &reply) {
                if (!reply.ok()) {
                    settle(*l, QStringLiteral("failed"), tr("tools/list failed: %1").arg(reply.errorText()));
                    return;
                }
                l->tools = tools;
                l->transport = l->session->transport()->transportName();
                settle(*l, QStringLiteral("ready"), QString());
            });
        });
        session->open();
    }
    if (open > 0)
        loop.exec();
    for (ServerListing &listing : listings)
        if (listing.session)
            listing.session->close();
}

QString text(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

json toJson(const ServerListing &listing)
{
    json server
        = {{"name", listing.config->name.toStdString()},
           {"transport",
            (listing.transport.isEmpty() ? transportName(listing.config->transport) : listing.transport).toStdString()},
           {"state", listing.state.toStdString()}};
    if (!listing.error.isEmpty())
        server["error"] = listing.error.toStdString();
    if (listing.session && listing.state == QLatin1String("ready")) {
        server["protocol_version"] = listing.session->protocolVersion().toStdString();
        server["era"] = listing.session->era().toStdString(); // "modern" (2026, stateless) or "legacy"
        server["server_info"] = listing.session->serverInfo();
    }
    if (listing.session && !listing.session->rejectedTools().isEmpty()) {
        json rejected = json::array();
        for (const QString &tool : listing.session->rejectedTools())
            rejected.push_back(tool.toStdString());
        server["rejected_tools"] = rejected; // left out for their x-mcp-header parameters
    }
    json tools = json::array();
    for (const json &tool : listing.tools) {
        const QString name = text(tool, "name");
        json entry = tool;
        entry["server_tool"] = name.toStdString();
        entry["name"] = McpServerConfig::toolName(listing.config->name, name).toStdString();
        const auto change = listing.changes.find(name);
        entry["acceptance"] = change == listing.changes.end() ? "accepted" : change->second.isNew ? "new" : "changed";
        if (change != listing.changes.end() && !change->second.isNew) {
            json parts = json::array();
            for (const QString &part : change->second.parts)
                parts.push_back(part.toStdString());
            entry["changed"] = std::move(parts);
        }
        tools.push_back(std::move(entry));
    }
    server["tools"] = std::move(tools);
    return server;
}

void printListing(const ServerListing &listing)
{
    const McpServerConfig &config = *listing.config;
    QString head = QStringLiteral("%1  %2").arg(config.name, listing.state);
    if (listing.session && listing.state == QLatin1String("ready")) {
        const json &info = listing.session->serverInfo();
        // The era shows with the revision, and the older HTTP+SSE transport when in use.
        QStringList notes;
        if (listing.session->stateless())
            notes << QStringLiteral("stateless");
        if (listing.transport == QLatin1String("HTTP+SSE"))
            notes << listing.transport;
        const QString version = notes.isEmpty()
            ? listing.session->protocolVersion()
            : QStringLiteral("%1 (%2)").arg(listing.session->protocolVersion(), notes.join(QStringLiteral(", ")));
        head += QStringLiteral("  MCP %1  %2 %3  %4 tool(s)")
                    .arg(version, elidedText(text(info, "name"), 80), elidedText(text(info, "version"), 40))
                    .arg(listing.tools.size());
    }
    printLine(stdout, head);
    if (!listing.error.isEmpty())
        printLine(stdout, QStringLiteral("  ") + printableLines(listing.error).replace(u'\n', QStringLiteral("\n  ")));
    if (listing.session && listing.session->droppedListEntries() > 0)
        printLine(stdout,
                  tr("  (%1 entries of its tools/list are not tools, not an object with a string name: "
                     "left out)")
                      .arg(listing.session->droppedListEntries()));
    if (listing.session)
        for (const QString &again : listing.session->duplicateToolNames())
            printLine(stdout,
                      tr("  (the tool %1 is listed more than once: the first is kept)")
                          .arg(elidedText(McpServerConfig::toolName(config.name, again))));
    if (listing.session)
        for (const QString &rejected : listing.session->rejectedTools())
            printLine(
                stdout,
                tr("  (left out: its x-mcp-header parameters break the rules of MCP 2026-07-28: %1)").arg(rejected));
    for (const json &tool : listing.tools) {
        const QString name = McpServerConfig::toolName(config.name, text(tool, "name"));
        QString line = QStringLiteral("  ") + elidedText(name);
        if (!Tool::isValidName(name))
            line += tr("  (not a valid tool name: scripts cannot call it)");
        const QString description = text(tool, "description").section(u'\n', 0, 0).trimmed();
        if (!description.isEmpty())
            line += QStringLiteral("  ") + elidedText(description, 100);
        if (const auto change = listing.changes.find(text(tool, "name")); change != listing.changes.end())
            line += change->second.isNew ? tr("  (new since the server's tools were accepted)")
                                         : tr("  (changed since accepted: %1)").arg(change->second.summary());
        printLine(stdout, line);
    }
}

/// The first listing of a server accepts its tools (McpAcceptedTools::observe); every
/// listing gets the tools that differ from what was accepted.
void markChanges(std::vector<ServerListing> &listings, const QString &projectDir)
{
    McpAcceptedTools accepted;
    accepted.load(projectDir);
    bool observed = false;
    for (ServerListing &listing : listings)
        if (listing.state == QLatin1String("ready"))
            observed = accepted.observe(listing.config->name, listing.tools) || observed;
    QString error;
    if (observed && !accepted.save(projectDir, &error))
        printLine(stderr, tr("toolstudio mcp: warning: %1").arg(printableLines(error)));
    if (!accepted.error().isEmpty())
        printLine(stderr,
                  tr("toolstudio mcp: warning: %1; no MCP tool is called until `toolstudio mcp accept` writes a new "
                     "record")
                      .arg(printableLines(accepted.error())));
    for (ServerListing &listing : listings)
        if (listing.state == QLatin1String("ready"))
            for (McpToolChange &change : accepted.changes(listing.config->name, listing.tools))
                listing.changes.emplace(change.tool, std::move(change));
}

int listServers(const QStringList &positional, bool asJson, bool trust)
{
    int exitCode = ExitBadInput;
    const auto project = loadProjectToRun(QStringLiteral("mcp"), positional.at(1), trust, &exitCode);
    if (!project)
        return exitCode;
    if (project->mcpServers.empty()) {
        printLine(stderr,
                  tr("toolstudio mcp: the project has no mcp_servers in toolstudio.json (docs/mcp.md shows "
                     "how to add one)"));
        return asJson ? (printLine(stdout, QStringLiteral("[]")), ExitCompleted) : ExitCompleted;
    }
    QString secretsError;
    const Secrets secrets = Secrets::load(project->dir, &secretsError);
    if (!secretsError.isEmpty())
        printLine(stderr, tr("toolstudio mcp: warning: %1").arg(secretsError));

    std::vector<ServerListing> listings(project->mcpServers.size());
    for (std::size_t i = 0; i < listings.size(); ++i)
        listings[i].config = &project->mcpServers[i];
    connectAll(listings, *project, secrets);
    markChanges(listings, project->dir);

    bool failed = false;
    json all = json::array();
    for (const ServerListing &listing : listings) {
        failed = failed || listing.state == QLatin1String("failed");
        if (asJson)
            all.push_back(toJson(listing));
        else
            printListing(listing);
    }
    if (asJson)
        writeOut(stdout, printableJson(all) + '\n');
    return failed ? ExitRunFailed : ExitCompleted;
}

/// `mcp call PROJECT SERVER TOOL --args JSON`: one call of SERVER__TOOL through the
/// engine (validation, retries, timeouts), journaled as a one-step run like Try it,
/// labelled "(mcp call SERVER TOOL)" in the runs.
int callTool(const QStringList &positional, const QString &argsText, bool trust, bool protocol)
{
    JsonInput::Problem problem;
    const json args = JsonInput::read<json>(argsText.toStdString(), &problem);
    if (!problem.reason.empty()) {
        printLine(stderr,
                  tr("toolstudio mcp call: %1; pass an object, e.g. --args '{\"message\": \"hi\"}'")
                      .arg(QString::fromStdString(JsonInput::describe("--args", problem))));
        return ExitBadInput;
    }
    if (!args.is_object()) {
        printLine(stderr, tr("toolstudio mcp call: --args must be a JSON object, e.g. --args '{\"message\": \"hi\"}'"));
        return ExitBadInput;
    }
    int exitCode = ExitBadInput;
    auto project = loadProjectToRun(QStringLiteral("mcp"), positional.at(1), trust, &exitCode);
    if (!project)
        return exitCode;
    const QString server = positional.at(2);
    const McpServerConfig *config = mcpServerNamed(*project, server, QStringLiteral("call"));
    if (!config)
        return ExitBadInput;
    for (const QString &problem : McpProjectTools::connectAndAdd(*project, [](const QString &note) {
             printLine(stderr, QStringLiteral("toolstudio mcp call: %1").arg(note));
         }))
        printLine(stderr, tr("toolstudio mcp call: warning: %1").arg(problem));
    const QString tool = McpServerConfig::toolName(server, positional.at(3));
    DirectToolCall call;
    call.setScriptPath(QStringLiteral("(mcp call %1 %2)").arg(server, positional.at(3)));
    QEventLoop loop;
    std::optional<Step> step;
    QString runId;
    QObject::connect(&call, &DirectToolCall::finished, &loop, [&](const Step &done, const RunRecord &run) {
        step = done;
        runId = run.id;
        loop.quit();
    });
    // A server's request for input (elicitation, sampling) waits for `toolstudio answer`.
    QObject::connect(&call, &DirectToolCall::pendingCallOpened, &loop, [&project](const Step &asked) {
        const Attempt *attempt = asked.currentAttempt();
        if (!attempt || !attempt->question)
            return;
        printLine(stderr, QuestionPrompt::questionText(QStringLiteral("mcp call"), *attempt->question));
        printLine(stderr, waitsForAnswerText(QStringLiteral("mcp call"), project->dir, asked, attempt->number));
    });
    // --protocol: each attempt's JSON-RPC messages as they come (the Protocol tab's rows).
    std::unique_ptr<McpCallProtocol> rows;
    if (protocol) {
        rows = std::make_unique<McpCallProtocol>(project->dir);
        QObject::connect(&call, &DirectToolCall::stepChanged, rows.get(), &McpCallProtocol::follow);
    }
    QString error;
    if (!call.start(*project, tool, args, &error)) {
        printLine(stderr, tr("toolstudio mcp call: %1").arg(error));
        return ExitBadInput;
    }
    if (!step) // a refusal (unknown tool, invalid arguments) may finish inside start()
        loop.exec();
    if (rows)
        rows->follow(*step); // what the last attempt's record has past the rows printed
    printLine(stderr, tr("run %1").arg(runId));
    // What the server wrote to its stderr during each attempt (printable: server text).
    for (const Attempt &attempt : step->attempts)
        if (!attempt.output.isEmpty())
            printLine(stderr,
                      tr("attempt %1 output:\n%2")
                          .arg(attempt.number)
                          .arg(printableLines(QString::fromUtf8(attempt.output)).trimmed()));
    if (step->status != StepStatus::Succeeded || !step->result) {
        printLine(stderr,
                  tr("toolstudio mcp call: %1 failed after %2 attempt(s): %3")
                      .arg(elidedText(tool))
                      .arg(step->attempts.size())
                      .arg(step->error ? printableLines(step->error->text()) : tr("no result")));
        return ExitRunFailed;
    }
    writeOut(stdout, printableJson(*step->result) + '\n');
    return ExitCompleted;
}

} // namespace

int mcpCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "MCP servers of a project (toolstudio.json's mcp_servers).\n"
        "  list PROJECT              start each server, list its tools as scripts name them (SERVER__TOOL)\n"
        "  accept PROJECT SERVER [TOOL...]\n"
        "                            show what changed in the server's tools since they were accepted\n"
        "                            and accept it (every changed tool, or the TOOLs named)\n"
        "  call PROJECT SERVER TOOL  call one tool (--args JSON), journaled as a one-step run\n"
        "  resources PROJECT SERVER  list the server's resources and templates, or read one (--read URI),\n"
        "                            or complete a template's variable (--complete TEMPLATE_URI VARIABLE\n"
        "                            [PREFIX] [--args JSON])\n"
        "  prompts PROJECT SERVER    list the server's prompts, or get one (--get NAME --args JSON), or\n"
        "                            complete an argument (--complete NAME ARGUMENT [PREFIX] [--args JSON])\n"
        "  login PROJECT SERVER      sign in to a remote server that asks for it (OAuth): prints the URL to\n"
        "                            open, waits for the browser (--timeout SECONDS, default 300)\n"
        "  client-metadata PROJECT SERVER\n"
        "                            print the client ID metadata document to host at the server's\n"
        "                            oauth.client_metadata_url (--port N: the redirect port it names)\n"
        "  import PROJECT FILE       add the servers of a Claude Desktop, Cursor, Claude Code or VS Code\n"
        "                            MCP config (claude_desktop_config.json, .mcp.json, .vscode/mcp.json)"));
    parser.addPositionalArgument(
        QStringLiteral("SUBCOMMAND"),
        QStringLiteral("list, accept, call, resources, prompts, login, client-metadata or import."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
    parser.addPositionalArgument(QStringLiteral("[ARGS]"),
                                 QStringLiteral("call: SERVER TOOL; accept: SERVER [TOOL...]; resources, prompts, "
                                                "login, client-metadata: SERVER; import: FILE; --complete: "
                                                "SERVER ARGUMENT [PREFIX]."));
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        QStringLiteral("Print JSON (list: servers and their tools; accept: the tools accepted; resources, prompts: "
                       "what the server gave)."));
    const QCommandLineOption argsOption(
        QStringLiteral("args"),
        QStringLiteral("call: the arguments, a JSON object (default {}); prompts --get: the prompt's arguments, a JSON "
                       "object of strings; --complete: the other arguments or variables filled in (the context)."),
        QStringLiteral("JSON"));
    const QCommandLineOption readOption(QStringLiteral("read"),
                                        QStringLiteral("resources: read the resource URI and print its contents."),
                                        QStringLiteral("URI"));
    const QCommandLineOption getOption(QStringLiteral("get"),
                                       QStringLiteral("prompts: get the prompt NAME and print its messages."),
                                       QStringLiteral("NAME"));
    const QCommandLineOption completeOption(
        QStringLiteral("complete"),
        QStringLiteral("prompts: complete ARGUMENT of the prompt NAME from the PREFIX typed so far (--complete NAME "
                       "ARGUMENT [PREFIX]); resources: a variable of the template TEMPLATE_URI (or its name) "
                       "(--complete TEMPLATE_URI VARIABLE [PREFIX]). Prints the server's values, one a line."),
        QStringLiteral("NAME|TEMPLATE_URI"));
    const QCommandLineOption replaceOption(
        QStringLiteral("replace"), QStringLiteral("import: overwrite servers of the same name (default: skip them)."));
    const QCommandLineOption protocolOption(
        QStringLiteral("protocol"),
        QStringLiteral("call: print each attempt's JSON-RPC messages (sent →, received ←) to stderr."));
    const QCommandLineOption timeoutOption(
        QStringLiteral("timeout"), QStringLiteral("login: seconds to wait for the browser's redirect (default 300)."),
        QStringLiteral("SECONDS"), QStringLiteral("300"));
    const QCommandLineOption portOption(
        QStringLiteral("port"),
        QStringLiteral("client-metadata: the loopback port the document's redirect URI names, when the entry has no "
                       "oauth.redirect_port (then add it there)."),
        QStringLiteral("N"));
    parser.addOptions({jsonOption, argsOption, readOption, getOption, completeOption, replaceOption, protocolOption,
                       timeoutOption, portOption, trustOption()});
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("mcp"), arguments, 2, 4 + 256, &exitCode);
    if (!positional)
        return exitCode;
    const QString verb = positional->first();
    if (verb == QLatin1String("list") && positional->size() == 2)
        return listServers(*positional, parser.isSet(jsonOption), parser.isSet(trustOption()));
    if (verb == QLatin1String("accept") && positional->size() >= 3 && !parser.isSet(argsOption))
        return acceptMcpTools(positional->at(1), positional->at(2), positional->mid(3), parser.isSet(jsonOption),
                              parser.isSet(trustOption()));
    if (verb == QLatin1String("call") && positional->size() == 4)
        return callTool(*positional, parser.isSet(argsOption) ? parser.value(argsOption) : QStringLiteral("{}"),
                        parser.isSet(trustOption()), parser.isSet(protocolOption));
    if ((verb == QLatin1String("resources") || verb == QLatin1String("prompts")) && parser.isSet(completeOption)
        && (positional->size() == 4 || positional->size() == 5) && !parser.isSet(readOption)
        && !parser.isSet(getOption))
        return mcpCompleteCommand(positional->at(1), positional->at(2),
                                  {verb == QLatin1String("prompts") ? McpCompletionRef::Kind::Prompt
                                                                    : McpCompletionRef::Kind::ResourceTemplate,
                                   parser.value(completeOption)},
                                  positional->at(3), positional->value(4),
                                  parser.isSet(argsOption) ? parser.value(argsOption) : QString(),
                                  parser.isSet(jsonOption), parser.isSet(trustOption()));
    if (verb == QLatin1String("resources") && positional->size() == 3 && !parser.isSet(getOption)
        && !parser.isSet(argsOption) && !parser.isSet(completeOption))
        return mcpResourcesCommand(positional->at(1), positional->at(2),
                                   parser.isSet(readOption) ? parser.value(readOption) : QString(),
                                   parser.isSet(jsonOption), parser.isSet(trustOption()));
    if (verb == QLatin1String("prompts") && positional->size() == 3 && !parser.isSet(readOption)
        && !parser.isSet(completeOption) && (parser.isSet(getOption) || !parser.isSet(argsOption)))
        return mcpPromptsCommand(positional->at(1), positional->at(2),
                                 parser.isSet(getOption) ? parser.value(getOption) : QString(),
                                 parser.isSet(argsOption) ? parser.value(argsOption) : QString(),
                                 parser.isSet(jsonOption), parser.isSet(trustOption()));
    if (verb == QLatin1String("login") && positional->size() == 3) {
        bool ok = false;
        const int seconds = parser.value(timeoutOption).toInt(&ok);
        if (!ok || seconds < 1 || seconds > 86400) {
            printLine(stderr, tr("toolstudio mcp login: --timeout takes seconds, 1 to 86400"));
            return ExitBadInput;
        }
        return mcpLoginCommand(positional->at(1), positional->at(2), seconds, parser.isSet(trustOption()));
    }
    if (verb == QLatin1String("client-metadata") && positional->size() == 3) {
        bool ok = true;
        const int port = parser.isSet(portOption) ? parser.value(portOption).toInt(&ok) : 0;
        if (!ok || (parser.isSet(portOption) && (port < 1024 || port > 65535))) {
            printLine(stderr, tr("toolstudio mcp client-metadata: --port takes a port, 1024 to 65535"));
            return ExitBadInput;
        }
        return mcpClientMetadataCommand(positional->at(1), positional->at(2), quint16(port));
    }
    if (verb == QLatin1String("import") && positional->size() == 3)
        return importMcpConfig(positional->at(1), positional->at(2), parser.isSet(replaceOption));
    if (verb == QLatin1String("resources") || verb == QLatin1String("prompts")) {
        printLine(stderr,
                  verb == QLatin1String("resources")
                      ? tr("toolstudio mcp resources: usage: toolstudio mcp resources PROJECT SERVER [--read URI | "
                           "--complete TEMPLATE_URI VARIABLE [PREFIX] [--args JSON]] [--json]")
                      : tr("toolstudio mcp prompts: usage: toolstudio mcp prompts PROJECT SERVER [--get NAME "
                           "[--args JSON] | --complete NAME ARGUMENT [PREFIX] [--args JSON]] [--json]"));
        return ExitBadInput;
    }
    if (verb == QLatin1String("list") || verb == QLatin1String("call") || verb == QLatin1String("import")
        || verb == QLatin1String("accept") || verb == QLatin1String("client-metadata")) {
        printLine(stderr,
                  verb == QLatin1String("list") ? tr("toolstudio mcp list: usage: toolstudio mcp list PROJECT")
                      : verb == QLatin1String("client-metadata")
                      ? tr("toolstudio mcp client-metadata: usage: toolstudio mcp client-metadata PROJECT SERVER "
                           "[--port N]")
                      : verb == QLatin1String("accept")
                      ? tr("toolstudio mcp accept: usage: toolstudio mcp accept PROJECT SERVER [TOOL...] [--json]")
                      : verb == QLatin1String("call")
                      ? tr("toolstudio mcp call: usage: toolstudio mcp call PROJECT SERVER TOOL [--args JSON]")
                      : tr("toolstudio mcp import: usage: toolstudio mcp import PROJECT FILE [--replace]"));
        return ExitBadInput;
    }
    printLine(stderr,
              tr("toolstudio mcp: unknown subcommand \"%1\" (there are: list, accept, call, resources, prompts, "
                 "login, client-metadata, import)")
                  .arg(elidedText(verb, 40)));
    return ExitBadInput;
}
