// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "httpserver.h"
#include "programmaticsession.h"
#include "project/project.h"

#include <QObject>
#include <QString>

#include <memory>

class McpHttpRoute;
class PendingCallsApi;
class ProgrammaticApi;
class ServedStepMode;

/// A project served over HTTP (docs/server.md), as `toolstudio serve` and the window's
/// *File ▸ Serve Project* both do it: the HttpServer with its routes (the pending-calls
/// API, seed 003's programmatic API, MCP at `/mcp`) and `.toolstudio/serve.json`, written
/// once listening and removed by stop(). The serving process owns the served runs; other
/// processes see them through the journal; a call step mode holds (stepMode()) is
/// decided in this process. Lives on the Qt thread.
class StudioServer : public QObject
{
public:
    explicit StudioServer(QObject *parent = nullptr);
    ~StudioServer() override; ///< stops serving

    /// Serves `project` as `config` and `limits` say. False with `error` in words when the
    /// host needs a token it lacks, the project is served already (by a live process), the
    /// journal cannot be opened, the address cannot be bound or serve.json cannot be
    /// written; nothing is left serving then. `*cannotListen` is set when the project is
    /// served already or the address could not be bound (e.g. "port 3112 on 127.0.0.1 is in
    /// use by another program; …").
    bool start(const Project &project, HttpServerConfig config, const ProgrammaticLimits &limits, QString *error,
               bool *cannotListen = nullptr);
    /// `/mcp` sessions serve McpStudioTools beside the project's tools (`toolstudio
    /// serve --studio-tools`). Before start().
    void setStudioTools(bool on) { m_studioTools = on; }
    /// Step mode for the served MCP sessions' calls (`toolstudio serve --step-mode`, the
    /// window's F10 while it serves): on or off at any time, kept across stop and start.
    ServedStepMode *stepMode() const { return m_stepMode; }
    /// The served project was loaded again (its manifest changed): the MCP sessions serve
    /// its tools from now on (McpServerSession::setProject). The caller checked it as
    /// start()'s project was (loaded, trusted). True when the tools/list result changed;
    /// false, doing nothing, when not serving.
    bool setProject(const Project &project);
    /// Stops serving and removes serve.json. Nothing when not serving.
    void stop();

    bool isServing() const { return m_server != nullptr; }
    /// "http://127.0.0.1:3112"; empty when not serving.
    QString url() const;
    /// The served project's folder; empty when not serving.
    QString projectDir() const { return m_projectDir; }

    /// The token in the file at `path`: its first line without surrounding white space,
    /// printable ASCII without spaces, 16 to 4096 bytes. Empty with `error` otherwise.
    static std::string readToken(const QString &path, QString *error);
    /// Why `host` cannot be served without a token (it is reachable from other machines),
    /// in words naming it as `hostWords` ("--host 0.0.0.0") and the token as `tokenHint`
    /// ("--token-file FILE"); empty when it can.
    static QString tokenRefusal(const std::string &host, bool hasToken, const QString &hostWords,
                                const QString &tokenHint);
    /// The warning for a host other than loopback (no TLS); empty for loopback.
    static QString noTlsWarning(const QString &host);

private:
    QString m_projectDir;
    bool m_studioTools = false;
    ServedStepMode *m_stepMode;
    std::unique_ptr<PendingCallsApi> m_pending;
    std::unique_ptr<ProgrammaticApi> m_programmatic;
    std::unique_ptr<McpHttpRoute> m_mcp;
    std::unique_ptr<HttpServer> m_server;
};
