#!/bin/sh
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 16 class 4 on a root without a writable pids cgroup (a debootstrap chroot):
#   mount -t proc proc ROOT/proc; mount -t sysfs sys ROOT/sys; mount --bind /dev ROOT/dev
#   chroot ROOT apt-get install -y python3
#   mkdir ROOT/opt/ts; cp build/app/toolstudio-sandbox tools/chroot-forkbomb/* ROOT/opt/ts/
#   chroot ROOT /opt/ts/scenario.sh          # expect BOMB FULL EAGAIN 64, ALONGSIDE RESULT ok 20
#   chroot ROOT /opt/ts/scenario.sh shared   # the residual, for comparison: the run alongside starves
# The fork-bomb scenario, as root, by hand: a well-behaved run starts first, then a
# fork bomb fills its budget and keeps pressing; then the first run needs 20 processes.
# "shared" switches the per-run isolation off (the residual) for comparison.
L=/opt/ts/toolstudio-sandbox
rm -rf /tmp/runA /tmp/runB; mkdir -p /tmp/runA /tmp/runB
cp /opt/ts/bomb.py /tmp/runA/; cp /opt/ts/alongside.py /tmp/runB/
ISO=true; [ "${1:-}" = shared ] && ISO=false
printf '{"work_dir":"/tmp/runA","argv":["/usr/bin/python3","bomb.py"],"isolate_processes":%s}\n' $ISO > /tmp/policyA.json
printf '{"work_dir":"/tmp/runB","argv":["/usr/bin/python3","alongside.py"],"isolate_processes":%s}\n' $ISO > /tmp/policyB.json
setsid $L --policy /tmp/policyB.json & B=$!
sleep 0.5
setsid $L --policy /tmp/policyA.json & A=$!
sleep 2
touch /tmp/runB/go
wait $B; echo "alongside exit $?"
wait $A; echo "bomb exit $?"
