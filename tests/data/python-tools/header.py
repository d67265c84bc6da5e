# Shared by every derivation row of tst_pythontools (the row's method follows `class Tools:`).
from enum import Enum
from typing import Annotated, Any, Dict, List, Literal, Optional, TypedDict, Union

import pydantic
from pydantic import BaseModel, Field


def pattern(regex):
    """Field(**pattern(...)): pydantic 2 calls it pattern, pydantic 1 (Debian's) regex."""
    return {"pattern" if pydantic.VERSION.startswith("2") else "regex": regex}


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
