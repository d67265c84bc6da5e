// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A `GET /mcp` stream of server-sent events read as it comes, over a plain socket (the
// suites of the studio's server): the reply's head, then its chunked body, event by event.
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QString>
#include <QTcpSocket>
#include <QThread>

struct EventStream
{
    QTcpSocket socket;
    int status = 0;
    QByteArray head;    ///< the status line and headers
    QByteArray raw;     ///< received, not yet decoded
    QByteArray body;    ///< decoded, not yet taken by nextEvent()
    bool ended = false; ///< the last chunk came: the server ended the stream properly

    /// Sends the GET with `session` and `headers` ("Name: value\r\n" each; Accept:
    /// text/event-stream unless they have their own) and reads the reply's head; its status.
    int open(int port, const QString &session, const QByteArray &headers = {})
    {
        QByteArray extra = headers;
        if (!session.isEmpty())
            extra += "Mcp-Session-Id: " + session.toUtf8() + "\r\n";
        return send(port, "GET", extra, {});
    }
    /// As open(), sent again for up to 30 s while the answer is 409: the session's
    /// previous stream was closed on this side and the server has not yet seen it go.
    int openOnceFree(int port, const QString &session, const QByteArray &headers = {})
    {
        QElapsedTimer clock;
        clock.start();
        while (open(port, session, headers) == 409 && clock.elapsed() < 30000) {
            socket.abort();
            raw.clear();
            head.clear();
            QThread::msleep(20);
        }
        return status;
    }
    /// POSTs `body` (a JSON-RPC request answered with a stream: a 2026-07-28
    /// subscriptions/listen) with `headers` and reads the reply's head; its status.
    int post(int port, const QByteArray &body, const QByteArray &headers = {})
    {
        return send(port, "POST",
                    headers + "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                        + "\r\n",
                    body);
    }
    /// Closes the connection (a client that leaves: the server ends the stream).
    void leave() { socket.abort(); }

private:
    int send(int port, const QByteArray &method, const QByteArray &headers, const QByteArray &body)
    {
        socket.connectToHost(QStringLiteral("127.0.0.1"), quint16(port));
        if (!socket.waitForConnected(30000))
            return 0;
        QByteArray request = method + " /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port) + "\r\n";
        if (!headers.toLower().contains("accept:"))
            request += "Accept: text/event-stream\r\n";
        socket.write(request + headers + "\r\n" + body);
        while (!raw.contains("\r\n\r\n") && receive()) {}
        const qsizetype cut = raw.indexOf("\r\n\r\n");
        if (cut < 0)
            return 0;
        head = raw.left(cut);
        raw.remove(0, cut + 4);
        status = head.mid(9, 3).toInt(); // "HTTP/1.1 200 OK"
        return status;
    }

public:
    /// The next event (comments such as ": ping" skipped), without its last empty line,
    /// within 30 s; empty when none came (the stream ended or nothing arrived).
    QByteArray nextEvent()
    {
        for (;;) {
            decode();
            for (qsizetype cut = body.indexOf("\n\n"); cut >= 0; cut = body.indexOf("\n\n")) {
                const QByteArray event = body.left(cut);
                body.remove(0, cut + 2);
                if (!event.startsWith(':'))
                    return event;
            }
            if (ended || !receive())
                return {};
        }
    }
    /// Waits up to 30 s for the end of the reply; true when it ended properly (its last
    /// chunk), false when the connection broke or nothing came.
    bool waitForEnd()
    {
        for (;;) {
            decode();
            if (ended)
                return true;
            if (!receive())
                return false;
        }
    }

private:
    bool receive()
    {
        if (!socket.bytesAvailable() && !socket.waitForReadyRead(30000))
            return false;
        raw += socket.readAll();
        return true;
    }
    /// Moves whole chunks from `raw` to `body`.
    void decode()
    {
        while (!ended) {
            const qsizetype line = raw.indexOf("\r\n");
            if (line < 0)
                return;
            bool ok = false;
            const qsizetype size = raw.left(line).toLongLong(&ok, 16);
            if (!ok || raw.size() < line + 2 + size + 2)
                return;
            body += raw.mid(line + 2, size);
            raw.remove(0, line + 2 + size + 2);
            ended = size == 0;
        }
    }
};
