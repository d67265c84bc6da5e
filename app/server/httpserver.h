// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

class BoundedHttplibServer;
class HttpStream;
class HttpStreams;

/// One request as a route's handler sees it, copied out of the HTTP thread: the method,
/// the path, the parts the route's pattern captured, the query parameters and the body
/// (at most HttpServerConfig::maxBodyBytes).
struct HttpRequest
{
    std::string method;
    std::string path;
    std::vector<std::string> captures; ///< the pattern's groups, in order
    std::multimap<std::string, std::string> query;
    std::map<std::string, std::string> headers; ///< by lower-case name (the last of a repeated header)
    std::string body;

    /// The header `name` (lower case), or "".
    std::string header(const std::string &name) const;
};

/// How a route answers, from the Qt thread, now or later (e.g. after polling the
/// journal). Copies share one reply: the first send() wins; when the last copy goes
/// without a reply the client gets a 500 naming the route. Safe from any thread.
class HttpResponder
{
public:
    struct Slot;
    struct Guard;
    explicit HttpResponder(std::shared_ptr<Slot> slot, const std::string &route);

    using Headers = std::vector<std::pair<std::string, std::string>>;
    void send(int status, nlohmann::json body) const;
    /// The same with extra response headers; a null `body` sends no body at all.
    void send(int status, nlohmann::json body, Headers headers) const;
    /// The server's error body, {"error": {"code": code, "message": message}}.
    void fail(int status, const char *code, const QString &message) const;
    /// `gone` runs on the server's thread when the client closes its connection before
    /// this reply was sent (an MCP 2026-07-28 client cancels a request so); the reply is
    /// then not sent. Unset: a client that leaves is only noticed when the reply is written.
    void onClientGone(std::function<void()> gone) const;
    /// Answers 200 with `headers` and a `text/event-stream` body kept open: the events
    /// sent to the stream go out as they come (HttpStream). Null, answering nothing, when
    /// the server has HttpServer::MaxStreams open (or stops) or this reply was sent
    /// already: answer with an error then.
    std::shared_ptr<HttpStream> openStream(Headers headers) const;

private:
    std::shared_ptr<Guard> m_guard;
};

/// Where and how `toolstudio serve` listens (docs/server.md "Limits").
struct HttpServerConfig
{
    std::string host = "127.0.0.1";
    int port = 3112;
    std::string token;                   ///< non-empty: every request needs "Authorization: Bearer TOKEN"
    std::size_t maxBodyBytes = 4u << 20; ///< a longer body is refused (413) before it is read
    int readTimeoutSeconds = 5;          ///< a request that stalls this long is dropped
    int requestTimeoutSeconds = 30;      ///< a request (line, headers, body) not whole by then: 408
    int keepAliveSeconds = 5;            ///< an idle kept-alive connection is closed after this
    int replyTimeoutSeconds = 330;       ///< a route that has not answered by then gets a 504
    /// Threads added to the pool for replies that wait long (an MCP tool call, a program
    /// running): the routes that hold threads so cap how many, and the sum comes here,
    /// so that cpp-httplib's own threads stay for short requests (streams have MaxStreams
    /// threads of their own besides).
    std::size_t parkedThreads = 0;
};

/// The studio's HTTP server: cpp-httplib's threads read requests, check them (the
/// Host and Origin headers against the address bound, the bearer token, the body cap)
/// and hand each to its route's handler on the thread that owns this object (queued,
/// never touching a Qt object from an HTTP thread); the handler replies through its
/// HttpResponder. Every error is a JSON body {"error": {"code", "message"}};
/// `GET /` lists the routes.
class HttpServer : public QObject
{
public:
    using Handler = std::function<void(const HttpRequest &, const HttpResponder &)>;
    /// Streams (HttpResponder::openStream) open at once: each holds an HTTP thread of
    /// its own, added to cpp-httplib's pool for them, so streams never take the threads
    /// of the other requests.
    static constexpr std::size_t MaxStreams = 8;

    explicit HttpServer(QObject *parent = nullptr);
    ~HttpServer() override;

    /// Adds a route before listen(): `pattern` is a regular expression for the whole path
    /// (its groups become HttpRequest::captures), `display` how docs and `GET /` show it
    /// ("/v1/runs/{run}"), `summary` one line.
    void route(const std::string &method, const std::string &pattern, const std::string &display,
               const std::string &summary, Handler handler);
    /// Extra members of `GET /`'s reply (e.g. the project).
    void setAbout(nlohmann::json about) { m_about = std::move(about); }

    /// Binds and starts serving on a thread of its own. False with `error` saying why
    /// ("port 3112 on 127.0.0.1 is in use: …") and `*portInUse` set when that was it.
    bool listen(const HttpServerConfig &config, QString *error, bool *portInUse = nullptr);
    /// Stops accepting, ends the open streams (their last chunk), answers requests still
    /// waiting for a route with 503 and joins the HTTP threads. Called by the destructor.
    void stop();

    const HttpServerConfig &config() const { return m_config; }
    /// "http://127.0.0.1:3112" (IPv6 hosts in brackets).
    std::string url() const;
    static bool isLoopback(const std::string &host);

private:
    struct Route
    {
        std::string method;
        std::string pattern;
        std::string display;
        std::string summary;
        Handler handler;
    };
    void install();
    /// The Host/Origin/token checks: empty when the request may go on, else the error
    /// (status, code, message).
    bool admit(const std::string &host, const std::string &origin, const std::string &authorization, int *status,
               std::string *code, std::string *message) const;
    nlohmann::json routeList() const;

    HttpServerConfig m_config;
    nlohmann::json m_about = nlohmann::json::object();
    std::vector<Route> m_routes;
    std::vector<std::string> m_allowedHosts; ///< lower case "host:port"; empty = any host (wildcard bind)
    std::unique_ptr<BoundedHttplibServer> m_server;
    std::thread m_thread;
    std::shared_ptr<std::atomic<bool>> m_stopping;
    std::shared_ptr<HttpStreams> m_streams; ///< while listening
};

/// The error body of the server: {"error": {"code": code, "message": message}}.
nlohmann::json httpErrorBody(const std::string &code, const std::string &message);
