# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Imported by Python at start-up (the shim dir is on PYTHONPATH in the sandbox):
# makes the tools bound to the script callable as plain functions.
try:
    import toolstudio as _toolstudio

    _toolstudio._install_globals()
    del _toolstudio
except Exception:  # never stop a script from starting
    pass
