# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""
title: Worker behaviour under test
"""
import asyncio
import os

from toolstudio_tools import NonRetryableError


class Tools:
    async def slow_add(self, a: int, b: int) -> int:
        """Adds after a pause (an async method)."""
        await asyncio.sleep(0.05)
        print("async add", a, b)
        return a + b

    def refuse(self, why: str):
        """Always fails, not retryable."""
        raise NonRetryableError(why)

    def flaky(self):
        """Fails with an ordinary exception (retryable)."""
        raise RuntimeError("flaky service")

    def crash_once(self, marker: str) -> str:
        """Kills the worker the first time (marker file missing), then succeeds."""
        marker = os.path.expanduser(marker)  # "~/x": the worker's scratch dir (its HOME)
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(3)
        return "survived"

    def whoami(self, __idempotency_key__: str = "", __metadata__: dict = None, __user__: dict = None) -> dict:
        """Returns what was injected."""
        return {"key": __idempotency_key__, "attempt": __metadata__["attempt"], "user": __user__["id"]}

    def secret_length(self) -> int:
        """Uses the secret without returning it; prints it (the output is masked)."""
        secret = os.environ.get("TEST_API_KEY", "")
        print("the key is", secret)
        return len(secret)
