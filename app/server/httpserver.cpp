// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "httpserver.h"

#include "boundedhttplibserver.h"
#include "httpstream.h"

#include <QMetaObject>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

struct HttpResponder::Slot
{
    std::mutex mutex;
    std::condition_variable ready;
    struct Reply
    {
        int status = 500;
        nlohmann::json body;
        HttpResponder::Headers headers;
        std::shared_ptr<HttpStream> stream; ///< HttpResponder::openStream
    };
    /// Set once: by the route's reply, or by the HTTP thread when it gave up waiting.
    std::optional<Reply> reply;
    std::function<void()> gone;           ///< HttpResponder::onClientGone
    std::shared_ptr<HttpStreams> streams; ///< the server's

    bool put(int status, nlohmann::json body, HttpResponder::Headers headers = {},
             std::shared_ptr<HttpStream> stream = nullptr)
    {
        {
            const std::lock_guard lock(mutex);
            if (reply)
                return false; // the first reply wins
            reply.emplace(Reply{status, std::move(body), std::move(headers), std::move(stream)});
        }
        ready.notify_all();
        return true;
    }
};

/// Shared by a responder's copies: when the last goes without a reply, the client
/// hears so instead of waiting for the reply timeout.
struct HttpResponder::Guard
{
    Guard(std::shared_ptr<Slot> slot, std::string route)
        : slot(std::move(slot))
        , route(std::move(route))
    {}
    Guard(const Guard &) = delete;
    Guard &operator=(const Guard &) = delete;
    ~Guard()
    {
        slot->put(500, httpErrorBody("no_reply", "the handler of " + route + " ended without a reply (a bug)"));
    }

    std::shared_ptr<Slot> slot;
    std::string route;
};

HttpResponder::HttpResponder(std::shared_ptr<Slot> slot, const std::string &route)
    : m_guard(std::make_shared<Guard>(std::move(slot), route))
{}

void HttpResponder::send(int status, nlohmann::json body) const
{
    m_guard->slot->put(status, std::move(body));
}

void HttpResponder::send(int status, nlohmann::json body, Headers headers) const
{
    m_guard->slot->put(status, std::move(body), std::move(headers));
}

std::string HttpRequest::header(const std::string &name) const
{
    const auto found = headers.find(name);
    return found == headers.end() ? std::string() : found->second;
}

void HttpResponder::fail(int status, const char *code, const QString &message) const
{
    send(status, httpErrorBody(code, message.toStdString()));
}

void HttpResponder::onClientGone(std::function<void()> gone) const
{
    const std::lock_guard lock(m_guard->slot->mutex);
    m_guard->slot->gone = std::move(gone);
}

std::shared_ptr<HttpStream> HttpResponder::openStream(Headers headers) const
{
    Slot &slot = *m_guard->slot;
    std::shared_ptr<HttpStream> stream = slot.streams ? slot.streams->open() : nullptr;
    if (stream && !slot.put(200, nullptr, std::move(headers), stream)) {
        stream->finish(); // answered already, or the HTTP thread gave up: it counts no more
        stream.reset();
    }
    return stream;
}

nlohmann::json httpErrorBody(const std::string &code, const std::string &message)
{
    return {{"error", {{"code", code}, {"message", message}}}};
}

namespace {

void setJson(httplib::Response &res, int status, const nlohmann::json &body)
{
    res.status = status;
    res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "application/json");
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

/// Constant-time comparison, so the time a wrong token takes tells nothing of the right one.
bool sameSecret(const std::string &given, const std::string &expected)
{
    unsigned char difference = given.size() == expected.size() ? 0 : 1;
    for (std::size_t i = 0; i < given.size(); ++i)
        difference |= static_cast<unsigned char>(given[i] ^ expected[i % std::max<std::size_t>(1, expected.size())]);
    return difference == 0;
}

std::string hostWithPort(const std::string &host, int port)
{
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

/// Bytes a request may have besides its body: the request line and the headers.
constexpr std::size_t HeadBytes = 64 * 1024;

/// Only an uncompressed body is read: cpp-httplib would inflate a gzip, deflate or
/// brotli body without a bound (a few MiB become gigabytes).
bool acceptsEncoding(const httplib::Request &req, int *status, std::string *code, std::string *message)
{
    const auto [begin, end] = req.headers.equal_range("Content-Encoding");
    for (auto it = begin; it != end; ++it)
        if (lower(it->second) != "identity") {
            *status = 415, *code = "unsupported_encoding";
            *message = "Content-Encoding '" + it->second.substr(0, 40)
                + "' is not accepted; send the body uncompressed (without Content-Encoding)";
            return false;
        }
    return true;
}

/// The status and body for a request cut at its byte or time bound.
std::pair<int, std::string> overrunReply(const HttpServerConfig &config, BoundedHttplibServer::Overrun overrun)
{
    const bool time = overrun == BoundedHttplibServer::Overrun::Time;
    const std::string message = time ? "the request did not arrive whole within "
            + std::to_string(config.requestTimeoutSeconds) + " s; it was not read further"
                                     : "the request is larger than " + std::to_string(config.maxBodyBytes + HeadBytes)
            + " bytes (a body of at most " + std::to_string(config.maxBodyBytes)
            + " bytes, and the request line and headers); it was not read further";
    const nlohmann::json body = httpErrorBody(time ? "request_timeout" : "request_too_large", message);
    return {time ? 408 : 413, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"};
}

bool isWildcard(const std::string &host)
{
    return host == "0.0.0.0" || host == "::" || host.empty();
}

/// Why binding `host`:`port` fails, found by trying it with the same options as the
/// server (SO_REUSEADDR only): httplib says no more than false.
QString bindFailure(const std::string &host, int port, bool *inUse)
{
    addrinfo hints = {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo *found = nullptr;
    const std::string service = std::to_string(port);
    if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
        return QStringLiteral("cannot resolve host %1: %2")
            .arg(QString::fromStdString(host), QString::fromUtf8(gai_strerror(rc)));
    int error = 0;
    for (addrinfo *ai = found; ai; ai = ai->ai_next) {
        const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            error = errno;
            continue;
        }
        const int yes = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        error = ::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 ? 0 : errno;
        ::close(fd);
        if (error == 0)
            break;
    }
    ::freeaddrinfo(found);
    const QString where = QStringLiteral("port %1 on %2").arg(port).arg(QString::fromStdString(host));
    if (error == EADDRINUSE) {
        *inUse = true;
        return QStringLiteral("%1 is in use by another program; stop it or choose another port with --port").arg(where);
    }
    if (error == EACCES)
        return QStringLiteral("%1 needs privileges this user lacks (ports below 1024); choose --port 1024 or above")
            .arg(where);
    if (error == EADDRNOTAVAIL)
        return QStringLiteral("%1: %2 is not an address of this machine").arg(where, QString::fromStdString(host));
    return QStringLiteral("cannot listen on %1: %2")
        .arg(where, QString::fromUtf8(std::strerror(error ? error : EINVAL)));
}

/// How long the HTTP thread of a stream waits for an event before it looks whether the
/// client closed the connection.
constexpr std::chrono::milliseconds StreamLookMs(500);

/// Sends `stream` as the reply, chunked, on the calling HTTP thread until it ends.
void replyWithStream(httplib::Response &res, std::shared_ptr<HttpStream> stream)
{
    // Its connection is not kept alive after it: a stopping server would wait for it.
    BoundedHttplibServer::closeAfterReply();
    res.status = 200;
    res.set_chunked_content_provider(
        "text/event-stream",
        [stream](std::size_t, httplib::DataSink &sink) {
            std::string bytes;
            switch (stream->next(&bytes, StreamLookMs)) {
            case HttpStream::Next::Write:
                return sink.write(bytes.data(), bytes.size());
            case HttpStream::Next::Idle:
                return !BoundedHttplibServer::clientGone();
            case HttpStream::Next::End:
                sink.done();
                return true;
            case HttpStream::Next::Abort:
                break;
            }
            return false; // the connection is closed without the last chunk
        },
        [stream](bool) { stream->finish(); });
}

} // namespace

HttpServer::HttpServer(QObject *parent)
    : QObject(parent)
    , m_stopping(std::make_shared<std::atomic<bool>>(false))
{}

HttpServer::~HttpServer()
{
    stop();
}

bool HttpServer::isLoopback(const std::string &host)
{
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string HttpServer::url() const
{
    return "http://" + hostWithPort(m_config.host, m_config.port);
}

void HttpServer::route(const std::string &method, const std::string &pattern, const std::string &display,
                       const std::string &summary, Handler handler)
{
    m_routes.push_back({method, pattern, display, summary, std::move(handler)});
}

nlohmann::json HttpServer::routeList() const
{
    nlohmann::json routes = nlohmann::json::array();
    routes.push_back({{"method", "GET"}, {"path", "/"}, {"summary", "This list."}});
    for (const Route &route : m_routes)
        routes.push_back({{"method", route.method}, {"path", route.display}, {"summary", route.summary}});
    return routes;
}

bool HttpServer::admit(const std::string &host, const std::string &origin, const std::string &authorization,
                       int *status, std::string *code, std::string *message) const
{
    // A web page the user visits may send requests here (cross-site POST), or rebind
    // its own name to 127.0.0.1 (DNS rebinding): its Host names the page's site, and a
    // browser always sends its Origin with a POST or a cross-origin request.
    const std::string givenHost = lower(host);
    if (givenHost.empty()) {
        *status = 403, *code = "bad_host", *message = "the request has no Host header";
        return false;
    }
    if (!m_allowedHosts.empty()
        && std::find(m_allowedHosts.begin(), m_allowedHosts.end(), givenHost) == m_allowedHosts.end()) {
        *status = 403, *code = "bad_host";
        *message = "Host '" + host + "' is not this server's address (" + m_allowedHosts.front()
            + "); requests through another name are refused (DNS rebinding)";
        return false;
    }
    if (!origin.empty() && lower(origin) != "http://" + givenHost) {
        *status = 403, *code = "bad_origin";
        *message = "Origin '" + origin + "' is not this server (http://" + host
            + "); requests from web pages of other sites are refused";
        return false;
    }
    if (!m_config.token.empty()) {
        const std::string prefix = "Bearer ";
        if (authorization.rfind(prefix, 0) != 0) {
            *status = 401, *code = "unauthorized";
            *message = "this server needs a token: send the header 'Authorization: Bearer TOKEN' (the token is in "
                       "the file given to --token-file, and in .toolstudio/serve.json)";
            return false;
        }
        if (!sameSecret(authorization.substr(prefix.size()), m_config.token)) {
            *status = 401, *code = "unauthorized", *message = "the bearer token is wrong";
            return false;
        }
    }
    return true;
}

void HttpServer::install()
{
    httplib::Server &server = *m_server;
    // httplib's default also sets SO_REUSEPORT, which would let a second server share
    // the port silently; SO_REUSEADDR alone still allows a restart right after a stop.
    server.set_socket_options([](socket_t sock) {
        const int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    // A reply goes out in more than one write (head, body); without TCP_NODELAY the
    // second waits for the client's delayed ACK, ~40 ms a round trip.
    server.set_tcp_nodelay(true);
    server.set_payload_max_length(m_config.maxBodyBytes);
    server.set_pre_routing_handler([this](const httplib::Request &req, httplib::Response &res) {
        int status = 0;
        std::string code;
        std::string message;
        if (admit(req.get_header_value("Host"), req.get_header_value("Origin"), req.get_header_value("Authorization"),
                  &status, &code, &message)
            && acceptsEncoding(req, &status, &code, &message))
            return httplib::Server::HandlerResponse::Unhandled;
        if (status == 401)
            res.set_header("WWW-Authenticate", "Bearer");
        BoundedHttplibServer::closeAfterReply(); // its body, if any, was not read
        setJson(res, status, httpErrorBody(code, message));
        return httplib::Server::HandlerResponse::Handled;
    });
    // Called for every status >= 400 before it is written: httplib's own (404, 413,
    // 400 for a malformed request) get a JSON body; ours already have one.
    server.set_error_handler(
        httplib::Server::HandlerWithResponse([this](const httplib::Request &req, httplib::Response &res) {
            if (!res.body.empty())
                return httplib::Server::HandlerResponse::Unhandled;
            std::string code = "http_" + std::to_string(res.status);
            std::string message = "HTTP status " + std::to_string(res.status);
            if (res.status != 413 && BoundedHttplibServer::overrun() != BoundedHttplibServer::Overrun::None) {
                const auto [status, body] = overrunReply(m_config, BoundedHttplibServer::overrun());
                res.status = status;
                res.set_content(body, "application/json");
                return httplib::Server::HandlerResponse::Handled;
            }
            if (res.status == 404) {
                code = "no_route";
                message = "no route " + req.method + " " + req.path + "; GET / lists the routes";
            } else if (res.status == 413) {
                code = "body_too_large";
                message = "the request body is over " + std::to_string(m_config.maxBodyBytes) + " bytes";
            } else if (res.status == 414) {
                code = "uri_too_long";
                message = "the request line is over 8192 bytes";
            } else if (res.status == 400) {
                code = "bad_request";
                message = "the request is not valid HTTP/1.1 (or a header line is over 8192 bytes)";
            }
            setJson(res, res.status, httpErrorBody(code, message));
            return httplib::Server::HandlerResponse::Handled;
        }));
    // One line per request on stdout, for the person watching the server (and tests):
    // "POST /v1/runs/R/calls/c1 200". Written by the HTTP thread, one fwrite per line.
    server.set_logger([](const httplib::Request &req, const httplib::Response &res) {
        std::string path = req.path.substr(0, 200); // control characters never reach a terminal
        for (char &c : path)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                c = '?';
        const std::string line = req.method.substr(0, 16) + " " + path + " " + std::to_string(res.status) + "\n";
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
    });
    server.set_exception_handler([](const httplib::Request &, httplib::Response &res, std::exception_ptr) {
        setJson(res, 500, httpErrorBody("internal", "the server failed on this request"));
    });
    server.Get("/", [this](const httplib::Request &, httplib::Response &res) {
        nlohmann::json about = m_about;
        about["server"] = "toolstudio";
        about["routes"] = routeList();
        setJson(res, 200, about);
    });
    for (const Route &route : m_routes) {
        auto handle = [this, route, stopping = m_stopping](const httplib::Request &req, httplib::Response &res) {
            HttpRequest request;
            request.method = req.method;
            request.path = req.path;
            for (std::size_t i = 1; i < req.matches.size(); ++i)
                request.captures.push_back(req.matches[i].str());
            request.query.insert(req.params.begin(), req.params.end());
            for (const auto &[name, value] : req.headers)
                request.headers[lower(name)] = value;
            request.body = req.body;
            auto slot = std::make_shared<HttpResponder::Slot>();
            slot->streams = m_streams;
            // Queued to the thread that owns this object: the handler touches Qt
            // objects (the journal, timers) there and nowhere else.
            QMetaObject::invokeMethod(
                this,
                [handler = route.handler, request = std::move(request), slot,
                 name = route.method + " " + route.display] { handler(request, HttpResponder(slot, name)); },
                Qt::QueuedConnection);
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(m_config.replyTimeoutSeconds);
            std::unique_lock lock(slot->mutex);
            while (!slot->reply) {
                // Giving up fills the slot: a reply (or stream) the route sends later is refused.
                if (stopping->load()) {
                    slot->reply.emplace();
                    setJson(res, 503, httpErrorBody("stopping", "the server is stopping"));
                    return;
                }
                if (slot->gone && BoundedHttplibServer::clientGone()) {
                    slot->reply.emplace();
                    QMetaObject::invokeMethod(this, std::move(slot->gone), Qt::QueuedConnection);
                    slot->gone = nullptr;
                    // 499 as the log shows it ("client closed request"); nobody reads it.
                    setJson(res, 499, httpErrorBody("client_gone", "the client closed the connection"));
                    BoundedHttplibServer::closeAfterReply();
                    return;
                }
                if (std::chrono::steady_clock::now() >= deadline) {
                    slot->reply.emplace();
                    setJson(res, 504,
                            httpErrorBody("timeout",
                                          route.method + " " + route.display + " did not answer within "
                                              + std::to_string(m_config.replyTimeoutSeconds) + " s"));
                    return;
                }
                slot->ready.wait_for(lock, std::chrono::milliseconds(50));
            }
            for (const auto &[name, value] : slot->reply->headers)
                res.set_header(name, value);
            if (slot->reply->stream && (req.version == "HTTP/1.0" || req.method == "HEAD")) {
                // An event stream is chunked, which HTTP/1.0 does not know (RFC 9112 §6.1:
                // no Transfer-Encoding to a 1.0 request), and HEAD has no body to carry it.
                slot->reply->stream->finish(); // the route hears it ended
                res.headers.clear();
                setJson(res, req.method == "HEAD" ? 405 : 505,
                        httpErrorBody(req.method == "HEAD" ? "method_not_allowed" : "http_version_not_supported",
                                      req.method == "HEAD"
                                          ? "HEAD cannot open an event stream; send GET"
                                          : "an event stream (server-sent events) is sent chunked, which "
                                            "HTTP/1.0 does not have: send the request as HTTP/1.1"));
                BoundedHttplibServer::closeAfterReply();
            } else if (slot->reply->stream)
                replyWithStream(res, slot->reply->stream);
            else if (slot->reply->body.is_null())
                res.status = slot->reply->status;
            else
                setJson(res, slot->reply->status, slot->reply->body);
        };
        if (route.method == "GET")
            server.Get(route.pattern, handle);
        else if (route.method == "POST")
            server.Post(route.pattern, handle);
        else if (route.method == "DELETE")
            server.Delete(route.pattern, handle);
    }
}

bool HttpServer::listen(const HttpServerConfig &config, QString *error, bool *portInUse)
{
    if (portInUse)
        *portInUse = false;
    m_config = config;
    m_allowedHosts.clear();
    if (isLoopback(config.host))
        m_allowedHosts = {hostWithPort("127.0.0.1", config.port), hostWithPort("localhost", config.port),
                          hostWithPort("::1", config.port)};
    if (!isWildcard(config.host) && !isLoopback(config.host))
        m_allowedHosts = {lower(hostWithPort(config.host, config.port))};
    if (isLoopback(config.host) && config.host != "127.0.0.1" && config.host != "localhost" && config.host != "::1")
        m_allowedHosts.insert(m_allowedHosts.begin(), hostWithPort(config.host, config.port));
    m_server = std::make_unique<BoundedHttplibServer>(config.maxBodyBytes + HeadBytes, config.requestTimeoutSeconds,
                                                      config.readTimeoutSeconds, config.keepAliveSeconds, 100,
                                                      MaxStreams + config.parkedThreads);
    m_streams = std::make_shared<HttpStreams>(this, MaxStreams);
    install();
    m_server->setOverrunReply(
        [this](BoundedHttplibServer::Overrun overrun) { return overrunReply(m_config, overrun); });
    if (!m_server->bind_to_port(config.host, config.port)) {
        bool inUse = false;
        if (error)
            *error = bindFailure(config.host, config.port, &inUse);
        if (portInUse)
            *portInUse = inUse;
        m_server.reset();
        m_streams.reset();
        return false;
    }
    m_stopping->store(false);
    m_thread = std::thread([server = m_server.get()] { server->listen_after_bind(); });
    return true;
}

void HttpServer::stop()
{
    if (!m_server)
        return;
    m_stopping->store(true);
    // Their threads write the last chunk (a client that does not read gets a second) and
    // are free for the join.
    m_streams->closeAll(std::chrono::seconds(1));
    m_server->stop();
    if (m_thread.joinable())
        m_thread.join();
    m_server.reset();
    m_streams.reset();
}
