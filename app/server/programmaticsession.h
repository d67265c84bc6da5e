// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "httpserver.h"
#include "programmaticrequest.h"
#include "project/project.h"
#include "project/step.h"
#include "servedsessionrecord.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

class RunController;
class QTimer;

/// The bounds of served sessions (`toolstudio serve --call-timeout/--session-expiry`).
struct ProgrammaticLimits
{
    int callWaitSeconds = 300;       ///< a call waits this long for its result (the page's TOOL_CALL_REQUEST_TIMEOUT)
    int sessionExpirySeconds = 600;  ///< a paused session waits this long for a continuation (TOOL_CALL_SESSION_EXPIRY)
    int defaultTimeoutSeconds = 300; ///< a program's whole loop, when the request names no `timeout`
    int maxSessions = 16;            ///< sessions alive at once
};

/// One session of `POST /v1/exec/programmatic` (docs/server.md "Programmatic tool
/// calling"): a run of kind `served` through the usual RunController (sandbox, bridge,
/// StepEngine, journal), whose tools are the request's declarations as manual tools
/// answered by the HTTP client. The sandboxed process stays alive between round trips.
/// A reply goes out when the program ends, or when calls wait for results and the
/// script says it is blocked on them (the bridge's wait hint, which the Python and Bash
/// shims send), or — for a script that sends no hint (threads, the Node shim, its own
/// bridge code) — when no new call has come for QuietMs. Calls in flight together are
/// returned together either way.
///
/// A session of `/v1/exec/programmatic` is durable (docs/server.md "Sessions and
/// tokens"): it keeps its start request and its state (token hashes, the calls that
/// wait) in a ServedSessionRecord before each reply, a paused one is suspended — not
/// stopped — when the server stops, and revive() goes on with it in a restarted studio
/// as a resume of its run (the journaled calls memoized, the waiting ones open again).
class ProgrammaticSession : public QObject
{
public:
    static constexpr int QuietMs = 20;

    ProgrammaticSession(const Project &project, const ProgrammaticLimits &limits, QObject *parent = nullptr);
    ~ProgrammaticSession() override;

    /// Writes the program under .toolstudio/served/ and starts its run; false with
    /// `error` when the run cannot start.
    bool start(const ProgrammaticRequest &request, QString *error);
    /// Goes on with session `runId` of an earlier studio, suspended while it waited:
    /// resumes its run (`start` = its start request) with `reopen` (sequence → the call
    /// id the client was given) the calls that waited, which open again; `results` go to
    /// them as they do (nullptr: the continuation whose reply was lost, nothing to
    /// deliver). The reply to `responder` goes at the next pause or the end. A call the
    /// re-run makes that the journal does not have before those reopen, or an end before
    /// they do, stops the session (`resume_diverged`). False with `error` when the run
    /// cannot be resumed.
    /// `usedTokenHash`: the SHA-256 of the token the continuation sent (a retry with it
    /// gets the next reply again, as *A lost reply* says).
    bool revive(const QString &runId, const ProgrammaticRequest &start, const ServedSessionRecord &record,
                const std::map<int, QString> &reopen, const std::vector<ProgrammaticResult> *results,
                const std::string &usedTokenHash, const HttpResponder &responder, QString *error);
    /// The session id: the run's id in the journal.
    QString id() const { return m_id; }

    /// A continuation is being answered now (a second one gets 409).
    bool busy() const { return m_responder.has_value(); }
    bool expired() const { return m_expired; }
    /// True when `token` is the one the last reply issued (compared in constant time).
    bool tokenMatches(const std::string &token) const;
    /// True when `token` is the one the previous continuation used up (compared in
    /// constant time) and the reply it got is known: that reply may have been lost
    /// with its connection (docs/server.md "A lost reply").
    bool previousTokenMatches(const std::string &token) const;
    /// Sends the reply the previous continuation got again (the session's current
    /// state: its token and the calls that wait); results are not delivered twice.
    void resendLastReply(const HttpResponder &responder);
    /// Checks `results` against the calls that wait: false with the HTTP status, code
    /// and message when one names a call this session never returned (404
    /// unknown_call) or one that has ended (409 already_ended, with how).
    bool check(const std::vector<ProgrammaticResult> &results, int *status, const char **code, QString *message) const;
    /// The 404 unknown_call message: `callId` is not among the `waiting` calls of `session`.
    static QString unknownCallMessage(const QString &session, const QString &callId, const QStringList &waiting);
    /// Uses up the token and hands the results to the waiting calls (StepEngine::answer,
    /// the path the window's Pending Calls dock takes); the reply goes to `responder`.
    void resume(const std::vector<ProgrammaticResult> &results, const HttpResponder &responder);
    /// The reply to the request that started the session.
    void awaitReply(const HttpResponder &responder);

    /// Called once the run has ended and its reply went out (or nobody waited for it):
    /// the API forgets the session and answers a later continuation with 410 `code`
    /// ("session_ended", "session_expired", "timeout") and `message`.
    std::function<void(ProgrammaticSession *, const QString &code, const QString &message)> onEnded;

private:
    struct OpenCall
    {
        QString tool;
        nlohmann::json arguments;
        int attempt = 1;
        int sequence = 0;
    };
    Project servedProject(const ProgrammaticRequest &request);
    /// Hands `answer` to the waiting call `callId` (the engine's id).
    void deliver(const QString &callId, const ManualAnswer &answer);
    /// The id the client knows call `callId` (the engine's) by, and back: the same but
    /// for a call that opened again in a revived bash program (its ids name its pid).
    QString clientId(const QString &callId) const;
    QString engineId(const QString &callId) const;
    /// The revived program made a call its journal does not have: it is stopped.
    void diverged(const Step &step);
    /// Writes the session's ServedSessionRecord at a pause (nothing for `/v1/exec`).
    void saveState(qint64 pausedAt);
    void saveEnded(const QString &code, const QString &message);
    void onPendingCall(const Step &step);
    void replyOnWaitHint();
    void onSteps(const QList<Step> &steps);
    void onFinished(const RunRecord &run);
    void replyIfPaused();
    void sendReply(int status, nlohmann::json body);
    nlohmann::json outputFilesJson() const;
    void stopRun(const QString &code, const QString &message);

    Project m_project;
    ProgrammaticLimits m_limits;
    RunController *m_controller = nullptr;
    QString m_id;
    int m_timeoutSeconds = 0;
    QElapsedTimer m_clock;
    std::optional<HttpResponder> m_responder;
    bool m_durable = false;             ///< kept in a ServedSessionRecord (`/v1/exec/programmatic`)
    std::string m_tokenHash;            ///< SHA-256 of the token the last reply issued; empty = none
    std::string m_previousTokenHash;    ///< SHA-256 of the token the latest continuation used up
    nlohmann::json m_lastReply;         ///< the latest tool_call_required body (null = none)
    std::map<QString, OpenCall> m_open; ///< calls waiting for the client, by call id
    /// Calls the client answered whose answer the run thread has not taken yet: not
    /// listed again (a slow run thread would have them in the next reply twice).
    std::map<QString, OpenCall> m_answered;
    std::map<QString, Step> m_ended;        ///< calls the client was given that ended, by call id
    std::set<QString> m_callsOpened;        ///< every call that opened here (a retry opens again)
    int m_waitFor = -1;                     ///< a wait hint came after this many calls: reply once all have opened
    std::map<int, bool> m_steps;            ///< sequences seen (tool_calls_made)
    std::set<QString> m_memoized;           ///< calls a revived run answered from its journal
    std::map<int, QString> m_reopen;        ///< revived: calls that waited, not open again yet (sequence → client id)
    std::map<int, ManualAnswer> m_deferred; ///< revived: results for them, by sequence
    std::map<QString, QString> m_clientIds; ///< engine call id → client call id, where they differ
    std::map<QString, QString> m_engineIds; ///< and back
    qint64 m_elapsedBefore = 0;             ///< the session's clock when its earlier studio stopped
    qint64 m_saves = 0;                     ///< ServedSessionRecord::serial of the latest save
    QByteArray m_stdout;
    QByteArray m_stderr;
    qsizetype m_stdoutSent = 0; ///< how much of m_stdout earlier replies carried as partial_stdout
    qsizetype m_stderrSent = 0;
    QTimer *m_quiet = nullptr;   ///< QuietMs after the latest call (no wait hint came)
    QTimer *m_expiry = nullptr;  ///< sessionExpirySeconds while paused
    QTimer *m_timeout = nullptr; ///< the program's whole loop
    QString m_stopCode;          ///< why the session stopped the run ("timeout", "session_expired")
    QString m_stopMessage;
    bool m_expired = false;
};
