#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A protected MCP server and its OAuth 2.1 authorization server for tst_mcpoauth, on
127.0.0.1 at a free port (printed as the first line of stdout), both on one origin.

Each tenant MODE has its MCP endpoint at /t/MODE/mcp and its issuer at /t/MODE:
  good         as the spec asks; 401 names resource_metadata and scope="mcp:tools"
  wellknown    the 401 names no resource_metadata: the client must find
               /.well-known/oauth-protected-resource/t/wellknown/mcp
  expiring     the first access token has expires_in 0 (later ones 3600); so in any
               mode whose name ends in "expiring"
  revoked      the first access token is refused by the MCP endpoint (401
               invalid_token); refreshed ones are taken
  norefresh    as revoked, and the refresh is refused (400 invalid_grant)
  big          the authorization server metadata is 70000 bytes
  wrongissuer  its metadata names issuer /t/other
  nos256       its metadata has no code_challenge_methods_supported
  badstate     /authorize redirects with state "forged"
  denied       /authorize redirects with error=access_denied
  plainhttp    the resource metadata names http://auth.example.com as its server
  stepup       tools/call needs scope mcp:admin: a token without it gets 403
               insufficient_scope naming scope="mcp:tools mcp:admin" (step-up)
  cimd…        (any name that starts with cimd) its metadata has
               client_id_metadata_document_supported: true, and a registration_endpoint
  cimdonly…    client_id_metadata_document_supported: true, no registration_endpoint
  noreg        neither: no registration_endpoint, no client ID metadata documents

A client_id that is an https URL is a client ID metadata document's (only in the cimd
modes): the fake "fetches" it from what POST /host {"url": URL, "document": {...}} put
there (the test hosts the document the studio printed), and takes it when the
document's client_id is the URL exactly and its redirect_uris hold the redirect_uri —
exactly, or a loopback one without a port (RFC 8252 §7.3: any port). POST /preregister
{"redirect_uri": URI} registers a client as an administrator would (not counted).

The authorization endpoint consents at once: it redirects (302) to redirect_uri with a
code, after checking client_id (registered, or a hosted document's URL), redirect_uri
(the registered one),
code_challenge_method S256 and resource (the MCP endpoint). The token endpoint checks
the code_verifier against the challenge (S256), redirect_uri, client_id and resource; a
refresh must come with the client_id its refresh token was issued to.
GET /stats gives per mode: registrations, codes, tokens, refreshes, refused_refreshes,
mcp_ok, last_token (the access token the MCP endpoint took last), verifier_checked,
last_scope (the scope the last authorization asked for), insufficient (403s sent),
documents (codes exchanged by a client that is a hosted document), authorize_client and
token_client (the client_id of the last authorization and token request).
"""
import base64
import hashlib
import json
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATS = {}
CLIENTS = {}   # client_id -> redirect_uri
CODES = {}     # code -> {mode, challenge, redirect_uri, client_id, resource}
ACCESS = {}    # token -> mode
SCOPES = {}    # access or refresh token -> the scope granted
REFRESH = {}   # token -> mode
REFRESH_CLIENT = {}  # refresh token -> the client_id it was issued to
DOCUMENTS = {}  # URL -> the client ID metadata document hosted there


def documents_taken(mode):
    return mode.startswith("cimd")
PORT = 0


def stats(mode):
    return STATS.setdefault(mode, {"registrations": 0, "codes": 0, "tokens": 0, "refreshes": 0,
                                   "refused_refreshes": 0, "mcp_ok": 0, "last_token": "",
                                   "verifier_checked": 0, "last_scope": "", "insufficient": 0,
                                   "documents": 0, "authorize_client": "", "token_client": ""})


def base():
    return "http://127.0.0.1:%d" % PORT


def loopback_match(allowed, redirect):
    if allowed == redirect:
        return True
    a, r = urllib.parse.urlsplit(allowed), urllib.parse.urlsplit(redirect)
    return a.scheme == r.scheme == "http" and a.hostname == r.hostname == "127.0.0.1" and a.port is None \
        and a.path == r.path


def client_takes(mode, client_id, redirect):
    """Whether client_id may use redirect; a document's URL counts as a document client."""
    if client_id.startswith("https://"):
        document = DOCUMENTS.get(client_id)
        if not documents_taken(mode) or not isinstance(document, dict) or document.get("client_id") != client_id:
            return False
        return any(loopback_match(uri, redirect) for uri in document.get("redirect_uris", []))
    return CLIENTS.get(client_id) == redirect


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, ctype="application/json", headers=()):
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        if path == "/stats":
            with LOCK:
                self.reply(200, STATS)
            return
        prm = "/.well-known/oauth-protected-resource/t/"
        if path.startswith(prm) and path.endswith("/mcp"):
            mode = path[len(prm):-len("/mcp")]
            servers = ["http://auth.example.com"] if mode == "plainhttp" else [base() + "/t/" + mode]
            self.reply(200, {"resource": base() + "/t/%s/mcp" % mode, "authorization_servers": servers,
                             "scopes_supported": ["mcp:tools", "mcp:other"]})
            return
        asm = "/.well-known/oauth-authorization-server/t/"
        if path.startswith(asm):
            mode = path[len(asm):]
            issuer = base() + "/t/" + ("other" if mode == "wrongissuer" else mode)
            meta = {"issuer": issuer,
                    "authorization_endpoint": base() + "/t/%s/authorize" % mode,
                    "token_endpoint": base() + "/t/%s/token" % mode,
                    "registration_endpoint": base() + "/t/%s/register" % mode,
                    "response_types_supported": ["code"],
                    "code_challenge_methods_supported": ["S256"]}
            if mode == "nos256":
                del meta["code_challenge_methods_supported"]
            if mode == "big":
                meta["padding"] = "x" * 70000
            if documents_taken(mode):
                meta["client_id_metadata_document_supported"] = True
            if mode.startswith("cimdonly") or mode == "noreg":
                del meta["registration_endpoint"]
            self.reply(200, meta)
            return
        if path.startswith("/t/") and path.endswith("/authorize"):
            self.authorize(path.split("/")[2], dict(urllib.parse.parse_qsl(url.query)))
            return
        self.reply(404, {"error": "not_found"})

    def authorize(self, mode, q):
        redirect = q.get("redirect_uri", "")
        client_id = q.get("client_id", "")
        with LOCK:
            taken = client_takes(mode, client_id, redirect)
            stats(mode)["authorize_client"] = client_id
        expected_resource = base() + "/t/%s/mcp" % mode
        if not taken or q.get("code_challenge_method") != "S256" \
                or q.get("response_type") != "code" or q.get("resource") != expected_resource \
                or not q.get("code_challenge") or not q.get("state"):
            self.reply(400, {"error": "invalid_request", "got": q})
            return
        if mode == "denied":
            target = redirect + "?" + urllib.parse.urlencode(
                {"error": "access_denied", "error_description": "the user said no", "state": q["state"]})
        else:
            code = "code-%s-%d" % (mode, len(CODES) + 1)
            with LOCK:
                CODES[code] = {"mode": mode, "challenge": q["code_challenge"], "redirect_uri": redirect,
                               "client_id": q["client_id"], "resource": q["resource"], "scope": q.get("scope", "")}
                stats(mode)["codes"] += 1
                stats(mode)["last_scope"] = q.get("scope", "")
            state = "forged" if mode == "badstate" else q["state"]
            target = redirect + "?" + urllib.parse.urlencode({"code": code, "state": state})
        self.reply(302, b"", "text/plain", [("Location", target)])

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        parts = path.split("/")
        if path == "/host":
            request = json.loads(self.body())
            with LOCK:
                DOCUMENTS[request["url"]] = request["document"]
            self.reply(200, {})
            return
        if path == "/preregister":
            request = json.loads(self.body())
            with LOCK:
                client = "pre-%d" % (len(CLIENTS) + 1)
                CLIENTS[client] = request["redirect_uri"]
            self.reply(201, {"client_id": client})
            return
        if path.startswith("/t/") and path.endswith("/register"):
            request = json.loads(self.body())
            # As an OpenID Connect server does: a client without application_type is
            # "web", and a web client may not redirect to a loopback address.
            if request.get("application_type") != "native":
                self.reply(400, {"error": "invalid_redirect_uri",
                                 "error_description": "a web client may not use a loopback redirect URI"})
                return
            with LOCK:
                client = "client-%d" % (len(CLIENTS) + 1)
                CLIENTS[client] = request["redirect_uris"][0]
                stats(parts[2])["registrations"] += 1
            self.reply(201, {"client_id": client, "redirect_uris": request["redirect_uris"],
                             "token_endpoint_auth_method": "none"})
            return
        if path.startswith("/t/") and path.endswith("/token"):
            self.token(parts[2], dict(urllib.parse.parse_qsl(self.body().decode())))
            return
        if path.startswith("/t/") and path.endswith("/mcp"):
            self.mcp(parts[2])
            return
        self.reply(404, {"error": "not_found"})

    def token(self, mode, form):
        resource = base() + "/t/%s/mcp" % mode
        if form.get("resource") != resource:
            self.reply(400, {"error": "invalid_target", "error_description": "resource missing or wrong"})
            return
        with LOCK:
            s = stats(mode)
            s["token_client"] = form.get("client_id", "")
            if form.get("grant_type") == "authorization_code":
                grant = CODES.pop(form.get("code"), None)
                verifier = form.get("code_verifier", "")
                digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
                if grant is None or grant["mode"] != mode or grant["client_id"] != form.get("client_id") \
                        or grant["redirect_uri"] != form.get("redirect_uri") or digest != grant["challenge"]:
                    self.reply(400, {"error": "invalid_grant", "error_description": "code or verifier wrong"})
                    return
                s["verifier_checked"] += 1
                if grant["client_id"].startswith("https://"):
                    s["documents"] += 1
                granted = grant["scope"] or "mcp:tools"
            elif form.get("grant_type") == "refresh_token":
                if REFRESH.get(form.get("refresh_token")) != mode or mode == "norefresh" \
                        or REFRESH_CLIENT.get(form.get("refresh_token")) != form.get("client_id"):
                    s["refused_refreshes"] += 1
                    self.reply(400, {"error": "invalid_grant", "error_description": "refresh token revoked"})
                    return
                s["refreshes"] += 1
                granted = SCOPES.get(form.get("refresh_token"), "mcp:tools")
            else:
                self.reply(400, {"error": "unsupported_grant_type"})
                return
            s["tokens"] += 1
            access = "at-%s-%d" % (mode, s["tokens"])
            refresh = "rt-%s-%d" % (mode, s["tokens"])
            ACCESS[access] = mode
            REFRESH[refresh] = mode
            REFRESH_CLIENT[refresh] = form.get("client_id")
            SCOPES[access] = SCOPES[refresh] = granted
            expires = 0 if mode.endswith("expiring") and s["tokens"] == 1 else 3600
        self.reply(200, {"access_token": access, "token_type": "Bearer", "expires_in": expires,
                         "refresh_token": refresh, "scope": granted},
                   headers=[("Cache-Control", "no-store")])

    def mcp(self, mode):
        message = json.loads(self.body())
        auth = self.headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
        first = token == "at-%s-1" % mode
        if ACCESS.get(token) != mode or (first and mode in ("revoked", "norefresh")):
            challenge = 'Bearer realm="fake", scope="mcp:tools"'
            if mode != "wellknown":
                challenge += ', resource_metadata="%s/.well-known/oauth-protected-resource/t/%s/mcp"' % (base(), mode)
            if token:
                challenge += ', error="invalid_token"'
            self.reply(401, {"error": "unauthorized"}, headers=[("WWW-Authenticate", challenge)])
            return
        with LOCK:
            stats(mode)["mcp_ok"] += 1
            stats(mode)["last_token"] = token
        method, rid = message.get("method"), message.get("id")
        if rid is None:
            self.reply(202, b"", "text/plain")
            return
        if method == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "fakeoauth", "version": "1"}}
        elif method == "tools/list":
            result = {"tools": [{"name": "hello", "inputSchema": {"type": "object"}}]}
        elif method == "tools/call":
            if mode == "stepup" and "mcp:admin" not in SCOPES.get(token, "").split():
                with LOCK:
                    stats(mode)["insufficient"] += 1
                challenge = ('Bearer error="insufficient_scope", scope="mcp:tools mcp:admin", '
                             'resource_metadata="%s/.well-known/oauth-protected-resource/t/%s/mcp", '
                             'error_description="hello needs mcp:admin"' % (base(), mode))
                self.reply(403, {"error": "insufficient_scope"}, headers=[("WWW-Authenticate", challenge)])
                return
            result = {"content": [{"type": "text", "text": "hello from " + mode}]}
        else:
            self.reply(200, {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no " + method}})
            return
        self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": result})

    def do_DELETE(self):
        self.reply(200, b"", "text/plain")


def main():
    global PORT
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    PORT = server.server_address[1]
    print(PORT, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
