# Shared by every derivation row of tst_pythontools (the row's method follows `class Tools:`).
from enum import Enum
from typing import Annotated, Any, Dict, List, Literal, Optional, TypedDict, Union

from pydantic import BaseModel, Field
from pydantic.v1 import Field as FieldV1  # pydantic 1's names (regex, min_items)


class Color(Enum):
    RED = "red"
    BLUE = "blue"


class Level(Enum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    """A postal address."""
    street: str = Field(..., description="Street and number")
    zip: Optional[str] = None


class Node(BaseModel):
    name: str
    children: List["Node"] = []


Node.update_forward_refs()


class Point(TypedDict):
    x: float
    y: float


class Tools:
