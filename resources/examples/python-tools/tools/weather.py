"""
title: Weather and units
author: Tool Studio examples
version: 0.2.0
description: Offline weather lookups and unit conversion, written as an Open WebUI tool file.
requirements: pydantic
"""
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
import asyncio
import os
from enum import Enum
from typing import Literal, Optional

from pydantic import BaseModel, Field

# Tool files may raise this to fail a call without retries (any exception with
# `retryable = False` does the same, so the file still runs outside the studio).
try:
    from toolstudio_tools import NonRetryableError
except ImportError:  # pragma: no cover - outside Tool Studio
    class NonRetryableError(Exception):
        retryable = False


class Unit(Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


CITIES = {"paris": 14.5, "oslo": 3.0, "cairo": 27.25, "lima": 19.0}


class Tools:
    class Valves(BaseModel):
        default_unit: str = Field("celsius", description="Unit used when the caller names none")
        forecast_days: int = Field(3, description="How many days a forecast covers")

    class UserValves(BaseModel):
        greeting: str = Field("Hello", description="How reports greet the user")

    def __init__(self):
        self.valves = self.Valves()

    def get_temperature(self, city: str, unit: Optional[Unit] = None) -> float:
        """Current temperature in a city.

        Args:
            city: City name, e.g. "Paris". Case does not matter; only a few
                cities are known offline.
            unit: Temperature unit; the valve default_unit when left out.
        """
        key = city.strip().lower()
        if key not in CITIES:
            raise NonRetryableError(f"unknown city {city!r}; known: {', '.join(sorted(CITIES))}")
        unit = unit or Unit(self.valves.default_unit)
        celsius = CITIES[key]
        print(f"looked up {key}: {celsius} C")
        return celsius if unit is Unit.CELSIUS else round(celsius * 9 / 5 + 32, 1)

    def convert(self, value: float, to: Literal["celsius", "fahrenheit"] = "celsius") -> float:
        """Convert a temperature.

        :param value: The temperature in the other unit.
        :param to: The unit to convert into.
        """
        return round((value - 32) * 5 / 9, 2) if to == "celsius" else round(value * 9 / 5 + 32, 2)

    async def forecast(self, city: str, days: Optional[int] = None, __event_emitter__=None,
                       __user__: Optional[dict] = None) -> list[dict]:
        """A made-up forecast, computed slowly (an async method).

        :param city: City name.
        :param days: Number of days; the valve forecast_days when left out.
        """
        days = days or self.valves.forecast_days
        if __event_emitter__:
            await __event_emitter__({"type": "status", "data": {"description": f"forecasting {city}"}})
        await asyncio.sleep(0.05)
        base = CITIES.get(city.lower(), 10.0)
        greeting = __user__["valves"].greeting if __user__ and "valves" in __user__ else "Hello"
        return [{"day": d + 1, "celsius": base + d, "note": f"{greeting} from {city}"} for d in range(days)]

    def api_status(self, __idempotency_key__: str = "") -> dict:
        """Whether the weather API key secret (WEATHER_API_KEY) is configured.

        The key itself is never returned; only whether it is set.
        """
        return {"configured": bool(os.environ.get("WEATHER_API_KEY")), "idempotency_key": __idempotency_key__}
