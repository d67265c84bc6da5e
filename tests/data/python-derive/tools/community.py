# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""
title: Notes (written in the Open WebUI community's style)
author: Tool Studio tests
version: 0.1.0
"""
import logging

from fastapi import Request
from open_webui.env import SRC_LOG_LEVELS
from open_webui.models.users import Users
from open_webui.utils.misc import get_last_user_message
from pydantic import BaseModel, Field

log = logging.getLogger(__name__)
log.setLevel(SRC_LOG_LEVELS["MAIN"])


class Tools:
    class Valves(BaseModel):
        prefix: str = Field(default="note", description="Put before every note")

    def __init__(self):
        self.valves = self.Valves()

    async def add_note(self, text: str, __request__: Request = None, __user__: dict = {},
                       __event_emitter__=None) -> str:
        """Adds a note.

        :param text: The note's text.
        """
        if __event_emitter__:
            await __event_emitter__({"type": "status", "data": {"description": "saving", "done": True}})
        return f"{self.valves.prefix}: {text}"

    async def note_author(self, __user__: dict = {}) -> str:
        """Names the author of the notes (needs Open WebUI's user database)."""
        return Users.get_user_by_id(__user__["id"]).name
