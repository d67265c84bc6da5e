# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Tool Studio's tool worker: `python3 toolworker.py serve|describe PROJECT_DIR`. The
# worker is the toolstudio_worker package beside this script (its protocol is in the
# package's __init__.py). This file stays plain enough for any Python to read, so an
# old one reaches the version check and says what to do instead of a SyntaxError.
import sys

MINIMUM = (3, 10)


def version_problem(version_info, executable):
    """The message for a Python older than MINIMUM, or None when it is new enough."""
    if tuple(version_info[:2]) >= MINIMUM:
        return None
    found = ".".join(str(part) for part in version_info[:3])
    return ("toolworker: the tool worker needs Python %d.%d or newer, but %s is Python %s; "
            "install a newer python3 as /usr/bin/python3, or make the project's virtual environment "
            "with one (python3.12 -m venv PROJECT/.toolstudio/venv), then reopen the project\n"
            % (MINIMUM[0], MINIMUM[1], executable or "python3", found))


if __name__ == "__main__":
    problem = version_problem(sys.version_info, sys.executable)
    if problem:
        sys.stderr.write(problem)
        sys.exit(3)
    sys.dont_write_bytecode = True  # nothing cached beside the worker or in the project
    import toolstudio_worker

    sys.exit(toolstudio_worker.main(sys.argv))
