/*
 * proctree: what /proc tells of a run's processes, for the launcher's loop (launcher.c): the CPU time and resident
 * memory of the whole tree where no control group counts them, how long its processes waited for a CPU (what
 * stretches the wall limit on a loaded machine), and which of them are waiting for one at this moment.
 *
 * A tree is walked from the run's main process through /proc/PID/task/TID/children, so it sees the processes still
 * alive and attached; what they reaped is in their own cutime/cstime.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "launcher.h"

#define TREE_MAX 4096 /* processes a tree walk holds at once; past it, further children are not visited */

/* The start of /proc/PID/NAME as a string; 0 when the process is gone. */
static int read_proc(pid_t pid, const char *name, char *buf, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = '\0';
    return 1;
}

/* Resident memory of a live process in kB, from /proc (statm counts pages). */
static long long proc_rss_kb(pid_t pid) {
    char buf[256];
    if (!read_proc(pid, "statm", buf, sizeof buf)) return 0;
    unsigned long long size = 0, resident = 0;
    if (sscanf(buf, "%llu %llu", &size, &resident) != 2) return 0;
    return (long long)resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* CPU time of a live process and its reaped children, from /proc. */
static long long proc_cpu_us(pid_t pid) {
    char buf[1024];
    if (!read_proc(pid, "stat", buf, sizeof buf)) return 0;
    char *p = strrchr(buf, ')');
    if (!p) return 0;
    /* Fields after the command: state(3) ... utime(14) stime(15) cutime(16) cstime(17). */
    unsigned long long v[18] = {0};
    int field = 2;
    for (char *tok = strtok(p + 1, " "); tok && field < 17; tok = strtok(NULL, " ")) {
        field++;
        v[field] = strtoull(tok, NULL, 10);
    }
    long hz = sysconf(_SC_CLK_TCK);
    return (long long)(v[14] + v[15] + v[16] + v[17]) * 1000000LL / hz;
}

/* Hands `visit` the start of /proc/PID/task/TID/FILE for each thread of `pid`, until it returns nonzero; returns
 * that value, or 0. The walk every per-thread reading here shares. */
static int each_thread(pid_t pid, const char *file, int (*visit)(char *text, void *state), void *state) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) return 0;
    int stop = 0;
    for (struct dirent *t; !stop && (t = readdir(tasks));) {
        if (t->d_name[0] == '.') continue;
        char name[320], buf[4096];
        snprintf(name, sizeof name, "task/%s/%s", t->d_name, file);
        if (read_proc(pid, name, buf, sizeof buf)) stop = visit(buf, state);
    }
    closedir(tasks);
    return stop;
}

static int add_delay(char *schedstat, void *total_us) {
    unsigned long long on_cpu = 0, waited = 0;
    if (sscanf(schedstat, "%llu %llu", &on_cpu, &waited) == 2) *(long long *)total_us += (long long)(waited / 1000);
    return 0;
}

/* How long the threads of a process waited on a run queue while runnable (the second field of each thread's
 * schedstat, in ns): the time the machine's load took from it. A sleeping or blocked program waits on none,
 * which is how the judge tells a wall-clock timeout caused by load from one the program caused itself. The kernel
 * adds a wait only when it ends: tree_runnable tells one under way. */
long long run_delay_us(pid_t pid) {
    long long total = 0;
    each_thread(pid, "schedstat", add_delay, &total);
    return total;
}

struct walk {
    pid_t *stack;
    int top, cap;
};

static int add_children(char *children, void *state) {
    struct walk *w = state;
    char *save = NULL;
    for (char *tok = strtok_r(children, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
        if (w->top < w->cap) w->stack[w->top++] = (pid_t)atoi(tok);
    return 0;
}

/* Calls `visit` for `root` and each of its live descendants (up to TREE_MAX of them at once on the walk), from
 * /proc/PID/task/TID/children, until it returns nonzero. The one walk of every tree reading here. */
static void each_process(pid_t root, int (*visit)(pid_t pid, void *state), void *state) {
    static pid_t stack[TREE_MAX];
    struct walk w = {stack, 0, TREE_MAX};
    stack[w.top++] = root;
    while (w.top > 0) {
        pid_t pid = stack[--w.top];
        if (visit(pid, state)) return;
        each_thread(pid, "children", add_children, &w);
    }
}

struct usage_sum {
    long long cpu_us, rss_kb;
};

static int sum_usage(pid_t pid, void *state) {
    struct usage_sum *sum = state;
    sum->cpu_us += proc_cpu_us(pid);
    sum->rss_kb += proc_rss_kb(pid);
    return 0;
}

/* Without a control group: CPU time of a process and all its live descendants
 * (and of every descendant already reaped inside the tree, through
 * cutime/cstime), and their summed resident memory. Walked on every poll, so
 * children count while they run. Weaker than a group: children that exit
 * unreaped (SIGCHLD ignored) take their CPU time with them, and memory that no
 * process maps (memfd pages, SysV segments, tmpfs files) is not seen. */
long long tree_usage(pid_t root, long long *rss_kb) {
    struct usage_sum sum = {0, 0};
    each_process(root, sum_usage, &sum);
    *rss_kb = sum.rss_kb;
    return sum.cpu_us;
}

static int keep_longest_delay(pid_t pid, void *most_us) {
    long long delay = run_delay_us(pid);
    if (delay > *(long long *)most_us) *(long long *)most_us = delay;
    return 0;
}

/* The longest run-queue wait of one process of the tree (each process's threads summed, as run_delay_us): what
 * stretches the wall limit. A program started by a script (an interactor's `run` that does not exec, a submission
 * folder's) waits in a child while the main process, the shell, waits for that child on no run queue: counting the
 * main process alone left such a program's wall limit unstretched on a loaded machine. The largest, not the sum:
 * processes waiting side by side do not add up to more wall time lost than the worst of them. Read only when the
 * deadline is reached. */
long long tree_delay_us(pid_t root) {
    long long most = 0;
    each_process(root, keep_longest_delay, &most);
    return most;
}

static int runnable(char *stat, void *unused) {
    (void)unused;
    const char *after = strrchr(stat, ')');  /* the command may hold any byte: the state follows its last ')' */
    return after && after[1] == ' ' && after[2] == 'R';
}

/* The CPU time of a whole process in ns from its CPU clock, which the kernel brings up to date for a thread on a
 * CPU as it is read (schedstat and /proc/PID/stat move only at a scheduler tick); -1 when the process is gone. */
static long long process_cpu_ns(pid_t pid) {
    clockid_t clock;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &ts) != 0) return -1;
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int note_if_runnable(pid_t pid, void *state) {
    struct probe *seen = state;
    if (each_thread(pid, "stat", runnable, NULL)) {
        long long cpu = process_cpu_ns(pid);
        if (cpu >= 0) {
            seen->pid[seen->n] = pid;
            seen->cpu_ns[seen->n] = cpu;
            seen->since_us[seen->n++] = seen->at_us;
        }
    }
    return seen->n == PROBE_MAX;
}

int tree_runnable(pid_t root, struct probe *seen, long long at_us) {
    seen->n = 0;
    seen->at_us = at_us;
    each_process(root, note_if_runnable, seen);
    return seen->n;
}

/* A process runnable at both looks whose CPU clock did not move in between did not run, and could not have slept
 * without running: it waited for a CPU the whole time. */
int probe_follow(const struct probe *before, struct probe *now) {
    int waited = 0;
    for (int i = 0; i < now->n; i++)
        for (int j = 0; j < before->n; j++)
            if (now->pid[i] == before->pid[j] && now->cpu_ns[i] == before->cpu_ns[j]) {
                now->since_us[i] = before->since_us[j];
                waited = 1;
            }
    return waited;
}

long long probe_ongoing_us(const struct probe *seen, pid_t pid, long long now_us) {
    for (int i = 0; i < seen->n; i++)
        if (seen->pid[i] == pid && seen->since_us[i] < seen->at_us && process_cpu_ns(pid) == seen->cpu_ns[i])
            return now_us - seen->since_us[i];
    return 0;
}
