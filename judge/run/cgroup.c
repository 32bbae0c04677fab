/*
 * Control groups of a run: the whole process tree's memory, process count and CPU time.
 *
 * The judge makes one group per slot (per hierarchy on cgroup v1) inside the group it runs in and
 * sends its directory descriptors with every request, so this code needs no path and works the
 * same inside a sandbox that cannot see /sys/fs/cgroup.
 *
 * v1 (memory, pids, cpuacct): the launcher's groups are reused, because making and removing three
 * groups costs about as much as a whole run. Between runs they are emptied; the peak is reset and
 * CPU time and the OOM count are read as differences. The judge gives every launcher groups of its
 * own, so the launcher keeps their files open and rewrites a limit only when it changes: a run then
 * costs a handful of reads and writes instead of opening some forty cgroup files.
 * Runs take turns between lanes, subgroups "lane0" to "lane2" the launcher makes in each of its groups on
 * their first use: the tmpfs of a run's namespaces is charged to its lane until its holder has ended, so a run
 * takes a lane whose last holder has ended, never the last run's, and starts at once (fresh.c's holder_lane
 * chooses: lanes 0 and 1 in turn while holders end in time).
 * v2: the slot group delegates memory and pids to a leaf made for every run and removed after
 * it (one directory, cheap), because memory.peak cannot be reset on older kernels.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher.h"

static ssize_t read_at(int dir, const char *name, char *buf, size_t size) {
    int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n < 0) return -1;
    buf[n] = '\0';
    return n;
}

static long long number_at(int dir, const char *name) {
    char buf[64];
    if (read_at(dir, name, buf, sizeof buf) <= 0) return -1;
    return atoll(buf);
}

/* The value after "key " in a flat-keyed file (memory.events, memory.oom_control, cpu.stat). */
static long long keyed_at(int dir, const char *name, const char *key) {
    char buf[4096];
    if (read_at(dir, name, buf, sizeof buf) <= 0) return -1;
    size_t len = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, key, len) && line[len] == ' ') return atoll(line + len + 1);
    return -1;
}

static int write_at(int dir, const char *name, const char *value) {
    int fd = openat(dir, name, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, value, strlen(value));
    int saved = errno;
    close(fd);
    errno = saved;
    return n < 0 ? -1 : 0;
}

static int write_number_at(int dir, const char *name, long long value) {
    char buf[32];
    if (value < 0) snprintf(buf, sizeof buf, "-1");
    else snprintf(buf, sizeof buf, "%lld", value);
    return write_at(dir, name, buf);
}

/* Kills every process listed in a group's cgroup.procs (an open fd, read from the start each time)
 * until none is left; the pids limit bounds a fork race. */
static void kill_procs(int procs) {
    for (int round = 0; round < 1000; round++) {
        char buf[65536];
        ssize_t n = pread(procs, buf, sizeof buf - 1, 0);
        if (n <= 0) return;
        buf[n] = '\0';
        for (char *tok = strtok(buf, "\n"); tok; tok = strtok(NULL, "\n")) {
            pid_t pid = (pid_t)atoi(tok);
            if (pid > 0) kill(pid, SIGKILL);
        }
        usleep(round < 10 ? 100 : 1000);
    }
}

static void kill_listed(int dir) {
    int procs = openat(dir, "cgroup.procs", O_RDONLY | O_CLOEXEC);
    if (procs < 0) return;
    kill_procs(procs);
    close(procs);
}

static long long pread_number(int fd) {
    char buf[64];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = '\0';
    return atoll(buf);
}

static long long pread_keyed(int fd, const char *key) {
    char buf[4096];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = '\0';
    size_t len = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, key, len) && line[len] == ' ') return atoll(line + len + 1);
    return -1;
}

static int pwrite_number(int fd, long long value) {
    char buf[32];
    int len = value < 0 ? snprintf(buf, sizeof buf, "-1") : snprintf(buf, sizeof buf, "%lld", value);
    return pwrite(fd, buf, (size_t)len, 0) < 0 ? -1 : 0;
}

/* The v1 files of this launcher's groups, opened on the first run and kept; a group folder that is not
 * the one seen before (another inode) reopens them all.
 * A run joins its groups by writing "0" to each group's tasks file, not cgroup.procs: moving a whole
 * process takes the kernel's global threadgroup lock for writing, which waits for an RCU grace period
 * (7-30 ms here, on every run after the machine's groups were idle a moment), while a thread moving only
 * itself skips that lock (Linux 5.5 and later). The child that joins is a new single-threaded process,
 * so moving its one thread moves all of it, and everything it starts inherits the groups. */
enum { LIMIT, MEMSW, TCP_LIMIT, MAX_USAGE, USAGE, OOM, MEM_JOIN, PIDS_MAX, PIDS_JOIN, PIDS_LIST, CPU_USAGE, CPU_JOIN, V1_FILES };
static const struct { int dir; const char *name; int flags; } V1_LAYOUT[V1_FILES] = {
    {0, "memory.limit_in_bytes", O_RDWR}, {0, "memory.memsw.limit_in_bytes", O_WRONLY}, {0, "memory.kmem.tcp.limit_in_bytes", O_WRONLY},
    {0, "memory.max_usage_in_bytes", O_RDWR},
    {0, "memory.usage_in_bytes", O_RDONLY}, {0, "memory.oom_control", O_RDONLY}, {0, "tasks", O_WRONLY},
    {1, "pids.max", O_WRONLY}, {1, "tasks", O_WRONLY}, {1, "cgroup.procs", O_RDONLY},
    {2, "cpuacct.usage", O_RDONLY}, {2, "tasks", O_WRONLY},
};
static struct v1_lane { dev_t dev; ino_t ino; int open; int fd[V1_FILES]; long long mem_bytes, pids; } lanes[LANES], *v1 = lanes;

/* A lane's folder in one of the slot's groups, made on the lane's first run. */
static int lane_dir(int slot_dir, int lane) {
    char name[8] = "lane0";
    name[4] = (char)('0' + lane);
    if (mkdirat(slot_dir, name, 0755) < 0 && errno != EEXIST) return -1;
    return openat(slot_dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int open_v1(const struct request *r, int lane) {
    struct stat st;
    if (fstat(r->fds[3], &st) < 0) return -1;
    v1 = &lanes[lane];
    if (v1->open && v1->dev == st.st_dev && v1->ino == st.st_ino) return 0;
    for (int i = 0; v1->open && i < V1_FILES; i++) if (v1->fd[i] >= 0) close(v1->fd[i]);
    v1->open = 0;
    for (int i = 0; i < V1_FILES; i++) v1->fd[i] = -1;
    int dirs[3] = {-1, -1, -1}, failed = 0;
    for (int d = 0; d < 3 && !failed; d++) failed = (dirs[d] = lane_dir(r->fds[3 + d], lane)) < 0;
    for (int i = 0; i < V1_FILES && !failed; i++) {
        v1->fd[i] = openat(dirs[V1_LAYOUT[i].dir], V1_LAYOUT[i].name, V1_LAYOUT[i].flags | O_CLOEXEC);
        failed = v1->fd[i] < 0 && i != MEMSW && i != TCP_LIMIT;  /* memsw is absent where swap accounting is off */
    }
    for (int d = 0; d < 3; d++) if (dirs[d] >= 0) close(dirs[d]);
    if (failed) {
        for (int i = 0; i < V1_FILES; i++) if (v1->fd[i] > 0) close(v1->fd[i]), v1->fd[i] = -1;
        return -1;
    }
    v1->dev = st.st_dev, v1->ino = st.st_ino, v1->open = 1;
    v1->mem_bytes = v1->pids = -2;  /* unknown: written on this first run */
    kill_procs(v1->fd[PIDS_LIST]);  /* what a launcher that died mid-run may have left */
    return 0;
}

/* v1 memory limits must keep memsw >= memory at every step: lower memory first, raise memsw first.
 * v1 charges TCP socket buffers apart from the group's memory and only once a TCP limit is written: the limit
 * bounds them by the memory limit too (v2 charges them as memory). A run's own loopback needs a user namespace,
 * which runs are refused (confine.c), so this is the second line. */
static int limit_memory_v1(long long bytes) {
    if (bytes == v1->mem_bytes) return 0;
    long long current = pread_number(v1->fd[LIMIT]);
    int lowering = bytes >= 0 && (current < 0 || bytes < current);
    if (lowering && pwrite_number(v1->fd[LIMIT], bytes) < 0) return -1;
    if (v1->fd[MEMSW] >= 0) pwrite_number(v1->fd[MEMSW], bytes);
    if (v1->fd[TCP_LIMIT] >= 0) pwrite_number(v1->fd[TCP_LIMIT], bytes);
    if (!lowering && pwrite_number(v1->fd[LIMIT], bytes) < 0) return -1;
    v1->mem_bytes = bytes;
    return 0;
}

static int open_procs(struct run_group *g, int dir) {
    int fd = openat(dir, "cgroup.procs", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    g->procs[g->nprocs++] = fd;
    return 0;
}

int group_prepare(struct run_group *g, const struct request *r, int lane, const char **why) {
    memset(g, 0, sizeof *g);
    g->version = r->cgroup_version;
    g->slot = g->run = -1;
    if (g->version == 1) {
        if (open_v1(r, lane) < 0) { *why = "cannot open the launcher's cgroup files"; return -1; }
        if (limit_memory_v1(r->mem_kb > 0 ? r->mem_kb * 1024 : -1) < 0) { *why = "cannot set memory.limit_in_bytes"; return -1; }
        if (r->pids != v1->pids) {
            int failed = r->pids > 0 ? pwrite_number(v1->fd[PIDS_MAX], r->pids) < 0 : pwrite(v1->fd[PIDS_MAX], "max", 3, 0) < 0;
            if (failed) { *why = "cannot set pids.max"; return -1; }
            v1->pids = r->pids;
        }
        pwrite(v1->fd[MAX_USAGE], "0", 1, 0);
        g->base_bytes = pread_number(v1->fd[USAGE]);
        g->oom_start = pread_keyed(v1->fd[OOM], "oom_kill");
        g->cpu_start = pread_number(v1->fd[CPU_USAGE]);
        g->procs[0] = v1->fd[MEM_JOIN], g->procs[1] = v1->fd[PIDS_JOIN], g->procs[2] = v1->fd[CPU_JOIN];
        g->nprocs = 3;
        return 0;
    }
    if (g->version == 2) {
        g->slot = r->fds[3];
        if (mkdirat(g->slot, "run", 0755) < 0 && errno == EEXIST) {  /* left by a launcher that died mid-run */
            int old = openat(g->slot, "run", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (old >= 0) {
                if (write_at(old, "cgroup.kill", "1") < 0) kill_listed(old);
                close(old);
            }
            for (int i = 0; i < 100 && unlinkat(g->slot, "run", AT_REMOVEDIR) < 0 && errno == EBUSY; i++) usleep(1000);
            mkdirat(g->slot, "run", 0755);
        }
        g->run = openat(g->slot, "run", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (g->run < 0) { *why = "cannot make the run's cgroup"; return -1; }
        if (r->mem_kb > 0 && write_number_at(g->run, "memory.max", r->mem_kb * 1024) < 0) { *why = "cannot set memory.max"; return -1; }
        write_at(g->run, "memory.swap.max", "0");
        if (r->pids > 0) write_number_at(g->run, "pids.max", r->pids);
        g->oom_start = 0;
        g->cpu_start = 0;
        if (open_procs(g, g->run) < 0) { *why = "cannot open cgroup.procs"; return -1; }
        return 0;
    }
    return 0;
}

long long group_cpu_us(const struct run_group *g) {
    if (g->version == 1) {
        long long ns = pread_number(v1->fd[CPU_USAGE]);
        return ns < 0 ? 0 : (ns - g->cpu_start) / 1000;
    }
    if (g->version == 2) {
        long long us = keyed_at(g->run, "cpu.stat", "usage_usec");
        return us < 0 ? 0 : us;
    }
    return 0;
}

long long group_current_kb(const struct run_group *g) {
    long long bytes = -1;
    if (g->version == 1) bytes = pread_number(v1->fd[USAGE]) - g->base_bytes;
    if (g->version == 2) bytes = number_at(g->run, "memory.current");
    return bytes < 0 ? 0 : bytes / 1024;
}

void group_kill(const struct run_group *g) {
    if (g->version == 1) kill_procs(v1->fd[PIDS_LIST]);
    if (g->version == 2 && write_at(g->run, "cgroup.kill", "1") < 0) kill_listed(g->run);
}

/* After the tree is dead and reaped: the run's CPU time, its peak and whether the kernel's OOM killer
 * acted inside it. The v2 leaf is removed; the v1 groups stay for the slot's next run. */
void group_finish(struct run_group *g, long long *cpu_us, long *peak_kb, int *oom) {
    if (g->version == 2)
        for (int i = 0; i < g->nprocs; i++) close(g->procs[i]);  /* v1's stay open with the launcher's other files */
    g->nprocs = 0;
    if (g->version == 0) return;
    *cpu_us = group_cpu_us(g);
    if (g->version == 1) {
        long long peak = pread_number(v1->fd[MAX_USAGE]) - g->base_bytes;
        *peak_kb = peak > 0 ? (long)(peak / 1024) : 0;
        *oom = pread_keyed(v1->fd[OOM], "oom_kill") > g->oom_start;
        return;
    }
    long long peak = number_at(g->run, "memory.peak");
    if (peak > 0) *peak_kb = (long)(peak / 1024);
    long long kills = keyed_at(g->run, "memory.events", "oom_kill");
    *oom = kills > 0;
    close(g->run);
    g->run = -1;
    for (int i = 0; i < 200 && unlinkat(g->slot, "run", AT_REMOVEDIR) < 0 && errno == EBUSY; i++) usleep(500);
}
