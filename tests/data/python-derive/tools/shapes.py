# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""
title: Derivation shapes under test (issue 17)
"""
from typing import List, Optional

from pydantic import BaseModel, Field

from toolstudio_tools import NonRetryableError


class Address(BaseModel):
    """A postal address."""
    street: str
    city: str = "Berlin"


class Folder(BaseModel):
    name: str
    folders: List["Folder"] = []


Folder.update_forward_refs()


class Tools:
    def search(self, q: str = Field(..., description="What to look for"),
               n: int = Field(default=3, description="How many results"),
               tags: list[str] = Field(default_factory=list)) -> dict:
        """Searches (pydantic Field() defaults)."""
        return {"q": q, "n": n, "tags": tags, "types": [type(v).__name__ for v in (q, n, tags)]}

    def search_any(self, q: str, **options) -> dict:
        """Searches with any further options."""
        return {"q": q, "options": options}

    def ship(self, address: Optional[Address] = None, note: Optional[str] = "none") -> str:
        """Ships to an address, or to the pickup point."""
        return f"{address.street}, {address.city}" if address else f"pickup ({note})"

    def tree(self, root: Folder, extra: list, meta: dict) -> int:
        return len(root.folders) + len(extra) + len(meta)

    def upload(self):
        """Fails from a non-retryable cause."""
        try:
            raise NonRetryableError("quota exceeded")
        except NonRetryableError as cause:
            raise RuntimeError("upload failed") from cause

    def cleanup(self):
        """Fails while handling a non-retryable error (the context chain)."""
        try:
            raise NonRetryableError("disk full")
        except NonRetryableError:
            raise OSError("cannot remove the partial file")
