# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tool Studio's trusted tool worker (DESIGN.md "Tools and the project").

Runs outside the sandbox, started by the studio in the project folder:

    python3 toolworker.py serve PROJECT_DIR      NDJSON on stdin/stdout (below)
    python3 toolworker.py describe PROJECT_DIR   one "described" line, then exit

It loads every ``tools/*.py`` file, derives one tool per public method of its
``class Tools`` (Open WebUI convention: schema from type hints + docstring), and runs
methods on request. Schema derivation uses the standard library only; pydantic is
needed only by tool files that use it (Valves, model parameters). Open WebUI and
FastAPI imports get stand-ins (openwebui_compat.py, placed beside this script).

Protocol (one JSON object per line, UTF-8):

  studio -> worker
    {"type":"describe","id":ID}
    {"type":"invoke","id":ID,"tool":NAME,"args":{...},"idempotency_key":KEY,
     "metadata":{"run_id":..,"call_id":..,"attempt":N},
     "valves":{"tools/FILE.py":{"Valves":{...},"UserValves":{...}},...}}
       (the project's whole valve store; the entry of the method's file applies)
    {"type":"cancel","id":ID}
  worker -> studio
    {"type":"described","id":ID,"files":[FILE...]}
       FILE: {"file","frontmatter","error","valves","user_valves","tools"}, plus
       "missing_module":NAME when the file failed to import a module that is not installed
       TOOL: {"name","method","description","input_schema","parameter_order"[,
       "result_schema"][,"warnings":[TEXT...]]} or {"name","method","error"}
    {"type":"result","id":ID,"value":JSON,"output":TEXT}
    {"type":"error","id":ID,"error":{"message":..,"retryable":bool,"type":..,
     "traceback":..[,"code":"invalid_arguments"]},"output":TEXT}
    {"type":"cancelled","id":ID}
       the cancelled attempt has stopped: at once for an async method, when its thread
       ends for a sync one (a thread cannot be stopped; the studio restarts the worker
       when this does not come in time)
"""

import ast
import asyncio
import concurrent.futures
import contextvars
import dataclasses
import enum
import importlib.util
import inspect
import io
import json
import os
import re
import sys
import threading
import traceback
import types
import typing

NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")  # Tool::isValidName
MAX_OUTPUT = 1024 * 1024
NONE_TYPE = type(None)


class NonRetryableError(Exception):
    """Raise this (or any exception with ``retryable = False``) from a tool method
    to fail the call without retries. Importable in tool files as
    ``from toolstudio_tools import NonRetryableError``."""

    retryable = False


class Unsupported(Exception):
    """An annotation the derivation cannot express as JSON Schema."""


# Warnings of the derivation under way (derive_tool): what the schema cannot say
# exactly, shown on the tool in the studio (Project dock, `tools list`).
_notes = []


def _note(text):
    if text not in _notes:
        _notes.append(text)


# --- docstrings ---------------------------------------------------------------------

_REST_PARAM = re.compile(r"^:param\s+(?:[^:]*?\s)?\*{0,2}(\w+)\s*:\s*(.*)$")
_REST_OTHER = re.compile(r"^:(returns?|rtype|raises?|type|yields?|except|exception|ivar|var|cvar|meta)\b")
_GOOGLE_ARGS = re.compile(r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments)\s*:\s*$")
_GOOGLE_OTHER = re.compile(
    r"^(Returns?|Raises|Yields?|Examples?|Notes?|Attributes|See Also|Todo|Warnings?|References)\s*:\s*$")
_GOOGLE_PARAM = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def _indent(line):
    return len(line) - len(line.lstrip())


def parse_docstring(doc):
    """Returns (description, {param: description}). The description is the text
    before the first parameter section (reST ``:param x:`` or Google ``Args:``);
    multi-line parameter descriptions are joined with single spaces."""
    lines = inspect.cleandoc(doc or "").split("\n")
    description, params = [], {}
    mode, current, param_indent = None, None, None
    for line in lines:
        stripped = line.strip()
        m = _REST_PARAM.match(stripped)
        if m:
            mode, current = "rest", m.group(1)
            params[current] = [m.group(2).strip()]
            continue
        if _REST_OTHER.match(stripped):
            mode, current = "other", None
            continue
        if _GOOGLE_ARGS.match(stripped):
            mode, current, param_indent = "google", None, None
            continue
        if _GOOGLE_OTHER.match(stripped):
            mode, current = "other", None
            continue
        if mode is None:
            description.append(line)
        elif mode == "rest":
            if stripped and current:
                params[current].append(stripped)
        elif mode == "google":
            if not stripped:
                continue
            indent = _indent(line)
            m = _GOOGLE_PARAM.match(stripped)
            if m and (param_indent is None or indent <= param_indent):
                param_indent, current = indent, m.group(1)
                params[current] = [m.group(2).strip()]
            elif current:
                params[current].append(stripped)
    joined = {name: " ".join(p for p in parts if p) for name, parts in params.items()}
    return "\n".join(description).strip(), {k: v for k, v in joined.items() if v}


def parse_frontmatter(source):
    """``key: value`` lines at the start of the module docstring (Open WebUI)."""
    try:
        doc = ast.get_docstring(ast.parse(source)) or ""
    except SyntaxError:
        return {}
    result = {}
    for line in doc.split("\n"):
        m = re.match(r"^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$", line)
        if m:
            result[m.group(1).lower()] = m.group(2)
        elif line.strip():
            break
    return result


# --- type hints -> JSON Schema -----------------------------------------------------

def _type_name(annotation):
    if isinstance(annotation, type) and not typing.get_args(annotation):
        return annotation.__qualname__
    return repr(annotation).replace("typing.", "")


def _is_pydantic_model(t):
    return isinstance(t, type) and any(c.__name__ == "BaseModel" for c in t.__mro__[1:]) and (
        hasattr(t, "model_fields") or hasattr(t, "__fields__"))


def _enum_type(values):
    kinds = set()
    for v in values:
        if isinstance(v, bool):
            kinds.add("boolean")
        elif isinstance(v, int):
            kinds.add("integer")
        elif isinstance(v, float):
            kinds.add("number")
        elif isinstance(v, str):
            kinds.add("string")
        elif v is None:
            kinds.add("null")
        else:
            kinds.add("?")
    if kinds == {"integer", "number"}:
        return "number"
    return kinds.pop() if len(kinds) == 1 and "?" not in kinds else None


def to_json_value(value):
    """A Python value as JSON data; raises TypeError when it has no JSON form."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("a non-finite float has no JSON form")
        return value
    if isinstance(value, enum.Enum):
        return to_json_value(value.value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if hasattr(value, "model_dump"):
        return to_json_value(value.model_dump())
    if hasattr(value, "dict") and _is_pydantic_model(type(value)):
        return to_json_value(value.dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json_value(dataclasses.asdict(value))
    raise TypeError(f"a value of type {type(value).__name__} has no JSON form")


def _with_default(schema, default):
    """The default goes into the schema when it has a JSON form and is not None
    (None is not a value of the parameter's type; leaving it out means None)."""
    if default is None or default is inspect.Parameter.empty:
        return schema
    try:
        schema["default"] = to_json_value(default)
    except TypeError:
        pass
    return schema


def _is_field_info(value):
    """A pydantic ``Field(...)`` used as a parameter default."""
    return type(value).__name__ == "FieldInfo" and type(value).__module__.startswith("pydantic")


def _is_undefined(value):
    return value is Ellipsis or type(value).__name__ in ("PydanticUndefinedType", "UndefinedType")


def parameter_default(param):
    """(required, default, factory, description) of a parameter as pydantic means a
    ``Field(...)`` default: ``Field(...)`` is required, ``Field(default=3)`` defaults
    to 3, ``Field(default_factory=list)`` to a new list each call. ``default`` is
    inspect.Parameter.empty when there is none (or a factory makes it)."""
    default = param.default
    if not _is_field_info(default):
        return default is inspect.Parameter.empty, default, None, None
    factory = getattr(default, "default_factory", None)
    value = getattr(default, "default", inspect.Parameter.empty)
    if _is_undefined(value) or factory is not None:
        value = inspect.Parameter.empty
    return value is inspect.Parameter.empty and factory is None, value, factory, getattr(default, "description", None)


# pydantic's constraint names (v1 and v2; v2 keeps them in FieldInfo.metadata as
# annotated_types objects) -> the JSON Schema keyword, by the type they apply to.
_CONSTRAINTS = {
    "ge": {"integer": "minimum", "number": "minimum"},
    "gt": {"integer": "exclusiveMinimum", "number": "exclusiveMinimum"},
    "le": {"integer": "maximum", "number": "maximum"},
    "lt": {"integer": "exclusiveMaximum", "number": "exclusiveMaximum"},
    "multiple_of": {"integer": "multipleOf", "number": "multipleOf"},
    "min_length": {"string": "minLength", "array": "minItems"},
    "max_length": {"string": "maxLength", "array": "maxItems"},
    "min_items": {"array": "minItems"},  # pydantic 1
    "max_items": {"array": "maxItems"},  # pydantic 1
    "pattern": {"string": "pattern"},
    "regex": {"string": "pattern"},  # pydantic 1
}


def _is_constraint_source(value):
    """A pydantic FieldInfo or an annotated_types constraint (``Annotated[int, Ge(1)]``)."""
    module = type(value).__module__
    return _is_field_info(value) or module.startswith(("annotated_types", "pydantic"))


def field_constraints(value):
    """{constraint: value} of a pydantic ``Field(...)`` (v1 attributes, v2 metadata) or
    an annotated_types object: ge, gt, le, lt, multiple_of, min/max_length, pattern and
    v1's regex, min_items, max_items."""
    found = {}
    for source in [value] + list(getattr(value, "metadata", None) or []):
        if not _is_constraint_source(source):
            continue
        for name in _CONSTRAINTS:
            got = getattr(source, name, None)
            if got is not None and not _is_undefined(got) and name not in found:
                found[name] = getattr(got, "pattern", got)  # a compiled pattern: its text
    return found


def constrain(schema, constraints, where):
    """Puts pydantic constraints into `schema` as JSON Schema keywords (on each non-null
    branch of an Optional); one that does not apply to the type is a warning."""
    if not constraints:
        return schema
    if "anyOf" in schema:
        for branch in schema["anyOf"]:
            if branch.get("type") != "null":
                constrain(branch, constraints, where)
        return schema
    kind = schema.get("type")
    for name, value in constraints.items():
        keyword = _CONSTRAINTS[name].get(kind)
        if keyword is None:
            _note(f"{where}: the constraint {name}={value!r} does not apply to "
                  f"{'this type' if kind is None else 'a JSON ' + kind} and is not in the schema")
            continue
        try:
            schema[keyword] = to_json_value(value)
        except TypeError:
            _note(f"{where}: the constraint {name}={value!r} has no JSON form and is not in the schema")
    return schema


def annotated_description(annotation):
    """The description of a ``Field(description=...)`` in ``Annotated[X, Field(...)]``
    (also inside Optional[...]); None when there is none."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        for meta in reversed(args[1:]):
            if _is_field_info(meta) and getattr(meta, "description", None):
                return meta.description
        return annotated_description(args[0])
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            found = annotated_description(arg)
            if found:
                return found
    return None


def _object_fields(t):
    """(name, annotation, required, default, description, constraints) of a model-like class."""
    hints = typing.get_type_hints(t)
    if _is_pydantic_model(t):
        if hasattr(t, "model_fields"):  # pydantic 2
            for name, field in t.model_fields.items():
                required = field.is_required()
                default = inspect.Parameter.empty if required or field.default_factory else field.default
                yield (name, hints.get(name, field.annotation), required, default, field.description,
                       field_constraints(field))
        else:  # pydantic 1
            for name, field in t.__fields__.items():
                default = inspect.Parameter.empty if field.required else field.default
                yield (name, hints.get(name, field.outer_type_), bool(field.required), default,
                       field.field_info.description, field_constraints(field.field_info))
    elif typing.is_typeddict(t):
        for name, annotation in hints.items():
            yield name, annotation, name in t.__required_keys__, inspect.Parameter.empty, None, {}
    else:  # dataclass
        for field in dataclasses.fields(t):
            has_default = field.default is not dataclasses.MISSING
            has_factory = field.default_factory is not dataclasses.MISSING
            default = field.default if has_default else inspect.Parameter.empty
            yield field.name, hints.get(field.name, field.type), not (has_default or has_factory), default, None, {}


def object_schema(t, stack, where="parameter"):
    if t in stack:
        _note(f"{where}: the recursive model {t.__name__} is cut off here (schemas are inlined without "
              f"$ref): any object is accepted at that depth and nothing in it is checked")
        return {"type": "object",
                "description": f"recursive reference to {t.__name__} cut off here "
                               "(schemas are inlined without $ref)"}
    stack = stack + (t,)
    properties, required = {}, []
    for name, annotation, is_required, default, description, constraints in _object_fields(t):
        where = f"field '{name}' of {t.__name__}"
        schema, _ = property_schema(annotation, stack, where)
        constrain(schema, constraints, where)
        if description:
            schema["description"] = description
        _with_default(schema, default)
        properties[name] = schema
        if is_required:
            required.append(name)
    result = {"type": "object", "properties": properties}
    if required:
        result["required"] = required
    doc = t.__dict__.get("__doc__")
    if doc and not typing.is_typeddict(t) and not (dataclasses.is_dataclass(t) and doc.startswith(t.__name__ + "(")):
        result["description"] = inspect.cleandoc(doc)
    return result


def property_schema(annotation, stack=(), where="parameter"):
    """(schema, optional) for a parameter or field: Optional[T] / T | None gives
    ``{"anyOf": [T's schema, {"type": "null"}]}`` (pydantic's and Open WebUI's shape)
    and optional=True; whether it is required is up to its default, not its type."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and NONE_TYPE in args:
        rest = [a for a in args if a is not NONE_TYPE]
        branches = [type_schema(a, stack, where) for a in rest]
        if any(b == {} for b in branches):
            return {}, True  # Optional[Any]: any JSON value, null included
        return {"anyOf": branches + [{"type": "null"}]}, True
    return type_schema(annotation, stack, where), False


def type_schema(t, stack=(), where="parameter"):
    if t is inspect.Parameter.empty or t is typing.Any or t is object:
        return {}
    if t is str:
        return {"type": "string"}
    if t is bool:
        return {"type": "boolean"}
    if t is int:
        return {"type": "integer"}
    if t is float:
        return {"type": "number"}
    if t is NONE_TYPE or t is None:
        return {"type": "null"}
    if t in (list, typing.List):
        _note(f"{where}: an untyped list: its items can be any JSON value (write list[T] to say which)")
        return {"type": "array", "items": {}}
    if t in (dict, typing.Dict):
        _note(f"{where}: an untyped dict: any JSON object is accepted (write dict[str, T] or a model)")
        return {"type": "object"}
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Annotated:  # Annotated[int, Field(ge=1)]: the constraints go in
        schema = type_schema(args[0], stack, where)
        for meta in args[1:]:
            constrain(schema, field_constraints(meta), where)
        return schema
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [type_schema(a, stack, where) for a in args]}
    if origin is typing.Literal:
        values = list(args)
        schema = {}
        kind = _enum_type(values)
        if kind:
            schema["type"] = kind
        schema["enum"] = values
        return schema
    if origin is list:
        return {"type": "array", "items": type_schema(args[0], stack, where) if args else {}}
    if origin is dict:
        if args and args[0] is not str:
            raise Unsupported(f"{where}: unsupported type annotation '{_type_name(t)}' "
                              "(JSON object keys are strings: use dict[str, T])")
        return {"type": "object", "additionalProperties": type_schema(args[1], stack, where) if args else {}}
    if isinstance(t, type) and issubclass(t, enum.Enum):
        values = [to_json_value(m.value) for m in t]
        schema = {}
        kind = _enum_type(values)
        if kind:
            schema["type"] = kind
        schema["enum"] = values
        return schema
    if isinstance(t, type) and (_is_pydantic_model(t) or typing.is_typeddict(t) or dataclasses.is_dataclass(t)):
        return object_schema(t, stack, where)
    raise Unsupported(f"{where}: unsupported type annotation '{_type_name(t)}' (supported: str, int, float, "
                      "bool, list[T], dict[str, T], Optional[T], Union[...], Literal[...], Enum, "
                      "pydantic models, TypedDict, dataclasses, Any)")


def derive_tool(name, method):
    """The tool of one method: name, description, input_schema (parameters in
    signature order, `__`-parameters left out; no other property unless the method
    takes **kwargs), parameter_order, result_schema (from the return annotation, when
    it has a JSON form) and warnings (what the schema cannot say exactly). Raises
    Unsupported."""
    _notes.clear()
    if not NAME_RE.match(name):
        raise Unsupported(f"invalid tool name '{name}' (1 to 128 letters, digits, '_', '-' or '.', starting with a letter, digit or '_')")
    signature = inspect.signature(method)
    try:
        hints = typing.get_type_hints(method, include_extras=True)  # Annotated[X, Field(...)] kept
    except Exception as e:  # an annotation naming something that does not exist
        raise Unsupported(f"cannot read the type hints: {type(e).__name__}: {e}")
    description, param_docs = parse_docstring(method.__doc__)
    properties, required = {}, []
    takes_any = False
    for param in signature.parameters.values():
        if param.name == "self" or param.name.startswith("__"):
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            takes_any = takes_any or param.kind == param.VAR_KEYWORD
            continue
        annotation = hints.get(param.name, inspect.Parameter.empty)
        where = f"parameter '{param.name}'"
        schema, _ = property_schema(annotation, (), where)
        is_required, default, _, field_description = parameter_default(param)
        if _is_field_info(param.default):
            constrain(schema, field_constraints(param.default), where)
        # A Field's description (the default's, else Annotated's) wins over the docstring's.
        about = field_description or annotated_description(annotation) or param_docs.get(param.name)
        if about:
            schema["description"] = about
        _with_default(schema, default)
        properties[param.name] = schema
        if is_required:
            required.append(param.name)
    input_schema = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    if not takes_any:
        input_schema["additionalProperties"] = False
    if not inspect.getdoc(method):
        _note("no docstring: the model gets no description of this tool (write one; "
              ":param x: or Args: lines describe the parameters)")
    tool = {"name": name, "description": description, "input_schema": input_schema,
            "parameter_order": list(properties)}
    # The return annotation, for typings only (never validated: it is not an output_schema).
    returns = hints.get("return", inspect.Parameter.empty)
    if returns is not inspect.Parameter.empty and returns is not NONE_TYPE and returns is not None:
        try:
            notes = list(_notes)
            tool["result_schema"] = property_schema(returns, (), "the return value")[0]
            _notes[:] = notes  # the return value is for typings only: no warnings from it
        except Unsupported:
            pass
    if _notes:
        tool["warnings"] = list(_notes)
    return tool


def tool_methods(cls):
    """Public methods of `cls` in declaration order (bases first); nested classes,
    properties and `_`-names are not tools."""
    seen, result = set(), []
    for klass in reversed([c for c in cls.__mro__ if c is not object]):
        for name, value in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if inspect.isfunction(value):
                seen.add(name)
                result.append(name)
    return result


def valves_description(cls, attribute):
    model = getattr(cls, attribute, None)
    if not isinstance(model, type):
        return None
    try:
        schema = object_schema(model, ())
    except Unsupported as e:
        return {"error": str(e)}
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}
    defaults = {k: v["default"] for k, v in schema.get("properties", {}).items() if "default" in v}
    return {"schema": schema, "defaults": defaults}


# --- loading tool files --------------------------------------------------------------

class ToolFile:
    def __init__(self, project_dir, path):
        self.project_dir = project_dir
        self.path = path
        self.relative = os.path.relpath(path, project_dir)
        self.stamp = None
        self.module = None
        self.instance = None
        self.tools = []          # described tools (dicts)
        self.methods = {}        # tool name -> method name
        self.error = None
        self.missing_module = None  # the module a failed import named (ModuleNotFoundError.name)
        self.frontmatter = {}
        self.valves = None
        self.user_valves = None
        self.applied_valves = None

    def current_stamp(self):
        try:
            st = os.stat(self.path)
            return (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            return None

    def load(self):
        self.stamp = self.current_stamp()
        self.module, self.instance, self.tools, self.methods = None, None, [], {}
        self.error, self.valves, self.user_valves, self.applied_valves = None, None, None, None
        self.missing_module = None
        try:
            with open(self.path, encoding="utf-8") as f:
                source = f.read()
        except OSError as e:
            self.error = f"cannot read: {e.strerror}"
            return
        self.frontmatter = parse_frontmatter(source)
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(self.path))[0])
        module_name = f"toolstudio_tool_{stem}"
        try:
            spec = importlib.util.spec_from_file_location(module_name, self.path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
        except ModuleNotFoundError as e:
            requirements = self.frontmatter.get("requirements")
            self.missing_module = e.name
            self.error = (f"the module '{e.name}' is not installed for the tool worker's Python "
                          f"({sys.executable}); "
                          + (f"the file's requirements: line says: {requirements}" if requirements
                             else "the file has no requirements: line naming it"))
            return
        except SyntaxError as e:
            self.error = f"syntax error at line {e.lineno}: {e.msg}"
            return
        except BaseException as e:  # a file that raises (or exits) while loading
            self.error = f"loading failed: {type(e).__name__}: {e}\n{traceback.format_exc()}"
            return
        cls = getattr(module, "Tools", None)
        if not isinstance(cls, type):
            self.error = "no class Tools in the file"
            return
        try:
            self.instance = cls()
        except BaseException as e:
            self.error = f"Tools() failed: {type(e).__name__}: {e}\n{traceback.format_exc()}"
            return
        self.module = module
        self.valves = valves_description(cls, "Valves")
        self.user_valves = valves_description(cls, "UserValves")
        for name in tool_methods(cls):
            try:
                tool = derive_tool(name, getattr(cls, name))
            except Unsupported as e:
                tool = {"name": name, "error": str(e)}
            except Exception as e:
                tool = {"name": name, "error": f"{type(e).__name__}: {e}"}
            tool["method"] = name
            self.tools.append(tool)
            if "error" not in tool:
                self.methods[name] = name

    def describe(self):
        described = {"file": self.relative, "frontmatter": self.frontmatter, "error": self.error,
                     "valves": self.valves, "user_valves": self.user_valves, "tools": self.tools}
        if self.missing_module:
            described["missing_module"] = self.missing_module
        return described


class Registry:
    def __init__(self, project_dir):
        self.project_dir = os.path.abspath(project_dir)
        self.files = {}

    def tool_paths(self):
        folder = os.path.join(self.project_dir, "tools")
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".py") and not n.startswith("."))
        except OSError:
            return []
        return [os.path.join(folder, n) for n in names]

    def refresh(self):
        """Loads new files, reloads changed ones, forgets deleted ones."""
        paths = self.tool_paths()
        for path in list(self.files):
            if path not in paths:
                del self.files[path]
        for path in paths:
            entry = self.files.get(path)
            if entry is None:
                entry = self.files[path] = ToolFile(self.project_dir, path)
                entry.load()
            elif entry.current_stamp() != entry.stamp:
                entry.load()

    def describe(self):
        self.refresh()
        return [f.describe() for f in self.files.values()]

    def find(self, name):
        self.refresh()
        for entry in self.files.values():
            if name in entry.methods:
                return entry
        return None


# --- running methods -----------------------------------------------------------------

_capture = contextvars.ContextVar("toolstudio_capture", default=None)
_threads = {}  # attempt id -> the concurrent future of its sync method's thread
_executor = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="tool")


class _Output(io.TextIOBase):
    """sys.stdout/sys.stderr of the worker: text goes to the current attempt's
    buffer; outside an attempt to the real stderr (the protocol owns stdout)."""

    def __init__(self, fallback):
        self.fallback = fallback

    def writable(self):
        return True

    def write(self, text):
        buffer = _capture.get()
        if buffer is None:
            self.fallback.write(text)
            self.fallback.flush()
        elif buffer.tell() < MAX_OUTPUT:
            buffer.write(text)
        return len(text)

    def flush(self):
        pass

    @property
    def buffer(self):
        """``sys.stdout.buffer.write(b"...")``: bytes go where text goes, read as UTF-8."""
        return _BinaryOutput(self)


class _BinaryOutput(io.RawIOBase):
    def __init__(self, text):
        self.text = text

    def writable(self):
        return True

    def write(self, data):
        data = bytes(data)
        self.text.write(data.decode("utf-8", "replace"))
        return len(data)


def _protocol_channel():
    """The worker's own channel to the studio: a private duplicate of fd 1. fd 1 itself
    then points at stderr, so what a tool writes to it past sys.stdout (``os.write(1,
    ...)``, a C extension, a subprocess it starts) lands in the worker's stderr instead
    of corrupting the protocol. The duplicate is not inherited by subprocesses."""
    sys.stdout.flush()
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="strict")
    os.dup2(2, 1)
    return channel


def _convert_argument(annotation, value):
    """Enum values become members, model/dataclass objects become instances."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and NONE_TYPE in args:
        rest = [a for a in args if a is not NONE_TYPE]
        if value is None or len(rest) != 1:
            return value
        annotation = rest[0]
    if not isinstance(annotation, type):
        return value
    if issubclass(annotation, enum.Enum):
        return annotation(value)
    if _is_pydantic_model(annotation) and isinstance(value, dict):
        return annotation.model_validate(value) if hasattr(annotation, "model_validate") else annotation(**value)
    if dataclasses.is_dataclass(annotation) and isinstance(value, dict):
        return annotation(**value)
    return value


def _apply_valves(entry, valves):
    cls = type(entry.instance)
    wanted = (valves or {}).get("Valves") or {}
    if entry.applied_valves == wanted or not isinstance(getattr(cls, "Valves", None), type):
        return
    entry.instance.valves = cls.Valves(**wanted)
    entry.applied_valves = wanted


async def invoke(registry, message, emit_output):
    """Runs one attempt; returns the reply (result or error) without output."""
    name = message.get("tool", "")
    entry = registry.find(name)
    if entry is None:
        for f in registry.files.values():
            for tool in f.tools:
                if tool.get("name") == name and "error" in tool:
                    return _error(f"{f.relative}: tool '{name}' failed to load: {tool['error']}", False)
        return _error(f"no Python tool '{name}' in tools/*.py", False)
    method = getattr(entry.instance, entry.methods[name])
    all_valves = message.get("valves") or {}
    file_valves = all_valves.get(entry.relative) if isinstance(all_valves, dict) else None
    file_valves = file_valves if isinstance(file_valves, dict) else {}
    try:
        _apply_valves(entry, file_valves)
    except Exception as e:
        return _error(f"the valves of {entry.relative} are invalid: {type(e).__name__}: {e}", False)

    signature = inspect.signature(method)
    try:
        hints = typing.get_type_hints(method)
    except Exception:
        hints = {}
    args = dict(message.get("args") or {})
    # Injected parameters come from the studio only; a caller cannot set them.
    forged = sorted(k for k in args if k.startswith("__"))
    if forged:
        return _invalid(f"{', '.join(repr(k) for k in forged)}: set by the studio (an injected parameter, "
                        "docs/python-tools.md); a call cannot pass it")
    metadata = dict(message.get("metadata") or {})
    user_valves_cls = getattr(type(entry.instance), "UserValves", None)
    user = {"id": "toolstudio", "name": "Tool Studio", "role": "user"}
    if isinstance(user_valves_cls, type):
        try:
            user["valves"] = user_valves_cls(**(file_valves.get("UserValves") or {}))
        except Exception as e:
            return _error(f"the user valves of {entry.relative} are invalid: {type(e).__name__}: {e}", False)

    async def event_emitter(event):
        print(f"[event] {json.dumps(to_json_value(event))}")

    async def event_call(event):
        print(f"[event call] {json.dumps(to_json_value(event))}")
        return None

    injected = {
        "__idempotency_key__": message.get("idempotency_key", ""),
        "__user__": user,
        "__event_emitter__": event_emitter,
        "__event_call__": event_call,
        "__metadata__": metadata,
        "__id__": os.path.splitext(os.path.basename(entry.path))[0],
        "__attempt__": metadata.get("attempt", 1),
    }
    kwargs = {}
    named = [p for p in signature.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    takes_any = any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values())
    unexpected = sorted(set(args) - {p.name for p in named})
    if unexpected and not takes_any:
        taken = ", ".join(p.name for p in named if not p.name.startswith("__")) or "no arguments"
        return _invalid(f"unexpected argument(s) {', '.join(repr(k) for k in unexpected)} ({name} takes {taken})")
    for param in named:
        if param.name.startswith("__"):
            if param.name in injected:
                kwargs[param.name] = injected[param.name]
            elif param.default is inspect.Parameter.empty:
                kwargs[param.name] = None
            continue
        is_required, default, factory, _ = parameter_default(param)
        given = param.name in args
        value = args.pop(param.name, None)
        if value is None and not is_required:
            # Left out, or null (OpenAI strict mode's "left out"): the real default,
            # never a pydantic FieldInfo.
            try:
                kwargs[param.name] = factory() if factory is not None else default
            except Exception as e:
                return _error(f"the default_factory of '{param.name}' failed: {type(e).__name__}: {e}", False)
        elif not given:
            return _invalid(f"missing required argument '{param.name}'")
        else:
            try:
                kwargs[param.name] = _convert_argument(hints.get(param.name), value)
            except Exception as e:
                return _invalid(f"argument '{param.name}': {type(e).__name__}: {e}")
    kwargs.update(args)  # what is left: the **kwargs of a method that takes them
    try:
        signature.bind(**kwargs)
    except TypeError as e:
        return _error(f"{name}: {e}", False)

    try:
        if inspect.iscoroutinefunction(method):
            value = await method(**kwargs)
        else:
            context = contextvars.copy_context()
            future = _executor.submit(context.run, lambda: method(**kwargs))
            _threads[message.get("id")] = future
            future.add_done_callback(lambda _: _threads.pop(message.get("id"), None))
            value = await asyncio.wrap_future(future)
            if inspect.isawaitable(value):
                value = await value
    except asyncio.CancelledError:
        raise
    except BaseException as e:  # SystemExit and KeyboardInterrupt from a tool fail the call only
        tb = _tool_traceback(e)
        # Not retried when anything in the chain says so (`raise X from NonRetryableError(..)`).
        chain, text = _error_chain(e)
        retryable = all(getattr(c, "retryable", True) is not False for c in chain)
        return _error(text, retryable, type(e).__name__, tb)
    try:
        return {"type": "result", "value": to_json_value(value)}
    except TypeError as e:
        return _error(f"{name} returned {e}; return str, int, float, bool, None, a list or a dict", False)
    except Exception as e:  # a list holding itself (RecursionError), a stand-in's model_dump, ...
        return _error(f"{name} returned a value that has no JSON form ({type(e).__name__}: {e}); return str, "
                      "int, float, bool, None, a list or a dict", False)


def _tool_traceback(exc):
    """The traceback from the tool file's frames on (the worker's and asyncio's own
    frames are left out: they are the same for every call), after those of the
    exceptions it was raised from or during (_error_chain), as Python prints them."""
    sections = []
    chain = _error_chain(exc)[0]
    for i, e in enumerate(reversed(chain)):
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if f.filename != __file__ and "/asyncio/" not in f.filename
                  and "/concurrent/futures/" not in f.filename]
        if i:
            sections.append("\nThe above exception was the direct cause of the following exception:\n\n"
                            if e.__cause__ is not None else
                            "\nDuring handling of the above exception, another exception occurred:\n\n")
        sections.append("Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
                        + "".join(traceback.format_exception_only(type(e), e)))
    return "".join(sections)


def _invalid(message):
    """The call's arguments do not fit the method: invalid_arguments, not retried."""
    reply = _error(message, False, "InvalidArguments")
    reply["error"]["code"] = "invalid_arguments"
    return reply


def _error_chain(exc, limit=8, max_chars=2000):
    """The exception, then each one it was raised from or during (__cause__, else
    __context__ unless suppressed), as (exceptions, message): "A: x; caused by B: y"."""
    chain, seen = [], set()
    while exc is not None and id(exc) not in seen and len(chain) < limit:
        seen.add(id(exc))
        chain.append(exc)
        exc = exc.__cause__ if exc.__cause__ is not None else (
            None if exc.__suppress_context__ else exc.__context__)
    parts = [f"{type(e).__name__}: {e}" for e in chain]
    text = "; caused by ".join(parts)
    if exc is not None and id(exc) not in seen:
        text += "; caused by …"
    if len(text) > max_chars:
        text = text[:max_chars - 1] + "…"
    return chain, text


def _error(message, retryable, kind="ToolError", tb=None):
    error = {"message": message, "retryable": bool(retryable), "type": kind}
    if tb:
        error["traceback"] = tb
    return {"type": "error", "error": error}


# --- main loops ----------------------------------------------------------------------

def _install_support_module():
    module = types.ModuleType("toolstudio_tools")
    module.NonRetryableError = NonRetryableError
    module.__doc__ = "Helpers for tool files run by Tool Studio's tool worker."
    sys.modules["toolstudio_tools"] = module


def serve(project_dir):
    protocol = _protocol_channel()
    lock = threading.Lock()
    sys.stdout = _Output(sys.__stderr__)
    sys.stderr = _Output(sys.__stderr__)
    registry = Registry(project_dir)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    tasks = {}

    def send(obj):
        line = json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n"
        with lock:
            protocol.write(line)
            protocol.flush()

    async def run_invoke(message):
        buffer = io.StringIO()
        _capture.set(buffer)
        try:
            reply = await invoke(registry, message, buffer)
        except asyncio.CancelledError:
            return
        except Exception as e:  # never no reply: the call would wait for its timeout
            reply = _error(f"the tool worker could not report the call's outcome: {type(e).__name__}", False)
        finally:
            tasks.pop(message.get("id"), None)
        # "id" first: a reply the studio refuses unread (nested too deep) still names its call.
        reply = {"id": message.get("id"), **reply}
        output = buffer.getvalue()
        if reply["type"] == "error" and reply["error"].get("traceback"):
            output += reply["error"]["traceback"]
        # A lone surrogate the tool printed would make the reply unsendable: "?" instead.
        output = output.encode("utf-8", "replace").decode("utf-8")
        reply["output"] = output
        try:
            send(reply)
        except ValueError as e:  # a lone surrogate (UnicodeEncodeError) in the value or the message
            send({"type": "error", "id": message.get("id"), "output": output,
                  "error": {"message": f"the result has no JSON form: {e}", "retryable": False, "type": "ValueError"}})

    def handle(line):
        try:
            message = json.loads(line)
        except ValueError as e:
            sys.__stderr__.write(f"toolworker: malformed request: {e}\n")
            return
        kind = message.get("type")
        if kind == "describe":
            send({"type": "described", "id": message.get("id"), "files": registry.describe()})
        elif kind == "invoke":
            tasks[message.get("id")] = loop.create_task(run_invoke(message))
        elif kind == "cancel":
            ident = message.get("id")
            task = tasks.pop(ident, None)
            if task:
                task.cancel()
            thread = _threads.get(ident)
            stopped = {"type": "cancelled", "id": ident}
            if thread is not None and not thread.done():
                # Confirmed when the method returns; the studio restarts the worker first
                # if that takes longer than its grace period.
                thread.add_done_callback(lambda _: loop.call_soon_threadsafe(send, stopped))
            else:
                send(stopped)
        elif kind == "shutdown":
            loop.stop()

    def reader():
        for line in sys.stdin:
            if line.strip():
                loop.call_soon_threadsafe(handle, line)
        loop.call_soon_threadsafe(loop.stop)

    threading.Thread(target=reader, daemon=True).start()
    loop.run_forever()


def main(argv):
    if len(argv) != 3 or argv[1] not in ("serve", "describe"):
        sys.stderr.write("usage: toolworker.py serve|describe PROJECT_DIR\n")
        return 2
    project_dir = os.path.abspath(argv[2])
    sys.dont_write_bytecode = True  # loading never writes into the project folder
    os.chdir(project_dir)
    _install_support_module()
    try:  # beside this script (the studio places both): Open WebUI stand-ins, last on the path
        import openwebui_compat
        openwebui_compat.install()
    except ImportError:
        sys.stderr.write("toolworker: openwebui_compat.py is missing; Open WebUI imports will fail\n")
    if argv[1] == "describe":
        protocol = _protocol_channel()
        sys.stdout = _Output(sys.__stderr__)
        files = Registry(project_dir).describe()
        protocol.write(json.dumps({"type": "described", "files": files}, ensure_ascii=False) + "\n")
        protocol.flush()
        return 0
    serve(project_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
