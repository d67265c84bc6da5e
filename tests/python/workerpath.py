# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Puts the worker (resources/worker) and the script shim (resources/runtime/python)
of this source tree first on sys.path, as the studio's placement does."""

import os
import sys

SOURCE_DIR = os.environ.get("TOOLSTUDIO_SOURCE_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER_DIR = os.path.join(SOURCE_DIR, "resources", "worker")
SHIM_DIR = os.path.join(SOURCE_DIR, "resources", "runtime", "python")
sys.dont_write_bytecode = True  # nothing cached in the source tree
for path in (SHIM_DIR, WORKER_DIR):
    if path not in sys.path:
        sys.path.insert(0, path)
