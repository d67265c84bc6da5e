// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servecommand.h"

#include "headlessrun.h"
#include "httpserver.h"
#include "mcphttproute.h"
#include "mcpserversession.h"
#include "mcpstdioserver.h"
#include "pendingcallsapi.h"
#include "programmaticapi.h"
#include "servefile.h"
#include "trustcommand.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QSocketNotifier>

#include <csignal>

#include <sys/signalfd.h>
#include <unistd.h>

namespace {

/// The token in `path`: its first line without surrounding white space, printable
/// ASCII without spaces, 16 to 4096 bytes. Empty with `error` otherwise.
std::string readToken(const QString &path, QString *error)
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

/// `serve --mcp-stdio`: one MCP session on stdin/stdout until stdin ends or a signal
/// comes. stdout carries the protocol only.
int serveMcpStdio(const Project &project)
{
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    const int signalFd = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    QEventLoop loop;
    McpServerSession session(project, QStringLiteral("stdio"));
    McpStdioServer server(&session, STDIN_FILENO, STDOUT_FILENO);
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
    parser.addOptions(
        {portOption, hostOption, tokenOption, callTimeoutOption, expiryOption, mcpStdioOption, trustOption()});
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
    config.replyTimeoutSeconds = std::max(config.replyTimeoutSeconds, ProgrammaticApi::longestReplySeconds());
    if (parser.isSet(tokenOption)) {
        QString error;
        config.token = readToken(parser.value(tokenOption), &error);
        if (config.token.empty())
            return fail(error, ExitBadInput);
    }
    const bool loopback = HttpServer::isLoopback(config.host);
    if (!loopback && config.token.empty())
        return fail(QStringLiteral("--host %1 is reachable from other machines: it needs --token-file FILE (a "
                                   "secret every request must send); without it, serve on 127.0.0.1")
                        .arg(parser.value(hostOption)),
                    ExitBadInput);

    const auto project = loadProjectToRun(QStringLiteral("serve"), positional->at(0),
                                          parser.isSet(QStringLiteral("trust")), &exitCode);
    if (!project)
        return exitCode;
    if (parser.isSet(mcpStdioOption))
        return serveMcpStdio(*project);
    if (const auto served = ServeFile::readLive(project->dir))
        return fail(QStringLiteral("%1 is served already at %2 (process %3); stop that one first")
                        .arg(project->dir, QString::fromStdString(served->url))
                        .arg(served->pid),
                    ExitCannotListen);

    // SIGINT and SIGTERM end the loop through a signalfd; blocked before the HTTP
    // threads start, so they inherit the mask and never take the signal themselves.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    const int signalFd = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);

    PendingCallsApi api(*project);
    QString error;
    if (!api.open(&error))
        return fail(error, ExitBadInput);
    HttpServer server;
    server.setAbout({{"project", project->dir.toStdString()}, {"name", project->name.toStdString()}});
    api.install(server);
    ProgrammaticApi programmatic(*project, limits);
    programmatic.install(server);
    McpHttpRoute mcp(*project);
    mcp.install(server);
    bool portInUse = false;
    if (!server.listen(config, &error, &portInUse))
        return fail(error, ExitCannotListen);
    ServeFile serveFile;
    serveFile.url = server.url();
    serveFile.host = config.host;
    serveFile.port = config.port;
    serveFile.token = config.token;
    serveFile.pid = ::getpid();
    if (!serveFile.write(project->dir, &error)) {
        server.stop();
        return fail(error, ExitBadInput);
    }
    if (!loopback)
        printLine(stderr,
                  QStringLiteral("toolstudio serve: warning: serving on %1 without TLS: the token and every "
                                 "request travel in clear text; use it only on a network you trust, or "
                                 "behind a TLS proxy")
                      .arg(QString::fromStdString(config.host)));
    printLine(stdout,
              QStringLiteral("serving %1 at %2 (GET / lists the routes; Ctrl-C stops)")
                  .arg(project->dir, QString::fromStdString(server.url())));

    QEventLoop loop;
    QSocketNotifier notifier(signalFd, QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &loop, [&loop, signalFd] {
        signalfd_siginfo info = {};
        while (::read(signalFd, &info, sizeof info) == sizeof info) {}
        loop.quit();
    });
    loop.exec();
    server.stop();
    ServeFile::removeOwn(project->dir);
    ::close(signalFd);
    ::pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
    printLine(stdout, QStringLiteral("stopped serving %1").arg(project->dir));
    return ExitCompleted;
}
