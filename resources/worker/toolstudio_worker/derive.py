# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Derivation: a tool (name, description, input_schema, ...) from a Python method's
signature, type hints and docstring, with the standard library only; pydantic models,
``Field(...)`` defaults and ``Annotated[X, Field(...)]`` are read by duck typing, so
pydantic 1 and 2 both work and neither is needed."""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import re
import types
import typing
from collections.abc import Iterator
from typing import Any

JsonSchema = dict[str, Any]

NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")  # Tool::isValidName
NONE_TYPE = type(None)
EMPTY = inspect.Parameter.empty


class Unsupported(Exception):
    """An annotation the derivation cannot express as JSON Schema."""


# Warnings of the derivation under way (derive_tool): what the schema cannot say
# exactly, shown on the tool in the studio (Project dock, `tools list`).
_notes: list[str] = []


def _note(text: str) -> None:
    if text not in _notes:
        _notes.append(text)


# --- docstrings ---------------------------------------------------------------------

_REST_PARAM = re.compile(r"^:param\s+(?:[^:]*?\s)?\*{0,2}(\w+)\s*:\s*(.*)$")
_REST_OTHER = re.compile(r"^:(returns?|rtype|raises?|type|yields?|except|exception|ivar|var|cvar|meta)\b")
_GOOGLE_ARGS = re.compile(r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments)\s*:\s*$")
_GOOGLE_OTHER = re.compile(
    r"^(Returns?|Raises|Yields?|Examples?|Notes?|Attributes|See Also|Todo|Warnings?|References)\s*:\s*$")
_GOOGLE_PARAM = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Returns (description, {param: description}). The description is the text
    before the first parameter section (reST ``:param x:`` or Google ``Args:``);
    multi-line parameter descriptions are joined with single spaces."""
    lines = inspect.cleandoc(doc or "").split("\n")
    description: list[str] = []
    params: dict[str, list[str]] = {}
    mode: str | None = None
    current: str | None = None
    param_indent: int | None = None
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


def parse_frontmatter(source: str) -> dict[str, str]:
    """``key: value`` lines at the start of the module docstring (Open WebUI)."""
    try:
        doc = ast.get_docstring(ast.parse(source)) or ""
    except SyntaxError:
        return {}
    result: dict[str, str] = {}
    for line in doc.split("\n"):
        m = re.match(r"^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$", line)
        if m:
            result[m.group(1).lower()] = m.group(2)
        elif line.strip():
            break
    return result


# --- values -------------------------------------------------------------------------

def is_pydantic_model(t: Any) -> bool:
    return isinstance(t, type) and any(c.__name__ == "BaseModel" for c in t.__mro__[1:]) and (
        hasattr(t, "model_fields") or hasattr(t, "__fields__"))


def to_json_value(value: Any) -> Any:
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
    if hasattr(value, "dict") and is_pydantic_model(type(value)):
        return to_json_value(value.dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json_value(dataclasses.asdict(value))
    raise TypeError(f"a value of type {type(value).__name__} has no JSON form")


# --- pydantic Field(...) and constraints ----------------------------------------------

def is_field_info(value: Any) -> bool:
    """A pydantic ``Field(...)`` used as a parameter default."""
    return type(value).__name__ == "FieldInfo" and type(value).__module__.startswith("pydantic")


def _is_undefined(value: Any) -> bool:
    return value is Ellipsis or type(value).__name__ in ("PydanticUndefinedType", "UndefinedType")


class ParameterDefault(typing.NamedTuple):
    required: bool
    default: Any  # EMPTY when there is none (or a factory makes it)
    factory: typing.Callable[[], Any] | None
    description: str | None


def parameter_default(param: inspect.Parameter) -> ParameterDefault:
    """(required, default, factory, description) of a parameter as pydantic means a
    ``Field(...)`` default: ``Field(...)`` is required, ``Field(default=3)`` defaults
    to 3, ``Field(default_factory=list)`` to a new list each call. ``default`` is
    inspect.Parameter.empty when there is none (or a factory makes it)."""
    default = param.default
    if not is_field_info(default):
        return ParameterDefault(default is EMPTY, default, None, None)
    factory = getattr(default, "default_factory", None)
    value = getattr(default, "default", EMPTY)
    if _is_undefined(value) or factory is not None:
        value = EMPTY
    return ParameterDefault(value is EMPTY and factory is None, value, factory,
                            getattr(default, "description", None))


# pydantic's constraint names (v1 and v2; v2 keeps them in FieldInfo.metadata as
# annotated_types objects) -> the JSON Schema keyword, by the type they apply to.
_CONSTRAINTS: dict[str, dict[str, str]] = {
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


def _is_constraint_source(value: Any) -> bool:
    """A pydantic FieldInfo or an annotated_types constraint (``Annotated[int, Ge(1)]``)."""
    module = type(value).__module__
    return is_field_info(value) or module.startswith(("annotated_types", "pydantic"))


def field_constraints(value: Any) -> dict[str, Any]:
    """{constraint: value} of a pydantic ``Field(...)`` (v1 attributes, v2 metadata) or
    an annotated_types object: ge, gt, le, lt, multiple_of, min/max_length, pattern and
    v1's regex, min_items, max_items."""
    found: dict[str, Any] = {}
    for source in [value] + list(getattr(value, "metadata", None) or []):
        if not _is_constraint_source(source):
            continue
        for name in _CONSTRAINTS:
            got = getattr(source, name, None)
            if got is not None and not _is_undefined(got) and name not in found:
                found[name] = getattr(got, "pattern", got)  # a compiled pattern: its text
    return found


def constrain(schema: JsonSchema, constraints: dict[str, Any], where: str) -> JsonSchema:
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
        keyword = _CONSTRAINTS[name].get(kind)  # type: ignore[arg-type]
        if keyword is None:
            _note(f"{where}: the constraint {name}={value!r} does not apply to "
                  f"{'this type' if kind is None else 'a JSON ' + kind} and is not in the schema")
            continue
        try:
            schema[keyword] = to_json_value(value)
        except TypeError:
            _note(f"{where}: the constraint {name}={value!r} has no JSON form and is not in the schema")
    return schema


def annotated_description(annotation: Any) -> str | None:
    """The description of a ``Field(description=...)`` in ``Annotated[X, Field(...)]``
    (also inside Optional[...]); None when there is none."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        for meta in reversed(args[1:]):
            if is_field_info(meta) and getattr(meta, "description", None):
                return meta.description
        return annotated_description(args[0])
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            found = annotated_description(arg)
            if found:
                return found
    return None


# --- type hints -> JSON Schema -----------------------------------------------------

def _type_name(annotation: Any) -> str:
    if isinstance(annotation, type) and not typing.get_args(annotation):
        return annotation.__qualname__
    return repr(annotation).replace("typing.", "")


def _enum_type(values: list[Any]) -> str | None:
    kinds: set[str] = set()
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


def _enum_schema(values: list[Any]) -> JsonSchema:
    schema: JsonSchema = {}
    kind = _enum_type(values)
    if kind:
        schema["type"] = kind
    schema["enum"] = values
    return schema


def _with_default(schema: JsonSchema, default: Any) -> JsonSchema:
    """The default goes into the schema when it has a JSON form and is not None
    (None is not a value of the parameter's type; leaving it out means None)."""
    if default is None or default is EMPTY:
        return schema
    try:
        schema["default"] = to_json_value(default)
    except TypeError:
        pass
    return schema


class _Field(typing.NamedTuple):
    name: str
    annotation: Any
    required: bool
    default: Any
    description: str | None
    constraints: dict[str, Any]


def _object_fields(t: type) -> Iterator[_Field]:
    """The fields of a model-like class (pydantic model, TypedDict, dataclass)."""
    hints = typing.get_type_hints(t)
    if is_pydantic_model(t):
        if hasattr(t, "model_fields"):  # pydantic 2
            for name, field in t.model_fields.items():
                required = field.is_required()
                default = EMPTY if required or field.default_factory else field.default
                yield _Field(name, hints.get(name, field.annotation), required, default, field.description,
                             field_constraints(field))
        else:  # pydantic 1
            for name, field in t.__fields__.items():  # type: ignore[attr-defined]
                default = EMPTY if field.required else field.default
                yield _Field(name, hints.get(name, field.outer_type_), bool(field.required), default,
                             field.field_info.description, field_constraints(field.field_info))
    elif typing.is_typeddict(t):
        for name, annotation in hints.items():
            yield _Field(name, annotation, name in t.__required_keys__, EMPTY, None, {})  # type: ignore[attr-defined]
    else:  # dataclass
        for field in dataclasses.fields(t):
            has_default = field.default is not dataclasses.MISSING
            has_factory = field.default_factory is not dataclasses.MISSING
            default = field.default if has_default else EMPTY
            yield _Field(field.name, hints.get(field.name, field.type), not (has_default or has_factory), default,
                         None, {})


def object_schema(t: type, stack: tuple[type, ...], where: str = "parameter") -> JsonSchema:
    if t in stack:
        _note(f"{where}: the recursive model {t.__name__} is cut off here (schemas are inlined without "
              f"$ref): any object is accepted at that depth and nothing in it is checked")
        return {"type": "object",
                "description": f"recursive reference to {t.__name__} cut off here "
                               "(schemas are inlined without $ref)"}
    stack = stack + (t,)
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    for field in _object_fields(t):
        field_where = f"field '{field.name}' of {t.__name__}"
        schema, _ = property_schema(field.annotation, stack, field_where)
        constrain(schema, field.constraints, field_where)
        if field.description:
            schema["description"] = field.description
        _with_default(schema, field.default)
        properties[field.name] = schema
        if field.required:
            required.append(field.name)
    result: JsonSchema = {"type": "object", "properties": properties}
    if required:
        result["required"] = required
    doc = t.__dict__.get("__doc__")
    if doc and not typing.is_typeddict(t) and not (dataclasses.is_dataclass(t) and doc.startswith(t.__name__ + "(")):
        result["description"] = inspect.cleandoc(doc)
    return result


def property_schema(annotation: Any, stack: tuple[type, ...] = (),
                    where: str = "parameter") -> tuple[JsonSchema, bool]:
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


def type_schema(t: Any, stack: tuple[type, ...] = (), where: str = "parameter") -> JsonSchema:
    """The JSON Schema of one annotation; raises Unsupported naming `where`."""
    if t is EMPTY or t is typing.Any or t is object:
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
        return _enum_schema(list(args))
    if origin is list:
        return {"type": "array", "items": type_schema(args[0], stack, where) if args else {}}
    if origin is dict:
        if args and args[0] is not str:
            raise Unsupported(f"{where}: unsupported type annotation '{_type_name(t)}' "
                              "(JSON object keys are strings: use dict[str, T])")
        return {"type": "object", "additionalProperties": type_schema(args[1], stack, where) if args else {}}
    if isinstance(t, type) and issubclass(t, enum.Enum):
        return _enum_schema([to_json_value(m.value) for m in t])
    if isinstance(t, type) and (is_pydantic_model(t) or typing.is_typeddict(t) or dataclasses.is_dataclass(t)):
        return object_schema(t, stack, where)
    raise Unsupported(f"{where}: unsupported type annotation '{_type_name(t)}' (supported: str, int, float, "
                      "bool, list[T], dict[str, T], Optional[T], Union[...], Literal[...], Enum, "
                      "pydantic models, TypedDict, dataclasses, Any)")


# --- tools ------------------------------------------------------------------------------

def derive_tool(name: str, method: typing.Callable[..., Any]) -> dict[str, Any]:
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
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    takes_any = False
    for param in signature.parameters.values():
        if param.name == "self" or param.name.startswith("__"):
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            takes_any = takes_any or param.kind == param.VAR_KEYWORD
            continue
        annotation = hints.get(param.name, EMPTY)
        where = f"parameter '{param.name}'"
        schema, _ = property_schema(annotation, (), where)
        default = parameter_default(param)
        if is_field_info(param.default):
            constrain(schema, field_constraints(param.default), where)
        # A Field's description (the default's, else Annotated's) wins over the docstring's.
        about = default.description or annotated_description(annotation) or param_docs.get(param.name)
        if about:
            schema["description"] = about
        _with_default(schema, default.default)
        properties[param.name] = schema
        if default.required:
            required.append(param.name)
    input_schema: JsonSchema = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    if not takes_any:
        input_schema["additionalProperties"] = False
    if not inspect.getdoc(method):
        _note("no docstring: the model gets no description of this tool (write one; "
              ":param x: or Args: lines describe the parameters)")
    tool: dict[str, Any] = {"name": name, "description": description, "input_schema": input_schema,
                            "parameter_order": list(properties)}
    # The return annotation, for typings only (never validated: it is not an output_schema).
    returns = hints.get("return", EMPTY)
    if returns is not EMPTY and returns is not NONE_TYPE and returns is not None:
        try:
            notes = list(_notes)
            tool["result_schema"] = property_schema(returns, (), "the return value")[0]
            _notes[:] = notes  # the return value is for typings only: no warnings from it
        except Unsupported:
            pass
    if _notes:
        tool["warnings"] = list(_notes)
    return tool


def tool_methods(cls: type) -> list[str]:
    """Public methods of `cls` in declaration order (bases first); nested classes,
    properties and `_`-names are not tools."""
    seen: set[str] = set()
    result: list[str] = []
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


def valves_description(cls: type, attribute: str) -> dict[str, Any] | None:
    """{"schema", "defaults"} of the model `cls.<attribute>` (Valves, UserValves),
    {"error"} when it cannot be derived, None when there is no such class."""
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
