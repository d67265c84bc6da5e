# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Derivation (toolstudio_worker/derive.py): the exact schema of typed signatures."""

import enum
import unittest
from typing import Annotated, Literal, Optional

import workerpath  # noqa: F401  (sys.path)
from toolstudio_worker.derive import Unsupported, derive_tool, parse_docstring, valves_description

try:
    import pydantic
except ImportError:
    pydantic = None


class Colour(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


def schema_of(method):
    return derive_tool(method.__name__, method)


class TypedSignatures(unittest.TestCase):
    def test_plain_types_in_signature_order(self):
        def search(self, query: str, limit: int, ratio: float, exact: bool, tags: list[str],
                   scores: dict[str, float]) -> list[str]:
            """Searches the notes."""

        tool = schema_of(search)
        self.assertEqual(tool, {
            "name": "search",
            "description": "Searches the notes.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer"},
                    "ratio": {"type": "number"},
                    "exact": {"type": "boolean"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "scores": {"type": "object", "additionalProperties": {"type": "number"}},
                },
                "required": ["query", "limit", "ratio", "exact", "tags", "scores"],
                "additionalProperties": False,
            },
            "parameter_order": ["query", "limit", "ratio", "exact", "tags", "scores"],
            "result_schema": {"type": "array", "items": {"type": "string"}},
        })

    def test_optional_is_any_of_null_and_required_follows_the_default(self):
        def pick(self, a: Optional[int], b: str | None = None, c: Optional[float] = 2.5):
            """Picks."""

        schema = schema_of(pick)["input_schema"]
        self.assertEqual(schema["properties"], {
            "a": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "c": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": 2.5},
        })
        self.assertEqual(schema["required"], ["a"])

    def test_literal_and_enum_are_enums_with_their_json_type(self):
        def paint(self, mode: Literal["fast", "slow"], colour: Colour = Colour.GREEN,
                  level: Level = Level.LOW, mixed: Literal[1, 2.5] = 1):
            """Paints."""

        self.assertEqual(schema_of(paint)["input_schema"]["properties"], {
            "mode": {"type": "string", "enum": ["fast", "slow"]},
            "colour": {"type": "string", "enum": ["red", "green"], "default": "green"},
            "level": {"type": "integer", "enum": [1, 2], "default": 1},
            "mixed": {"type": "number", "enum": [1, 2.5], "default": 1},
        })

    def test_defaults_without_json_form_or_none_stay_out(self):
        def keep(self, a: int = 3, b: str = "x", c: list[int] = [1, 2], d: Optional[int] = None,
                 e: float = float("nan")):
            """Keeps."""

        self.assertEqual(schema_of(keep)["input_schema"], {
            "type": "object",
            "properties": {
                "a": {"type": "integer", "default": 3},
                "b": {"type": "string", "default": "x"},
                "c": {"type": "array", "items": {"type": "integer"}, "default": [1, 2]},
                "d": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "e": {"type": "number"},
            },
            "additionalProperties": False,
        })

    def test_injected_parameters_and_kwargs(self):
        def act(self, q: str, __user__: dict = None, __event_emitter__=None, **kwargs):
            """Acts."""

        tool = schema_of(act)
        self.assertEqual(tool["input_schema"], {
            "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})
        self.assertEqual(tool["parameter_order"], ["q"])

    def test_untyped_containers_and_missing_docstring_warn(self):
        def loose(self, items: list, options: dict):
            pass

        tool = schema_of(loose)
        self.assertEqual(tool["description"], "")
        self.assertEqual(tool["warnings"], [
            "parameter 'items': an untyped list: its items can be any JSON value (write list[T] to say which)",
            "parameter 'options': an untyped dict: any JSON object is accepted (write dict[str, T] or a model)",
            "no docstring: the model gets no description of this tool (write one; :param x: or Args: lines "
            "describe the parameters)",
        ])

    def test_unsupported_annotations_name_the_parameter(self):
        def keyed(self, k: dict[int, str]):
            """K."""

        def setty(self, s: set):
            """S."""

        with self.assertRaises(Unsupported) as keyed_error:
            schema_of(keyed)
        self.assertEqual(str(keyed_error.exception),
                         "parameter 'k': unsupported type annotation 'dict[int, str]' (JSON object keys are "
                         "strings: use dict[str, T])")
        with self.assertRaises(Unsupported) as set_error:
            schema_of(setty)
        self.assertEqual(str(set_error.exception),
                         "parameter 's': unsupported type annotation 'set' (supported: str, int, float, bool, "
                         "list[T], dict[str, T], Optional[T], Union[...], Literal[...], Enum, pydantic models, "
                         "TypedDict, dataclasses, Any)")

    def test_invalid_tool_name(self):
        with self.assertRaises(Unsupported) as error:
            derive_tool("a b", lambda self: None)
        self.assertEqual(str(error.exception),
                         "invalid tool name 'a b' (1 to 128 letters, digits, '_', '-' or '.', starting with a "
                         "letter, digit or '_')")


class Docstrings(unittest.TestCase):
    def test_rest_params(self):
        doc = """Gets the weather.

        More text.

        :param city: City name,
            e.g. "Paris".
        :param str unit: Unit.
        :returns: the weather
        """
        self.assertEqual(parse_docstring(doc),
                         ("Gets the weather.\n\nMore text.", {"city": 'City name, e.g. "Paris".', "unit": "Unit."}))

    def test_google_params(self):
        doc = """Gets the weather.

        Args:
            city (str): City name.
                Continued.
            unit: Unit.

        Returns:
            the weather
        """
        self.assertEqual(parse_docstring(doc),
                         ("Gets the weather.", {"city": "City name. Continued.", "unit": "Unit."}))

    def test_docstring_descriptions_reach_the_schema(self):
        def weather(self, city: str, unit: str = "C"):
            """Gets the weather.

            :param city: City name.
            :param unit: Unit.
            """

        self.assertEqual(schema_of(weather)["input_schema"]["properties"], {
            "city": {"type": "string", "description": "City name."},
            "unit": {"type": "string", "description": "Unit.", "default": "C"},
        })


@unittest.skipIf(pydantic is None, "pydantic is not installed for this python3 (the Debian package python3-pydantic)")
class PydanticFields(unittest.TestCase):
    def test_field_defaults_constraints_and_descriptions(self):
        from pydantic import Field

        def book(self, name: str = Field(..., min_length=2, max_length=40, description="Guest name"),
                 nights: int = Field(default=1, ge=1, le=30),
                 price: float = Field(99.5, gt=0, multiple_of=0.5),
                 tags: list[str] = Field(default_factory=list),
                 code: str = Field("AB", regex="^[A-Z]+$")):
            """Books a room.

            :param name: overridden by the Field's description
            :param nights: How many nights.
            """

        self.assertEqual(schema_of(book)["input_schema"], {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 40, "description": "Guest name"},
                "nights": {"type": "integer", "minimum": 1, "maximum": 30, "description": "How many nights.",
                           "default": 1},
                "price": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5, "default": 99.5},
                "tags": {"type": "array", "items": {"type": "string"}},
                "code": {"type": "string", "pattern": "^[A-Z]+$", "default": "AB"},
            },
            "required": ["name"],
            "additionalProperties": False,
        })

    def test_annotated_field_constraints_and_description(self):
        from pydantic import Field

        def rate(self, stars: Annotated[int, Field(ge=1, le=5, description="Stars")],
                 note: Optional[Annotated[str, Field(max_length=10)]] = None):
            """Rates."""

        self.assertEqual(schema_of(rate)["input_schema"]["properties"], {
            "stars": {"type": "integer", "minimum": 1, "maximum": 5, "description": "Stars"},
            "note": {"anyOf": [{"type": "string", "maxLength": 10}, {"type": "null"}]},
        })

    def test_constraint_that_does_not_apply_is_a_warning(self):
        from pydantic import Field

        def flag(self, on: bool = Field(True, ge=1)):
            """Flags."""

        tool = schema_of(flag)
        self.assertEqual(tool["input_schema"]["properties"], {"on": {"type": "boolean", "default": True}})
        self.assertEqual(tool["warnings"], [
            "parameter 'on': the constraint ge=1 does not apply to a JSON boolean and is not in the schema"])

    def test_model_parameter_and_valves(self):
        from pydantic import BaseModel, Field

        class Point(BaseModel):
            """A point."""
            x: int = Field(..., ge=0, description="x coordinate")
            y: float = 1.5
            labels: list[str] = Field(default_factory=list, max_items=3)

        class Tools:
            class Valves(BaseModel):
                api_key: str = Field("", description="The key")
                retries: int = 3

            def move(self, to: Point) -> Point:
                """Moves."""

        tool = derive_tool("move", Tools.move)
        point = {
            "type": "object",
            "properties": {
                "x": {"type": "integer", "minimum": 0, "description": "x coordinate"},
                "y": {"type": "number", "default": 1.5},
                "labels": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
            },
            "required": ["x"],
            "description": "A point.",
        }
        self.assertEqual(tool["input_schema"]["properties"], {"to": point})
        self.assertEqual(tool["result_schema"], point)
        self.assertEqual(valves_description(Tools, "Valves"), {
            "schema": {"type": "object", "properties": {
                "api_key": {"type": "string", "description": "The key", "default": ""},
                "retries": {"type": "integer", "default": 3}}},
            "defaults": {"api_key": "", "retries": 3},
        })
        self.assertIsNone(valves_description(Tools, "UserValves"))


if __name__ == "__main__":
    unittest.main()
