# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stand-ins for Open WebUI's internals and FastAPI, for community tool files.

Tool files written for Open WebUI often import its server's modules
(``from open_webui.models.users import Users``) or FastAPI (``from fastapi import
Request``) although most of their methods never use them. Tool Studio includes
neither. ``install()`` appends a finder to ``sys.meta_path`` *after* the path
finder, so a real installed module (the project's venv, the system's site-packages)
always wins; only an import nothing else can satisfy gets a stand-in module.

Any name imported from a stand-in module is a stand-in class: the file loads, the
name works in annotations (``request: Request = None``, ``Request | None``), in
``isinstance`` and as a base class. Calling it, or anything reached through it
(``Users.get_user_by_id(...)``), raises OpenWebUIMissing naming the Open WebUI
feature, not retried. A few values used at import time are real
(``open_webui.env.SRC_LOG_LEVELS``, ``fastapi.HTTPException``).
"""

import importlib.abc
import importlib.machinery
import logging
import sys

ROOTS = ("open_webui", "fastapi", "starlette")

# Module prefix -> the feature a person would recognise (longest prefix first).
FEATURES = [
    ("open_webui.models.users", "Open WebUI's user accounts"),
    ("open_webui.models.chats", "Open WebUI's chat history"),
    ("open_webui.models.files", "Open WebUI's file storage"),
    ("open_webui.models.knowledge", "Open WebUI's knowledge bases"),
    ("open_webui.models.models", "Open WebUI's model list"),
    ("open_webui.models.memories", "Open WebUI's memories"),
    ("open_webui.models", "Open WebUI's database"),
    ("open_webui.retrieval", "Open WebUI's retrieval (RAG)"),
    ("open_webui.storage", "Open WebUI's file storage"),
    ("open_webui.utils.chat", "Open WebUI's chat completions"),
    ("open_webui.routers", "Open WebUI's web API"),
    ("open_webui.config", "Open WebUI's server configuration"),
    ("open_webui.env", "Open WebUI's server environment"),
    ("open_webui.socket", "Open WebUI's live events"),
    ("open_webui", "Open WebUI's server internals"),
    ("fastapi", "FastAPI (Open WebUI's web server; its request objects)"),
    ("starlette", "Starlette (Open WebUI's web server; its request objects)"),
]


class OpenWebUIMissing(RuntimeError):
    """A tool used a part of Open WebUI that Tool Studio does not have."""

    retryable = False


def feature_of(name):
    for prefix, feature in FEATURES:
        if name == prefix or name.startswith(prefix + "."):
            return feature
    return "Open WebUI"


def _missing(name):
    root = name.split(".")[0]
    return OpenWebUIMissing(
        f"{name} is part of {feature_of(name)}, which Tool Studio does not provide "
        f"(the tool file imports it from {root}); this method cannot run outside Open WebUI "
        f"unless the real package is installed into the project's venv")


class _StubMeta(type):
    """Every stand-in is a class of this metaclass: usable as an annotation or a base,
    failing clearly when called or used as a value."""

    def __getattr__(cls, attribute):
        if attribute.startswith("_"):  # Python's and libraries' probes (_is_protocol, __fields__)
            raise AttributeError(attribute)
        return stub(f"{cls._stub_name}.{attribute}")

    def __call__(cls, *args, **kwargs):
        raise _missing(cls._stub_name)

    def __getitem__(cls, key):
        raise _missing(cls._stub_name)

    def __iter__(cls):
        raise _missing(cls._stub_name)

    def __len__(cls):
        raise _missing(cls._stub_name)

    def __repr__(cls):
        return f"<Open WebUI stand-in {cls._stub_name}>"


def stub(name):
    return _StubMeta(name.rsplit(".", 1)[-1], (), {"_stub_name": name, "__module__": name.rsplit(".", 1)[0]})


class _LogLevels(dict):
    """open_webui.env.SRC_LOG_LEVELS: files call log.setLevel(SRC_LOG_LEVELS["X"])."""

    def __missing__(self, key):
        return logging.INFO


class HTTPException(Exception):
    """fastapi.HTTPException: tool files raise it to fail a call."""

    def __init__(self, status_code=500, detail=None, headers=None):
        super().__init__(f"HTTP {status_code}: {detail}" if detail is not None else f"HTTP {status_code}")
        self.status_code, self.detail, self.headers = status_code, detail, headers


REAL = {
    "open_webui.env": {"SRC_LOG_LEVELS": _LogLevels(), "GLOBAL_LOG_LEVEL": "INFO"},
    "fastapi": {"HTTPException": HTTPException},
    "fastapi.exceptions": {"HTTPException": HTTPException},
}


class _StubModule(type(sys)):
    def __getattr__(self, attribute):
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        value = stub(f"{self.__name__}.{attribute}")
        setattr(self, attribute, value)
        return value


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return _StubModule(spec.name)

    def exec_module(self, module):
        module.__path__ = []  # a package: `open_webui.utils.misc` imports too
        module.__doc__ = f"Tool Studio's stand-in for {module.__name__} ({feature_of(module.__name__)})"
        module.__dict__.update(REAL.get(module.__name__, {}))


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] not in ROOTS:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)


def install():
    """Last on sys.meta_path: consulted only when no installed module matched."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
