/*
 * launcher: runs one command per request under limits and reports what it used.
 *
 * Why this exists as a small static C program instead of Python code:
 *  - ru_maxrss of a process includes the resident size of whatever it was forked
 *    from, so a child forked by the Python judge reports the judge's memory. A
 *    child forked from this tiny static process reports its own peak.
 *  - It stays alive for many runs (one per worker slot), so a case costs one
 *    fork+exec, and the same process can later live inside one sandbox per
 *    submission.
 *  - It watches its request pipe: when the judge goes away, the run is killed.
 *  - As a child subreaper it inherits every orphan the submission leaves behind
 *    (double-forked daemons included) and kills them all before answering.
 *
 * Protocol: fd 0 is a SOCK_SEQPACKET socket to the judge. One message is one
 * request, carrying as SCM_RIGHTS the run's stdin, stdout and stderr and, with a
 * "cgroup" line, the slot's control-group folders (v1: memory, pids, cpuacct;
 * v2: the slot group), so a sandboxed run never needs to see any path of the
 * judge's: not the case folder, not its own input file, not /sys/fs/cgroup.
 * Lines "key value":
 *   arg X         (repeated; argv[0] must be an absolute path)
 *   env K=V       (repeated; the whole environment)
 *   cwd PATH, scratch PATH (emptied after the run; optional)
 *   cpu_ms N, wall_ms N, mem_kb N (the whole tree; 0: no limit)
 *   (wall_ms counts only time the run was not waiting for a CPU: see WALL_STRETCH), as_kb N (RLIMIT_AS; 0: none),
 *   fsize N (RLIMIT_FSIZE for every file, bytes, 0: no limit), out_max N (what stdout and stderr may each carry, counted
 *   by output.c; 0: no limit), stack_kb N (0: unchanged), nofile N, nproc N (0: unchanged),
 *   pids N (the group's process limit), uid N, gid N (-1: unchanged),
 *   cgroup 0|1|2, fresh BITS (launcher.h), tmp_kb N, hide PATH, expose PATH, writable PATH (repeated)
 *   wall_held 1: wall_ms starts counting only when the judge sends the message "wall" on the socket (an
 *   interactor's: its wall limit is the time it takes once the submission's run has ended, so it can never run
 *   out while the submission it waits on still runs, whatever the load; see relayed_pair.py)
 * Answer: one message
 *   ok exit=E signal=S cpu_us=C wall_us=W maxrss_kb=M killed=none|cpu|wall|memory|output oom=0|1 cgroup=V end_us=T
 *      output=0|1|2 delay_us=D
 *   (M: the larger of the tree's peak and the largest process's resident peak; output: the stream that went past
 *   out_max, 1 stdout, 2 stderr; D: how long the run's main process waited for a CPU while runnable)
 *   error MESSAGE
 *
 * Started with --own-network (rlimits mode as root), the launcher first moves
 * into a network namespace of its own: no interface but a loopback that is down.
 * Started with --filter BITS (an untrusted launcher, seccomp.c says when), it
 * installs the seccomp filter of those FRESH bits on itself once, and every run
 * inherits it; a request asking for another filter is refused.
 *
 * With FRESH_PID the child joins namespaces a holder process made ahead for
 * it (fresh.c) and is pid 2 of its own PID namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/sched.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "launcher.h"

#define POLL_MS 10
/* The wall limit counts the time a run was not kept from a CPU by the machine's load: at the deadline, the longest
 * time one of its processes waited on a run queue (tree_delay_us, and a wait still under way: tree_runnable) is
 * added, up to this many times the limit in all (a judge is never held for long; a sleeper waits for no CPU and is
 * stopped at the limit itself). */
#define WALL_STRETCH 3
#define REQUEST_MAX 65536

struct usage {
    long long cpu_us;
    long maxrss_kb;
};

static volatile sig_atomic_t parent_gone = 0;

static void on_parent_death(int sig) {
    (void)sig;
    parent_gone = 1;
}

static long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void free_request(struct request *r) {
    for (int i = 0; i < r->argc; i++) free(r->argv[i]);
    for (int i = 0; i < r->envc; i++) free(r->envp[i]);
    free(r->cwd);
    free(r->scratch);
    for (int i = 0; i < r->nhide; i++) free(r->hide[i]);
    for (int i = 0; i < r->nexpose; i++) free(r->expose[i]);
    for (int i = 0; i < r->nwritable; i++) free(r->writable[i]);
    for (int i = 0; i < r->nfds; i++)
        if (r->fds[i] >= 0) close(r->fds[i]);
    memset(r, 0, sizeof *r);
    r->uid = r->gid = -1;
}

/* Receives one request; returns 1 when complete, 0 when the judge hung up, -1 on a protocol error. */
static int read_request(struct request *r, const char **bad) {
    static char buf[REQUEST_MAX + 1];
    char control[CMSG_SPACE(MAX_FDS * sizeof(int))];
    struct iovec iov = {buf, REQUEST_MAX};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do {  /* a "wall" word that came after its run had ended is no request */
        msg.msg_controllen = sizeof control;
        while ((n = recvmsg(0, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {}
    } while (n == 4 && !memcmp(buf, "wall", 4) && msg.msg_controllen == 0);
    if (n <= 0) return 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < count; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                if (r->nfds < MAX_FDS) r->fds[r->nfds++] = fd;
                else close(fd);
            }
        }
    }
    if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) { *bad = "request too large"; return -1; }
    if (r->nfds < 3) { *bad = "a request must carry stdin, stdout and stderr"; return -1; }
    buf[n] = '\0';
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        char *sp = strchr(line, ' ');
        const char *value = sp ? sp + 1 : "";
        if (sp) *sp = '\0';
        if (!strcmp(line, "arg")) {
            if (r->argc >= MAX_ARGS) { *bad = "too many arguments"; return -1; }
            r->argv[r->argc++] = strdup(value);
        } else if (!strcmp(line, "env")) {
            if (r->envc >= MAX_ENV) { *bad = "too many environment variables"; return -1; }
            r->envp[r->envc++] = strdup(value);
        } else if (!strcmp(line, "cwd")) { free(r->cwd); r->cwd = strdup(value); }
        else if (!strcmp(line, "scratch")) { free(r->scratch); r->scratch = strdup(value); }
        else if (!strcmp(line, "cpu_ms")) r->cpu_ms = atoll(value);
        else if (!strcmp(line, "wall_ms")) r->wall_ms = atoll(value);
        else if (!strcmp(line, "as_kb")) r->as_kb = atoll(value);
        else if (!strcmp(line, "mem_kb")) r->mem_kb = atoll(value);
        else if (!strcmp(line, "pids")) r->pids = atoll(value);
        else if (!strcmp(line, "cgroup")) r->cgroup_version = atoi(value);
        else if (!strcmp(line, "fresh")) r->fresh = atoll(value);
        else if (!strcmp(line, "tmp_kb")) r->tmp_kb = atoll(value);
        else if (!strcmp(line, "hide") || !strcmp(line, "expose") || !strcmp(line, "writable")) {
            char **paths = line[0] == 'h' ? r->hide : line[0] == 'e' ? r->expose : r->writable;
            int *count = line[0] == 'h' ? &r->nhide : line[0] == 'e' ? &r->nexpose : &r->nwritable;
            if (*count >= MAX_PATHS || value[0] != '/') { *bad = "bad hide/expose/writable path"; return -1; }
            paths[(*count)++] = strdup(value);
        }
        else if (!strcmp(line, "fsize")) r->fsize = atoll(value);
        else if (!strcmp(line, "out_max")) r->out_max = atoll(value);
        else if (!strcmp(line, "stack_kb")) r->stack_kb = atoll(value);
        else if (!strcmp(line, "nofile")) r->nofile = atoll(value);
        else if (!strcmp(line, "nproc")) r->nproc = atoll(value);
        else if (!strcmp(line, "uid")) r->uid = atoll(value);
        else if (!strcmp(line, "gid")) r->gid = atoll(value);
        else if (!strcmp(line, "wall_held")) r->wall_held = atoi(value) != 0;
        else { *bad = "unknown request key"; return -1; }
    }
    int wanted = r->cgroup_version == 1 ? 6 : r->cgroup_version == 2 ? 4 : 3;
    if (r->nfds != wanted) { *bad = "the request's descriptors do not match its cgroup line"; return -1; }
    return 1;
}

/* A run's answer held back while the request queued behind it is started (answer_later): sending it first woke the
 * judge, whose thread then often took the launcher's CPU before the next run had started. Answers still go in order:
 * any other answer sends the held one first. */
static char held_answer[1024];
static size_t held_len;

static void answer_now(void) {
    if (held_len) send(0, held_answer, held_len, MSG_NOSIGNAL);
    held_len = 0;
}

static size_t format_answer(char *out, size_t size, const char *fmt, va_list ap) {
    int len = vsnprintf(out, size, fmt, ap);
    if (len < 0) return 0;
    return len >= (int)size ? size - 1 : (size_t)len;
}

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void reply(const char *fmt, ...) {
    char out[1024];
    va_list ap;
    va_start(ap, fmt);
    size_t len = format_answer(out, sizeof out, fmt, ap);
    va_end(ap);
    answer_now();
    if (len) send(0, out, len, MSG_NOSIGNAL);
}

static void answer_later(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void answer_later(const char *fmt, ...) {
    answer_now();
    va_list ap;
    va_start(ap, fmt);
    held_len = format_answer(held_answer, sizeof held_answer, fmt, ap);
    va_end(ap);
}

/* Whether a request waits in the socket already (the judge queued it behind the run just ended). A "wall" word that
 * came after its run had ended is taken off here, as read_request would: it is no request, and the answer held for
 * it must not wait on a read that has nothing to read. */
static int request_waiting(void) {
    char word[8];
    for (;;) {
        struct iovec iov = {word, sizeof word};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        ssize_t n = recvmsg(0, &msg, MSG_PEEK | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n == 4 && !memcmp(word, "wall", 4) && !(msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
            while (recv(0, word, sizeof word, 0) < 0 && errno == EINTR) {}
            continue;
        }
        return n > 0;
    }
}

static void set_limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit rl = {soft, hard};
    setrlimit(resource, &rl);
}

/* What the child of a run tells the parent, which is suspended until the child has exec'd or failed (vfork, or
 * clone3 with CLONE_VFORK): why it could not exec, and whether it could not get an IPC namespace of its own
 * (the parent then sweeps). A page mapped shared once, since a clone3 child runs on its own copy of memory. */
static struct child_report { char error[CHILD_ERROR_MAX]; volatile int ipc_shared; } *report;
static int privileged;
static const struct run_group *child_group;

/* The child's first steps, on the parent's memory after vfork (or its copy after clone): fresh signal state, the
 * run's descriptors and groups, its network; every other descriptor of the launcher's is closed. */
static void begin_child(const struct request *r) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    own_signals_default();
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);

    /* The received descriptors are above 2 (fd 0 is the socket), so dup2 cannot clobber one before it is used. */
    for (int i = 0; i < 3; i++)
        if (dup2(r->fds[i], i) < 0) child_fail("dup2");
    /* on v1 these are the groups' tasks files (cgroup.c says why): this child is still single-threaded here;
     * a child created inside its v2 group (clone_into) has none to write */
    for (int i = 0; i < child_group->nprocs; i++)
        if (write(child_group->procs[i], "0", 1) < 0) child_fail("joining the run's cgroup");
    if (r->fresh & FRESH_PID) holder_enter(r, &report->ipc_shared);
    syscall(SYS_close_range, 3, ~0U, 0);
}

/* The program's own limits and identity, then exec: the last steps of every run's child. */
static void exec_program(const struct request *r) {
    if (r->cwd && *r->cwd && chdir(r->cwd) < 0) child_fail("chdir");

    if (r->as_kb > 0) set_limit(RLIMIT_AS, (rlim_t)r->as_kb * 1024, (rlim_t)r->as_kb * 1024);
    if (r->stack_kb > 0) set_limit(RLIMIT_STACK, (rlim_t)r->stack_kb * 1024, (rlim_t)r->stack_kb * 1024);
    if (r->fsize > 0) set_limit(RLIMIT_FSIZE, (rlim_t)r->fsize, (rlim_t)r->fsize);
    if (r->nofile > 0) set_limit(RLIMIT_NOFILE, (rlim_t)r->nofile, (rlim_t)r->nofile);
    if (r->nproc > 0) set_limit(RLIMIT_NPROC, (rlim_t)r->nproc, (rlim_t)r->nproc);
    if (r->cpu_ms > 0) {
        /* A backstop only, for a launcher that cannot poll: the poll stops the run at the limit, and the kernel's
         * signal must never come first, or a TLE would be an RE ("killed by SIGXCPU"). Twice the limit: the clock
         * RLIMIT_CPU is checked against can run ahead of the CPU time the run is measured by (in a VM under load,
         * SIGXCPU at a soft limit of 6 s came after 5.58 s of measured CPU, and at 26 s after 24.06 s). */
        rlim_t secs = (rlim_t)((2 * r->cpu_ms + 999) / 1000) + 1;
        set_limit(RLIMIT_CPU, secs, secs + 1);
    }
    set_limit(RLIMIT_CORE, 0, 0);

    if (r->gid >= 0) {
        if (setgroups(0, NULL) < 0 || setresgid(r->gid, r->gid, r->gid) < 0) child_fail("setgid");
    }
    if (r->uid >= 0 && setresuid(r->uid, r->uid, r->uid) < 0) child_fail("setuid");
    confine_before_exec(r);

    execve(r->argv[0], r->argv, r->envp);
    child_fail(r->argv[0]);
}

/* The run's child: it becomes the program, in the holder's namespaces or confined here. */
static void exec_child(const struct request *r) {
    begin_child(r);
    if (!(r->fresh & FRESH_PID)) confine_child(r, privileged, &report->ipc_shared);
    exec_program(r);
}

static void add_usage(struct usage *u, const struct rusage *ru) {
    u->cpu_us += (long long)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000LL
                 + ru->ru_utime.tv_usec + ru->ru_stime.tv_usec;
    if (ru->ru_maxrss > u->maxrss_kb) u->maxrss_kb = ru->ru_maxrss;
}

/* Kills and reaps every remaining descendant. Orphans are reparented to us
 * (we are a subreaper), so repeating until we have no children is complete.
 * The list of children is read from the start of a file kept open (a seq_file is made anew at every read from
 * offset 0): opening /proc/self/task/PID/children cost 10-12 µs of every run here, once or twice per run. */
static void sweep(struct usage *u) {
    static int children = -1;
    char buf[65536];
    if (children < 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
        children = open(path, O_RDONLY | O_CLOEXEC);
    }
    for (;;) {
        ssize_t n = children >= 0 ? pread(children, buf, sizeof buf - 1, 0) : -1;
        int listed = 0;
        if (n > 0) {
            buf[n] = '\0';
            for (char *tok = strtok(buf, " \n"); tok; tok = strtok(NULL, " \n")) {
                pid_t p = (pid_t)atoi(tok);
                if (p > 0 && !holder_dying(p) && !holder_spare(p)) {
                    kill(p, SIGKILL);
                    killpg(p, SIGKILL);
                    listed = 1;
                }
            }
        }
        int status;
        struct rusage ru;
        pid_t got = wait4(-1, &status, listed ? __WALL : (__WALL | WNOHANG), &ru);
        if (got > 0) {
            add_usage(u, &ru);
            continue;
        }
        if (got < 0 && errno == ECHILD) return;
        if (got < 0 && errno == EINTR) continue;
        if (got == 0 && !listed) return;  /* nothing listed: only holders (the next run's, or one still ending) */
        usleep(1000);
    }
}

/* On cgroup v2, the child of a run is created inside the run's group (clone3 with CLONE_INTO_CGROUP, Linux 5.7+):
 * joining it afterwards through cgroup.procs takes the kernel's threadgroup lock for writing, which waits for an
 * RCU grace period (5-20 ms whenever the machine's groups were idle a moment). Without CLONE_VM the child has
 * its own copy of memory, so it can return from here (vfork's child could not) and its report goes through the
 * shared page. Returns the pid, 0 in the child, -1 on failure, or -2 where clone3 cannot do it (old kernel, v1): then the
 * caller forks itself, since a vfork child must not return from the function that called vfork. */
static pid_t clone_into(struct run_group *g) {
#if defined(SYS_clone3) && defined(CLONE_INTO_CGROUP)
    if (g->version != 2 || g->run < 0) return -2;
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_VFORK | CLONE_INTO_CGROUP;
    args.exit_signal = SIGCHLD;
    args.cgroup = (__u64)g->run;
    pid_t pid = (pid_t)syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) g->nprocs = 0;  /* already in its group: the child's copy has nothing to join */
    if (pid >= 0) return pid;
    return errno == ENOSYS || errno == E2BIG || errno == EINVAL || errno == EOPNOTSUPP ? -2 : -1;
#else
    (void)g;
    return -2;
#endif
}

static void run(struct request *r) {
    if (r->argc == 0) {
        reply("error empty command\n");
        return;
    }
    /* a launcher started with --filter serves runs with exactly that filter: fewer bits would be more than asked */
    if (launcher_filter && (r->fresh & FILTER_BITS) != launcher_filter) {
        reply("error this launcher runs every program under seccomp filter %lld, not %lld\n", launcher_filter, r->fresh & FILTER_BITS);
        return;
    }
    /* Runs take turns between the lanes of the slot's groups (cgroup.c), so a run starts while the last one's
     * namespaces still end in another lane: their end waits for an RCU grace period, which took 150-500 µs, and now
     * and then 10-20 ms (holder_lane). */
    static int last_lane;
    int lane = holder_lane(last_lane);
    last_lane = lane;
    holder_reap(lane);
    struct run_group g;
    const char *why = NULL;
    if (group_prepare(&g, r, lane, &why) < 0) {
        group_finish(&g, &(long long){0}, &(long){0}, &(int){0});
        reply("error cgroup: %s: %s\n", why, strerror(errno));
        return;
    }
    struct capture cap;
    if (capture_start(&cap, r->fds, r->out_max) < 0) {
        capture_forked(&cap);
        capture_finish(&cap);
        group_finish(&g, &(long long){0}, &(long){0}, &(int){0});
        reply("error output pipes: %s\n", strerror(errno));
        return;
    }
    /* vfork (or clone3 with CLONE_VFORK): no page tables to copy, and the parent resumes only once the child
     * has exec'd or failed, so a failure is already in the report without a pipe and an extra wake-up. */
    report->error[0] = '\0';
    report->ipc_shared = 0;
    fail_buffer = report->error;
    child_group = &g;
    int own_pids = (r->fresh & FRESH_PID) != 0;
    char refused[320];
    if (own_pids && holder_use(r, refused, sizeof refused) < 0) {
        capture_forked(&cap);
        capture_finish(&cap);
        group_finish(&g, &(long long){0}, &(long){0}, &(int){0});
        reply("error %s\n", refused);
        return;
    }
    if (!own_pids && r->fresh & FRESH_MOUNTS) mount_table_refresh();  /* the child reads it (confine.c) */
    long long start = now_us();
    pid_t pid = clone_into(&g);
    if (pid == -2) pid = vfork();
    if (pid == 0) exec_child(r);
    if (own_pids) holder_leave();
    capture_forked(&cap);
    if (pid < 0) {
        capture_finish(&cap);
        group_finish(&g, &(long long){0}, &(long){0}, &(int){0});
        reply("error fork: %s\n", strerror(errno));
        return;
    }
    struct usage u = {0, 0};
    if (report->error[0]) {
        for (char *c = report->error; *c; c++)
            if (*c == '\n') *c = ' ';
        group_kill(&g);
        sweep(&u);
        capture_finish(&cap);
        group_finish(&g, &(long long){0}, &(long){0}, &(int){0});
        reply("error %s\n", report->error);
        return;
    }

    answer_now();  /* the last run's answer, held while this one started */

    /* The child has its own stdin and stdout now. Copies kept here would hold off the end-of-file the other
     * side of a pipe must see the moment the child closes them (an interactor that stops talking early). A
     * captured stdout is a file this launcher still copies the run's output into: it stays open. */
    close(r->fds[0]);
    r->fds[0] = -1;
    if (cap.streams[0].read_end < 0) {
        close(r->fds[1]);
        r->fds[1] = -1;
    }
    /* While this run computes: the next run's namespaces are made, and the last run's end (reaped in the loop below
     * once they have, so neither is on the path from one run to the next). Only now that this launcher holds no
     * write end of the run's pipes: the holder is forked from it and keeps what it inherits until it has closed
     * them, so a holder made before, and slow to start on a busy machine, held off the end-of-file of the run's
     * output (the launcher's capture_finish waited for it) and of an interactor's input. */
    if (own_pids && !parent_gone) holder_prepare(r);

    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    const char *killed = pidfd < 0 ? "wall" : "none";
    /* a held wall limit counts from the judge's word, its stretch from the run delay at that moment */
    int held = r->wall_held;
    long long wall_from = start, delay_from = 0;
    long long deadline = start + r->wall_ms * 1000LL;
    long long sampled_kb = 0, next_sample = start + POLL_MS * 1000LL, delay_us = 0;  /* the first sample a tick in, as before output woke the loop */
    struct probe looked;  /* the runnable processes at the last look past the deadline */
    int looked_before = 0;
    while (pidfd >= 0) {
        long long now = now_us();
        int wait_ms = POLL_MS;
        if (r->wall_ms > 0 && !held) {
            long long left_ms = (deadline - now + 999) / 1000;
            if (left_ms <= 0) {
                long long cap = wall_from + r->wall_ms * 1000LL * WALL_STRETCH;
                long long stretched = wall_from + r->wall_ms * 1000LL + tree_delay_us(pid) - delay_from;
                if (stretched > now + 1000 && now < cap) {
                    deadline = stretched < cap ? stretched : cap;
                    continue;
                }
                /* A wait still under way is in no schedstat until the thread gets a CPU: beside a process of much
                 * higher weight, a program gets a slice of a few ms a third of a second apart, and the delay read
                 * here may leave out most of the time it lost. A process runnable now is looked at again a poll
                 * later; while one waited through the whole of it, the deadline moves on by that poll. */
                struct probe seen;
                if (now >= cap) {
                    /* the last look stands: what waited then and has not run since is waiting still */
                } else if (tree_runnable(pid, &seen, now)) {
                    int waited = !looked_before || probe_follow(&looked, &seen);
                    looked = seen;
                    looked_before = 1;
                    if (waited) {
                        deadline = now + POLL_MS * 1000LL < cap ? now + POLL_MS * 1000LL : cap;
                        continue;
                    }
                } else {
                    looked_before = 0;  /* nothing waits now */
                }
                killed = "wall";
                break;
            }
            if (left_ms < wait_ms) wait_ms = (int)left_ms;
        }
        /* fd 0 is the judge's pipe: when it hangs up, the judge is gone and the run must not outlive it. */
        struct pollfd pfd[2 + LANES + 2] = {{pidfd, POLLIN, 0}, {0, held ? POLLIN : 0, 0}};
        for (int l = 0; l < LANES; l++) pfd[2 + l] = (struct pollfd){own_pids ? holder_dying_fd(l) : -1, POLLIN, 0};
        int ready = poll(pfd, (nfds_t)(2 + LANES + capture_poll(&cap, pfd + 2 + LANES)), wait_ms);
        if (capture_drain(&cap)) { killed = "output"; break; }
        for (int l = 0; l < LANES; l++)
            if (pfd[2 + l].revents & POLLIN) holder_reap(l);  /* an earlier run's holder has ended: no wait */
        if (ready > 0 && (pfd[0].revents & POLLIN)) break;
        if (pfd[1].revents & (POLLHUP | POLLERR)) parent_gone = 1;
        if (held && (pfd[1].revents & POLLIN)) {
            /* the judge's word, or (never sent to a held run, but never left unbounded) a request queued behind:
             * either way the wall limit counts from now; only the word itself is taken off the socket */
            char word[8];
            ssize_t got = recv(0, word, sizeof word, MSG_PEEK | MSG_DONTWAIT);
            if (got == 0) parent_gone = 1;
            else if (got == 4 && !memcmp(word, "wall", 4)) while (recv(0, word, sizeof word, 0) < 0 && errno == EINTR) {}
            held = 0;
            wall_from = now_us();
            delay_from = tree_delay_us(pid);
            deadline = wall_from + r->wall_ms * 1000LL;
        }
        if (parent_gone) { killed = "wall"; break; }
        /* a program writing much wakes this loop often: the groups are read once per tick all the same */
        if (now_us() < next_sample) continue;
        next_sample = now_us() + POLL_MS * 1000LL;
        long long cpu_us, rss_kb;
        if (g.version) {
            cpu_us = group_cpu_us(&g);
            rss_kb = group_current_kb(&g);
        } else {
            cpu_us = tree_usage(pid, &rss_kb);
            if (own_pids) {  /* what the program orphaned is the holder's now */
                long long orphans_kb;
                cpu_us += tree_usage(holder_pid(), &orphans_kb);
                rss_kb += orphans_kb;
            }
        }
        if (rss_kb > sampled_kb) sampled_kb = rss_kb;
        if (r->cpu_ms > 0 && cpu_us > r->cpu_ms * 1000LL) { killed = "cpu"; break; }
        if (!g.version && r->mem_kb > 0 && rss_kb > r->mem_kb) { killed = "memory"; break; }
    }
    /* before the kill: a stopped run's threads are still there to be read; with the wait under way at the end */
    delay_us = run_delay_us(pid) + (looked_before ? probe_ongoing_us(&looked, pid, now_us()) : 0);
    if (strcmp(killed, "none")) killpg(pid, SIGKILL), kill(pid, SIGKILL);
    int status = 0;
    struct rusage ru;
    while (wait4(pid, &status, __WALL, &ru) < 0 && errno == EINTR) {}
    long long wall = now_us() - start;
    if (pidfd >= 0) close(pidfd);
    add_usage(&u, &ru);
    killpg(pid, SIGKILL);
    if (own_pids && !g.version) holder_end(1, lane);  /* without a group, only the namespace's end kills the orphans */
    group_kill(&g);
    sweep(&u);  /* leaves the run's holder alone */
    if (own_pids && g.version) holder_after(r, lane);  /* kept for the next run if the run left nothing in it */
    capture_finish(&cap);
    if (cap.over && !strcmp(killed, "none")) killed = "output";  /* past the limit in the last bytes, read after the end */
    int oom = 0;
    long peak_kb = 0;
    group_finish(&g, &u.cpu_us, &peak_kb, &oom);
    /* The peak is the larger of the tree's (the group's charge, or the tick's sum without one) and the largest
     * process's resident peak: a small program's pages are mostly shared libraries charged to whoever loaded
     * them first, and memcg charges in per-CPU batches, so the group alone could say 0 for a real program. */
    if (peak_kb > u.maxrss_kb) u.maxrss_kb = peak_kb;
    if (sampled_kb > u.maxrss_kb) u.maxrss_kb = (long)sampled_kb;
    if (report->ipc_shared) sweep_sysv_ipc();
    clean_scratch(r->scratch);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    /* end_us: when the run ended on CLOCK_MONOTONIC, which every process of the machine shares: the judge orders
     * the two sides of an interactive run by it. */
    answer_later("ok exit=%d signal=%d cpu_us=%lld wall_us=%lld maxrss_kb=%ld killed=%s oom=%d cgroup=%d end_us=%lld output=%d delay_us=%lld\n",
          code, sig, u.cpu_us, wall, u.maxrss_kb, killed, oom, g.version, start + wall, cap.over, delay_us);
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--relay")) return relay_main(argc, argv);
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);  /* nothing ignored by whoever started it reaches a run */
    signal(SIGPIPE, SIG_IGN);
    privileged = geteuid() == 0;
    report = mmap(NULL, sizeof *report, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (report == MAP_FAILED) {
        perror("launcher: report page");
        return 1;
    }
    fail_buffer = report->error;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--own-network")) {
            if (unshare(CLONE_NEWNET) < 0) {
                perror("launcher: network namespace");
                return 1;
            }
        } else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
            if (filter_launcher(atoll(argv[++i])) < 0) {
                perror("launcher: seccomp filter");
                return 1;
            }
        } else {
            fprintf(stderr, "launcher: unknown option %s\n", argv[i]);
            return 1;
        }
    }
    holder_start();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_parent_death;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    struct request r;
    memset(&r, 0, sizeof r);
    r.uid = r.gid = -1;
    for (;;) {
        const char *bad = NULL;
        if (held_len && !request_waiting()) answer_now();  /* nothing queued: the judge waits for this answer */
        int got = read_request(&r, &bad);
        if (got == 0 || parent_gone) break;
        if (got < 0) reply("error %s\n", bad);
        else run(&r);
        free_request(&r);
    }
    answer_now();
    holder_close();  /* the next run's holder, and any still ending, are reaped before the launcher goes */
    while (waitpid(-1, NULL, __WALL) > 0 || errno == EINTR) {}
    return 0;
}
