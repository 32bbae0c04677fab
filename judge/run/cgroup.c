/*
 * Control groups of a run: the whole process tree's memory, process count and CPU time.
 *
 * The judge makes one group per slot (per hierarchy on cgroup v1) inside the group it runs in and
 * sends its directory descriptors with every request, so this code needs no path and works the
 * same inside a sandbox that cannot see /sys/fs/cgroup.
 *
 * v1 (memory, pids, cpuacct): the slot's groups are reused, because making and removing three
 * groups costs about as much as a whole run. Between runs they are emptied; the peak is reset and
 * CPU time and the OOM count are read as differences.
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

/* Kills every process listed in a group until none is left; the pids limit bounds a fork race. */
static void kill_listed(int dir) {
    for (int round = 0; round < 1000; round++) {
        char buf[65536];
        ssize_t n = read_at(dir, "cgroup.procs", buf, sizeof buf);
        if (n <= 0) return;
        for (char *tok = strtok(buf, "\n"); tok; tok = strtok(NULL, "\n")) {
            pid_t pid = (pid_t)atoi(tok);
            if (pid > 0) kill(pid, SIGKILL);
        }
        usleep(round < 10 ? 100 : 1000);
    }
}

/* v1 memory limits must keep memsw >= memory at every step: lower memory first, raise memsw first. */
static int set_memory_v1(int mem, long long bytes) {
    long long current = number_at(mem, "memory.limit_in_bytes");
    int lowering = bytes >= 0 && (current < 0 || bytes < current);
    if (lowering) {
        if (write_number_at(mem, "memory.limit_in_bytes", bytes) < 0) return -1;
        write_number_at(mem, "memory.memsw.limit_in_bytes", bytes);
        return 0;
    }
    write_number_at(mem, "memory.memsw.limit_in_bytes", bytes);
    return write_number_at(mem, "memory.limit_in_bytes", bytes);
}

static int open_procs(struct run_group *g, int dir) {
    int fd = openat(dir, "cgroup.procs", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    g->procs[g->nprocs++] = fd;
    return 0;
}

int group_prepare(struct run_group *g, const struct request *r, const char **why) {
    memset(g, 0, sizeof *g);
    g->version = r->cgroup_version;
    g->mem = g->pids = g->cpu = g->slot = g->run = -1;
    if (g->version == 1) {
        g->mem = r->fds[3], g->pids = r->fds[4], g->cpu = r->fds[5];
        kill_listed(g->pids);
        if (set_memory_v1(g->mem, r->mem_kb > 0 ? r->mem_kb * 1024 : -1) < 0) { *why = "cannot set memory.limit_in_bytes"; return -1; }
        if (r->pids > 0) write_number_at(g->pids, "pids.max", r->pids);
        else write_at(g->pids, "pids.max", "max");
        write_at(g->mem, "memory.max_usage_in_bytes", "0");
        g->base_bytes = number_at(g->mem, "memory.usage_in_bytes");
        g->oom_start = keyed_at(g->mem, "memory.oom_control", "oom_kill");
        g->cpu_start = number_at(g->cpu, "cpuacct.usage");
        if (open_procs(g, g->mem) < 0 || open_procs(g, g->pids) < 0 || open_procs(g, g->cpu) < 0) { *why = "cannot open cgroup.procs"; return -1; }
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
        long long ns = number_at(g->cpu, "cpuacct.usage");
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
    if (g->version == 1) bytes = number_at(g->mem, "memory.usage_in_bytes") - g->base_bytes;
    if (g->version == 2) bytes = number_at(g->run, "memory.current");
    return bytes < 0 ? 0 : bytes / 1024;
}

void group_kill(const struct run_group *g) {
    if (g->version == 1) kill_listed(g->pids);
    if (g->version == 2 && write_at(g->run, "cgroup.kill", "1") < 0) kill_listed(g->run);
}

/* After the tree is dead and reaped: the run's CPU time, its peak and whether the kernel's OOM killer
 * acted inside it. The v2 leaf is removed; the v1 groups stay for the slot's next run. */
void group_finish(struct run_group *g, long long *cpu_us, long *peak_kb, int *oom) {
    for (int i = 0; i < g->nprocs; i++) close(g->procs[i]);
    g->nprocs = 0;
    if (g->version == 0) return;
    *cpu_us = group_cpu_us(g);
    if (g->version == 1) {
        long long peak = number_at(g->mem, "memory.max_usage_in_bytes") - g->base_bytes;
        *peak_kb = peak > 0 ? (long)(peak / 1024) : 0;
        *oom = keyed_at(g->mem, "memory.oom_control", "oom_kill") > g->oom_start;
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
