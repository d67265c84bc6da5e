// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm/modelmessage.h"
#include "project/modelconfig.h"
#include "python/secrets.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class ModelStream;
class SseParser;
class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

/// Why a model request failed. `code` is for scripts and the journal; `message` names
/// the model, what went wrong and what to do, with every secret value masked.
struct ModelError
{
    /// model_unreachable (connection refused, no such host: names the URL), model_auth
    /// (401/403: names the secret), missing_secret, rate_limited (429), model_server_error
    /// (5xx), model_refused (another 4xx), model_bad_reply (not JSON, not the protocol),
    /// reply_too_large, timeout, model_failed (a mock's error turn), invalid_request (the
    /// messages or tools), manual_model (a person answers: not a request).
    QString code;
    QString message;
    bool retryable = false;
    int retryAfterMs = -1; ///< from a Retry-After header (seconds or an HTTP date); -1 = none
    int httpStatus = 0;    ///< 0 when no HTTP status was received
};

/// A request's outcome: a reply or an error.
struct ModelResult
{
    std::optional<ModelReply> reply;
    ModelError error; ///< when !reply
};

/// One model request at a time per call of send(), over Qt Network (DESIGN.md "Models";
/// docs/models.md): the body from the provider's codec, the key from the studio's
/// secrets into a header only (`Authorization: Bearer` for openai-chat, `x-api-key`
/// and `anthropic-version` for anthropic), a timeout over the whole request
/// (`timeout_seconds`), a cap on the reply's bytes, and the HTTP status mapped to a
/// ModelError. A `mock` model answers from its turns (turn i answers the i-th send of
/// this client; after the last, the last repeats) without network. No retry here: the
/// caller (the model step) retries what is `retryable`, after `retryAfterMs` when set.
///
/// **Streaming** (docs/models.md "Streaming"): a send() given a `preview` asks for the
/// reply as server-sent events (`"stream": true`; openai-chat also `stream_options:
/// {"include_usage": true}`, so the usage still comes) and calls `preview` with the reply
/// so far (ModelStream::preview(), secrets masked) at most every PreviewIntervalMs while
/// it arrives. The reply handed to `done` is the one the same answer gives unstreamed
/// (ModelStream). A server that answers `application/json` instead is read as an
/// unstreamed reply; a text/event-stream answer is read as a stream whether or not one
/// was asked for. The bytes of the stream count against the reply cap like a body; a
/// stream silent for the idle timeout (between events; the first byte may take the whole
/// `timeout_seconds`) fails with `timeout` (retryable), one that ends without its
/// terminator (`data: [DONE]`, `message_stop`) with model_bad_reply, a malformed event
/// with model_bad_reply at once, an `error` event with model_server_error (retryable).
///
/// Lives on the thread of the QNetworkAccessManager it is given; the callbacks run
/// there: `done` exactly once per send(), never inside send() itself; `preview` never
/// after `done`.
class ModelClient : public QObject
{
    Q_OBJECT

public:
    using Done = std::function<void(const ModelResult &)>;
    /// The reply so far, for a person (a few KiB at most: ModelStream::PreviewChars).
    using Preview = std::function<void(const QString &text)>;
    static constexpr qint64 DefaultReplyCapBytes = 8 * 1024 * 1024;
    /// How long the body may go on after the stream's terminator before it is cut off.
    static constexpr int TerminatorGraceMs = 250;
    /// Bytes Qt may read of a reply ahead of the client (QNetworkReply::setReadBufferSize).
    static constexpr qint64 ReadBufferBytes = 1 << 20;
    /// Bytes after the stream's terminator read (and let go) before the body is cut off.
    static constexpr qint64 AfterTerminatorBytes = 64 * 1024;
    /// `preview` is called at most this often.
    static constexpr int PreviewIntervalMs = 100;

    ModelClient(ModelConfig config, Secrets secrets, QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ModelClient() override;

    const ModelConfig &config() const { return m_config; }
    /// A reply body larger than this fails with reply_too_large (read no further).
    void setReplyCap(qint64 bytes) { m_replyCap = bytes; }
    qint64 replyCap() const { return m_replyCap; }
    /// A `mock` model moves on `turns` turns without answering: the sends a memoized
    /// model step made in the recorded run (replay, rerun, resume), so the next real
    /// send gets the turn the recorded run's next one got.
    void skipMockTurns(int turns) { m_mockTurn += std::size_t(qMax(0, turns)); }

    /// Sends `request`; `done` gets the outcome. With `preview`, the reply is streamed
    /// (a remote model whose config has `stream`; a mock or manual one has nothing to
    /// stream) and `preview` gets it as it grows; a stream that sends nothing for the
    /// config's streamIdleMs has stalled. Returns an id for cancel().
    quint64 send(const ModelRequest &request, Done done, Preview preview = {});
    /// Aborts request `id` without calling its callback.
    void cancel(quint64 id);

private:
    struct Pending
    {
        QPointer<QNetworkReply> reply;
        QTimer *timer = nullptr;
        QByteArray body;
        Done done;
        bool timedOut = false;
        bool overCap = false;
        // Streaming: decided by the answer's Content-Type at its first bytes.
        Preview preview; ///< set when the request said "stream": true
        bool decided = false;
        std::shared_ptr<SseParser> sse;      ///< set for a text/event-stream answer
        std::shared_ptr<ModelStream> stream; ///< likewise
        qint64 received = 0;                 ///< bytes of the stream so far
        qint64 afterTerminator = 0;          ///< bytes let go after the stream's terminator
        QString streamError;                 ///< an event failed the stream
        QTimer *idle = nullptr;
        bool idleTimedOut = false;
        QTimer *previewTimer = nullptr;
    };

    void finishLater(quint64 id, Done done, ModelResult result, int delayMs = 0);
    void onReadyRead(quint64 id);
    void onFinished(quint64 id);
    /// Moves what `pending`'s reply has into its body or stream; afterwards overCap or
    /// streamError may be set, or the stream ended.
    void read(quint64 id, Pending &pending);
    /// Reads and lets go what came after the stream's terminator; true when that is over
    /// AfterTerminatorBytes and the reply was aborted (`pending` may be gone then).
    static bool letGoAfterTerminator(Pending &pending);
    /// The request must end now: over the cap, a bad event.
    static bool mustEnd(const Pending &pending);
    ModelResult streamResult(QNetworkReply *reply, const Pending &pending) const;
    /// Removes the request `id` from m_pending and stops its timer; nullopt if unknown.
    std::optional<Pending> take(quint64 id);
    ModelResult resultOf(QNetworkReply *reply, const Pending &pending) const;
    ModelError httpError(int status, const QByteArray &body, QNetworkReply *reply, bool streamAsked) const;
    ModelError error(const QString &code, const QString &message, bool retryable = false) const;
    std::optional<ModelReply> mockTurn(ModelError *error);

    ModelConfig m_config;
    Secrets m_secrets;
    QNetworkAccessManager *m_network;
    qint64 m_replyCap = DefaultReplyCapBytes;
    quint64 m_nextId = 1;
    std::size_t m_mockTurn = 0;
    QHash<quint64, Pending> m_pending;
};
