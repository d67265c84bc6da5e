#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Test peers for the studio's outgoing requests (tests/system/tst_outgoingnetwork.cpp).

  relay.py proxy               an HTTP forward proxy on 127.0.0.1: every request, whatever
                               host its absolute URL names, goes to 127.0.0.1 at the URL's
                               port; prints its port, then "PROXY METHOD URL" per request
  relay.py tls CERT KEY PORT   a TLS front on 127.0.0.1 (CERT/KEY, PEM) relaying the bytes
                               to 127.0.0.1:PORT; prints its port

Both print to stdout, flushed, one line each, and run until killed.
"""
import http.client
import http.server
import socket
import ssl
import sys
import threading
import urllib.parse


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def relay(self):
        url = urllib.parse.urlsplit(self.path)
        print(f"PROXY {self.command} {self.path}", flush=True)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection", "connection")}
        target = http.client.HTTPConnection("127.0.0.1", url.port or 80, timeout=30)
        path = url.path + ("?" + url.query if url.query else "")
        target.request(self.command, path, body=body, headers=headers)
        reply = target.getresponse()
        data = reply.read()
        self.send_response(reply.status, reply.reason)
        for key, value in reply.getheaders():
            if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = relay
    do_POST = relay


def pipe(source, sink):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def tls_front(cert, key, port):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()

        def serve(client=client):
            try:
                secure = context.wrap_socket(client, server_side=True)
            except (ssl.SSLError, OSError):
                client.close()  # the studio refused the certificate: expected in a test
                return
            upstream = socket.create_connection(("127.0.0.1", port))
            threading.Thread(target=pipe, args=(upstream, secure), daemon=True).start()
            pipe(secure, upstream)

        threading.Thread(target=serve, daemon=True).start()


def main():
    if sys.argv[1:2] == ["proxy"]:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
        print(server.server_address[1], flush=True)
        server.serve_forever()
    elif sys.argv[1:2] == ["tls"] and len(sys.argv) == 5:
        tls_front(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
