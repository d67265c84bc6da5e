// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "programmaticsession.h"
#include "project/project.h"

#include <QHash>
#include <QObject>
#include <QPair>

class HttpServer;
struct HttpRequest;
class HttpResponder;

/// Seed 003's code-execution API on the studio's server (docs/server.md "Programmatic
/// tool calling"): `POST /v1/exec/programmatic` starts a ProgrammaticSession or
/// continues one (session_id, single-use continuation_token, tool_results), and
/// `POST /v1/exec` runs code without tools. Lives on the Qt thread; HttpServer queues
/// each request to it.
class ProgrammaticApi : public QObject
{
public:
    ProgrammaticApi(const Project &project, const ProgrammaticLimits &limits, QObject *parent = nullptr);
    ~ProgrammaticApi() override;

    void install(HttpServer &server);
    /// The longest a reply can take (s): the longest program timeout and some slack;
    /// the server's reply timeout must not be shorter.
    static int longestReplySeconds();
    /// Programs running while their client waits for the reply (a start, or a
    /// continuation until the next pause or the end) at once: each holds one of the
    /// server's HTTP threads (HttpServerConfig::parkedThreads). Past it: 503.
    static constexpr int MaxClientsWaiting = 8;

private:
    void exec(const HttpRequest &request, const HttpResponder &responder, bool withTools);
    void startSession(const ProgrammaticRequest &request, const HttpResponder &responder);
    void continueSession(const ProgrammaticRequest &request, const HttpResponder &responder);
    /// A continuation of a session this process does not have: one an earlier studio
    /// kept (ServedSessionRecord) goes on as a resume of its run (docs/server.md
    /// "Sessions and tokens"); otherwise 404, 410 or 403 as for a live one.
    void reviveSession(const ProgrammaticRequest &request, const HttpResponder &responder);
    /// `session` is live: forgotten (and its end kept for a late continuation) once it ends.
    void adopt(ProgrammaticSession *session);
    /// 503 too_many_sessions when maxSessions run; false then.
    bool roomForOne(const HttpResponder &responder) const;
    /// 503 too_many_running when MaxClientsWaiting clients wait for their program; false then.
    bool roomToWait(const HttpResponder &responder) const;

    Project m_project;
    ProgrammaticLimits m_limits;
    QHash<QString, ProgrammaticSession *> m_sessions;
    /// Sessions that ended: id → (code, message) for a late continuation (at most 1000 kept).
    QHash<QString, QPair<QString, QString>> m_ended;
    QStringList m_endedOrder;
};
