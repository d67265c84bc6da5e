// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servecommand.h"

#include "headlessrun.h"
#include "manifestwatch.h"
#include "mcp/mcpprojecttools.h"
#include "mcpserversession.h"
#include "mcpstdioserver.h"
#include "mcpstudiotools.h"
#include "servedstepmode.h"
#include "studioserver.h"
#include "trustcommand.h"

#include "project/printabletext.h"
#include "project/projecttrust.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QSocketNotifier>

#include <functional>
#include <memory>
#include <utility>

#include <csignal>

#include <sys/signalfd.h>
#include <unistd.h>

namespace {

/// The served project loaded again after its manifest changed (docs/server.md "When the
/// project changes"), through the loader and trust check the start used; std::nullopt
/// after one line on stderr saying why the tools before the change are still served.
std::optional<Project> reloadServed(const QString &dir, bool studioTools)
{
    const auto refuse = [](const QString &why) {
        printLine(stderr,
                  QStringLiteral("toolstudio serve: toolstudio.json changed, but %1; the tools before the change are "
                                 "still served")
                      .arg(why));
        return std::nullopt;
    };
    ProjectError error;
    std::optional<Project> project = Project::load(dir, &error);
    if (!project)
        return refuse(QStringLiteral("it cannot be loaded: %1").arg(error.toString()));
    if (!project->trusted) {
        // The grant (--trust or toolstudio trust) is bound to what the project runs: a
        // change of that is not served trusted without being asked again.
        const ProjectTrust::Check check = ProjectTrust::check(dir);
        const QString added = check.added.isEmpty()
            ? QString()
            : QStringLiteral(" (now also: %1)").arg(printableText(check.added.join(QStringLiteral("; ")).left(300)));
        return refuse(QStringLiteral("what the project runs changed since it was trusted%1; check the change and "
                                     "restart with --trust to serve it")
                          .arg(added));
    }
    if (const QStringList clashes = McpStudioTools::clashes(*project); studioTools && !clashes.isEmpty())
        return refuse(QStringLiteral("its tool(s) %1 start with \"studio.\", the prefix of --studio-tools")
                          .arg(printableText(clashes.join(QStringLiteral(", ")))));
    for (const QString &problem : McpProjectTools::connectAndAdd(*project))
        printLine(stderr, QStringLiteral("toolstudio serve: warning: %1").arg(problem));
    return project;
}

/// The line a reload prints on stderr.
QString reloadedLine(const Project &project, bool changed)
{
    int active = 0;
    for (const Tool &tool : project.tools)
        active += tool.active ? 1 : 0;
    return changed
        ? QStringLiteral("toolstudio serve: toolstudio.json changed: serving %1 tool(s) from now on").arg(active)
        : QStringLiteral("toolstudio serve: toolstudio.json changed; the tools served are the same");
}

/// Runs `reload` on each change of the watched manifest, one at a time: a reload waits
/// for the project's MCP servers in a nested event loop, where the next change can come;
/// that one is run after it, so the last save is what is served and reloads never nest
/// (attack27 F4).
void reloadOnChange(ManifestWatch &watch, QObject *context, std::function<void()> reload)
{
    auto state = std::make_shared<std::pair<bool, bool>>(false, false); // running, again
    QObject::connect(&watch, &ManifestWatch::changed, context, [state, reload = std::move(reload)] {
        auto &[running, again] = *state;
        if (running) {
            again = true;
            return;
        }
        running = true;
        do {
            again = false;
            reload();
        } while (again);
        running = false;
    });
}

/// `serve --mcp-stdio`: one MCP session on stdin/stdout until stdin ends or a signal
/// comes. stdout carries the protocol only.
int serveMcpStdio(const Project &project, bool studioTools)
{
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    const int signalFd = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    QEventLoop loop;
    McpServerSession session(project, QStringLiteral("stdio"));
    if (studioTools)
        session.enableStudioTools();
    session.setListChangedNotices(true);
    McpStdioServer server(&session, STDIN_FILENO, STDOUT_FILENO);
    ManifestWatch watch(project.dir);
    reloadOnChange(watch, &loop, [&session, &project, studioTools] {
        if (const std::optional<Project> reloaded = reloadServed(project.dir, studioTools))
            printLine(stderr, reloadedLine(*reloaded, session.setProject(*reloaded)));
    });
    QString ended;
    server.onEnded = [&loop, &ended](const QString &why) {
        ended = why;
        loop.quit();
    };
    QSocketNotifier notifier(signalFd, QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &loop, [&loop, &ended, signalFd] {
        signalfd_siginfo info = {};
        while (::read(signalFd, &info, sizeof info) == sizeof info) {}
        ended = QStringLiteral("the server was stopped (signal)");
        loop.quit();
    });
    printLine(stderr, QStringLiteral("toolstudio serve: serving the tools of %1 over MCP on stdio").arg(project.dir));
    server.start();
    loop.exec();
    session.end(ended);
    ::close(signalFd);
    ::pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
    printLine(
        stderr,
        QStringLiteral("toolstudio serve: MCP session ended: %1%2")
            .arg(ended, session.runId().isEmpty() ? QString() : QStringLiteral(" (run %1)").arg(session.runId())));
    return ExitCompleted;
}

} // namespace

int serveCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Serve a project over HTTP (docs/server.md)."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
    const QCommandLineOption portOption(QStringLiteral("port"), QStringLiteral("The TCP port (default 3112)."),
                                        QStringLiteral("PORT"), QStringLiteral("3112"));
    const QCommandLineOption hostOption(QStringLiteral("host"),
                                        QStringLiteral("The address to bind (default 127.0.0.1, loopback only); "
                                                       "any other needs --token-file."),
                                        QStringLiteral("HOST"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption tokenOption(
        QStringLiteral("token-file"),
        QStringLiteral("A file holding the token every request must send as 'Authorization: Bearer TOKEN'."),
        QStringLiteral("FILE"));
    const QCommandLineOption callTimeoutOption(
        QStringLiteral("call-timeout"),
        QStringLiteral("How long a served tool call waits for the client's result, in seconds (default 300)."),
        QStringLiteral("SECONDS"), QStringLiteral("300"));
    const QCommandLineOption expiryOption(
        QStringLiteral("session-expiry"),
        QStringLiteral("How long a paused session waits for its continuation, in seconds (default 600)."),
        QStringLiteral("SECONDS"), QStringLiteral("600"));
    const QCommandLineOption mcpStdioOption(
        QStringLiteral("mcp-stdio"),
        QStringLiteral("Serve the project's tools to one MCP client on stdin/stdout instead of HTTP (for configs "
                       "such as Claude Desktop's); logs go to stderr."));
    const QCommandLineOption studioToolsOption(
        QStringLiteral("studio-tools"),
        QStringLiteral("Serve, over MCP, four tools beside the project's for a coding agent: studio.list_runs, "
                       "studio.get_run, studio.list_pending_calls and studio.answer_call."));
    const QCommandLineOption stepModeOption(
        QStringLiteral("step-mode"),
        QStringLiteral("Hold every MCP client's tool call before it runs until a person decides it: POST "
                       "/v1/runs/RUN/calls/CALL/decision with {\"decision\": \"continue\"}, \"answer\" (with "
                       "\"result\"), \"fail\" (with \"error\") or \"time_out\"; GET /v1/runs/RUN/pending lists "
                       "the held calls. Not with --mcp-stdio."));
    parser.addOptions({portOption, hostOption, tokenOption, callTimeoutOption, expiryOption, mcpStdioOption,
                       studioToolsOption, stepModeOption, trustOption()});
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("serve"), arguments, 1, 1, &exitCode);
    if (!positional)
        return exitCode;
    auto fail = [](const QString &message, int code) {
        printLine(stderr, QStringLiteral("toolstudio serve: %1").arg(message));
        return code;
    };
    HttpServerConfig config;
    bool portOk = false;
    config.port = parser.value(portOption).toInt(&portOk);
    if (!portOk || config.port < 1 || config.port > 65535)
        return fail(QStringLiteral("--port must be a number from 1 to 65535, not '%1'").arg(parser.value(portOption)),
                    ExitBadInput);
    config.host = parser.value(hostOption).toStdString();
    ProgrammaticLimits limits;
    for (const auto &[option, target] : {std::pair{&callTimeoutOption, &limits.callWaitSeconds},
                                         std::pair{&expiryOption, &limits.sessionExpirySeconds}}) {
        bool ok = false;
        *target = parser.value(*option).toInt(&ok);
        if (!ok || *target < 1 || *target > 86400)
            return fail(QStringLiteral("--%1 must be a number of seconds from 1 to 86400, not '%2'")
                            .arg(option->names().constFirst(), parser.value(*option)),
                        ExitBadInput);
    }
    if (parser.isSet(tokenOption)) {
        QString error;
        config.token = StudioServer::readToken(parser.value(tokenOption), &error);
        if (config.token.empty())
            return fail(error, ExitBadInput);
    }
    if (const QString refusal = StudioServer::tokenRefusal(config.host, !config.token.empty(),
                                                           QStringLiteral("--host %1").arg(parser.value(hostOption)),
                                                           QStringLiteral("--token-file FILE"));
        !refusal.isEmpty())
        return fail(refusal, ExitBadInput);

    const auto project = loadProjectToRun(QStringLiteral("serve"), positional->at(0),
                                          parser.isSet(QStringLiteral("trust")), &exitCode);
    if (!project)
        return exitCode;
    const bool studioTools = parser.isSet(studioToolsOption);
    if (const QStringList clashes = McpStudioTools::clashes(*project); studioTools && !clashes.isEmpty())
        return fail(QStringLiteral("--studio-tools: the project's tool(s) %1 start with \"studio.\", the studio "
                                   "tools' prefix; rename them, or serve without --studio-tools")
                        .arg(clashes.join(QStringLiteral(", "))),
                    ExitBadInput);
    if (parser.isSet(mcpStdioOption) && parser.isSet(stepModeOption))
        return fail(QStringLiteral("--step-mode holds calls for a decision over HTTP (POST "
                                   "/v1/runs/RUN/calls/CALL/decision), which --mcp-stdio does not serve; serve over "
                                   "HTTP to step through calls"),
                    ExitBadInput);
    if (parser.isSet(mcpStdioOption))
        return serveMcpStdio(*project, studioTools);
    // SIGINT and SIGTERM end the loop through a signalfd; blocked before the HTTP
    // threads start, so they inherit the mask and never take the signal themselves.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    const int signalFd = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);

    StudioServer server;
    server.setStudioTools(studioTools);
    server.stepMode()->setOn(parser.isSet(stepModeOption));
    QString error;
    bool cannotListen = false;
    if (!server.start(*project, config, limits, &error, &cannotListen)) {
        ::close(signalFd);
        ::pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
        return fail(error, cannotListen ? ExitCannotListen : ExitBadInput);
    }
    if (const QString warning = StudioServer::noTlsWarning(QString::fromStdString(config.host)); !warning.isEmpty())
        printLine(stderr, QStringLiteral("toolstudio serve: warning: %1").arg(warning));
    printLine(
        stdout,
        QStringLiteral("serving %1 at %2 (GET / lists the routes; Ctrl-C stops)").arg(project->dir, server.url()));
    if (server.stepMode()->isOn())
        printLine(stdout,
                  QStringLiteral("step mode: every MCP tool call is held until POST "
                                 "%1/v1/runs/RUN/calls/CALL/decision decides it (toolstudio answer PROJECT RUN "
                                 "CALL --continue)")
                      .arg(server.url()));

    QEventLoop loop;
    ManifestWatch watch(project->dir);
    reloadOnChange(watch, &loop, [&server, dir = project->dir, studioTools] {
        if (const std::optional<Project> reloaded = reloadServed(dir, studioTools))
            printLine(stderr, reloadedLine(*reloaded, server.setProject(*reloaded)));
    });
    QSocketNotifier notifier(signalFd, QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &loop, [&loop, signalFd] {
        signalfd_siginfo info = {};
        while (::read(signalFd, &info, sizeof info) == sizeof info) {}
        loop.quit();
    });
    loop.exec();
    server.stop();
    ::close(signalFd);
    ::pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
    printLine(stdout, QStringLiteral("stopped serving %1").arg(project->dir));
    return ExitCompleted;
}
