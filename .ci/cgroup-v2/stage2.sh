#!/bin/sh
# Stage 2 of .ci/cgroup-v2/run (PID 1 on the host's root fs, overlayed): set up cgroup v2 + run the command.
X=/run/v2vm-xfer
exec </dev/null >/dev/ttyS0 2>&1
stty -F /dev/ttyS0 -opost 2>/dev/null
cat /proc/uptime > $X/boot_uptime
. $X/env
mkdir -p /dev/pts /dev/shm
mount -t devpts -o newinstance,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /root/.cache && mount -t tmpfs -o mode=700 tmpfs /root/.cache
ip link set lo up 2>/dev/null
hostname v2vm 2>/dev/null
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
if grep -qE '^[^#]*[[:space:]](memory|pids)[[:space:]]+[1-9]' /proc/cgroups; then
  echo "v2vm: WARNING: a cgroup v1 hierarchy binds memory or pids" >&2
fi
for c in ${V2VM_CONTROLLERS:-+memory +pids}; do
  echo "$c" > /sys/fs/cgroup/cgroup.subtree_control || echo "v2vm: failed to enable $c" >&2
done
mkdir -p /sys/fs/cgroup/judge
cd /
# PID 1 stays in the root group; only the command's shell (and its descendants) live in /judge.
/bin/sh -c 'echo $$ > /sys/fs/cgroup/judge/cgroup.procs && exec /bin/bash "$0"' $X/cmd.sh
echo $? > $X/rc.tmp && mv $X/rc.tmp $X/rc
sync
echo o > /proc/sysrq-trigger; while :; do :; done  # builtins only: 9p goes away during poweroff
