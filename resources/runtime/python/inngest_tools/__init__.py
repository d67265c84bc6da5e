# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Alias of ``toolstudio`` so scripts written for Inngest's sandbox tools run unchanged."""
from toolstudio import ToolError, tools  # noqa: F401

__all__ = ["tools", "ToolError"]
