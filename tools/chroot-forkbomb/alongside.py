# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
import errno, os, time
# Started before the bomb; forks once the scenario drops 'go' in the work dir.
while not os.path.exists('go'):
    time.sleep(0.02)
kids = []
try:
    for i in range(20):
        pid = os.fork()
        if pid == 0:
            time.sleep(0.5); os._exit(0)
        kids.append(pid)
    print('ALONGSIDE RESULT ok', len(kids), 'uid', os.getuid(), flush=True)
except OSError as e:
    print('ALONGSIDE RESULT', errno.errorcode[e.errno], len(kids), 'uid', os.getuid(), flush=True)
for k in kids: os.waitpid(k, 0)
