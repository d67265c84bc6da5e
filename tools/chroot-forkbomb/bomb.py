# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
import errno, os, time
n = 0; full = False; end = time.time() + 6
while time.time() < end:
    try:
        if os.fork() == 0:
            time.sleep(3); os._exit(0)
        n += 1
    except OSError as e:
        if not full:
            print('BOMB FULL', errno.errorcode[e.errno], n, 'uid', os.getuid(), flush=True); full = True
        time.sleep(0.001)
