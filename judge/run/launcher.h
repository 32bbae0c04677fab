/* Shared declarations of the launcher's parts: the request loop (launcher.c), control groups (cgroup.c), the
 * per-run confinement done in the child before exec (confine.c, and its seccomp filter and Landlock scope in
 * seccomp.c), the holder of a run's namespaces (fresh.c), output capture (output.c), what /proc tells of a run's
 * processes (proctree.c) and the relay (relay.c). They call downwards only: launcher.c the others, fresh.c confine.c, and the parts a child runs (confine.c, seccomp.c,
 * fresh.c) the helpers of child.h, which every child of the launcher shares (child.c). */
#ifndef LAUNCHER_H
#define LAUNCHER_H

#include <poll.h>
#include <sys/types.h>

#define MAX_ARGS 512
#define MAX_ENV 128
#define MAX_PATHS 32
#define MAX_FDS 8

/* Bits of the request's "fresh" value: what a run gets that no other run shares. */
#define FRESH_IPC 1      /* new IPC and UTS namespaces: SysV IPC and POSIX queues die with the run */
#define FRESH_MOUNTS 2   /* new mount namespace: private tmpfs on /tmp, /dev/shm, /var/tmp; hide/expose paths */
#define FRESH_SECCOMP 4  /* no_new_privs and a filter refusing the kernel keyring calls, which no namespace isolates */
#define FRESH_PID 8      /* new PID namespace: a small init is pid 1, the program pid 2, and a /proc of its own */
#define FRESH_LOCAL_SOCKETS 16 /* seccomp: socket pairs only, no io_uring: no network, and no socket the run did not make */
#define FRESH_READONLY 32 /* every mount read-only but the scratch tmpfs and the request's writable paths */
#define FRESH_SHM 64     /* a tmpfs of its own on /dev/shm (POSIX shared memory and semaphores), charged to the run */
#define FRESH_NOUSERNS 128 /* seccomp refuses new user namespaces, the one way to regain a loopback and mount rights */
#define FRESH_QUIET_FILES 256 /* seccomp: file locks are no-ops, no inotify, fanotify, dnotify or lease: a file two
                               * runs both read carries nothing from one to the other */
#define FRESH_SCOPED 512 /* a Landlock domain of its own: signals and ptrace reach the run's own processes only */
/* The bits the seccomp filter is made from (seccomp.c). */
#define FILTER_BITS (FRESH_SECCOMP | FRESH_NOUSERNS | FRESH_LOCAL_SOCKETS | FRESH_QUIET_FILES)

struct request {
    char *argv[MAX_ARGS + 1];
    int argc;
    char *envp[MAX_ENV + 1];
    int envc;
    char *cwd, *scratch;
    char *hide[MAX_PATHS], *expose[MAX_PATHS], *writable[MAX_PATHS];
    int nhide, nexpose, nwritable;
    int fds[MAX_FDS];
    int nfds;
    int cgroup_version; /* 0: none; 1: fds 3..5 are the slot's memory, pids, cpuacct groups; 2: fd 3 is the slot group */
    long long cpu_ms, wall_ms, mem_kb, as_kb, fsize, stack_kb, nofile, nproc, pids, uid, gid, fresh, tmp_kb;
    long long out_max;  /* bytes stdout and stderr may each carry (0: no limit), counted by output.c */
    int wall_held;      /* the wall limit starts counting only when the judge sends "wall" (an interactor's) */
};

/* A run's control group(s), and what was read before the run so that the answer can report deltas. */
struct run_group {
    int version;
    int slot, run;       /* v2: the launcher's group, and the run's own leaf group made inside it */
    int procs[3];        /* cgroup.procs fds the child writes "0" into */
    int nprocs;
    long long cpu_start, oom_start, base_bytes;
};

/* Lanes: subgroups of each of the slot's v1 groups that runs take in turn, so a run never shares its group with the
 * run before it, whose namespaces may still be ending (cgroup.c, fresh.c). Runs take lanes 0 and 1 in turn while the
 * holders end in time; the third is made only when a holder's end lags (holder_lane). A fourth gained nothing more
 * and cost its making and removal (docs/benchmarks.md, "Seventh pass"). */
#define LANES 3
int group_prepare(struct run_group *g, const struct request *r, int lane, const char **why);
long long group_cpu_us(const struct run_group *g);
long long group_current_kb(const struct run_group *g);
void group_kill(const struct run_group *g);
void group_finish(struct run_group *g, long long *cpu_us, long *peak_kb, int *oom);

/* The bits that give a run a mount namespace of its own (confine.c). */
#define VIEW_BITS (FRESH_MOUNTS | FRESH_PID | FRESH_SHM | FRESH_READONLY)
/* Which exposed (bit i: expose[i]) and writable paths lie where every run gets a new tmpfs. */
struct placement { unsigned int expose, writable; };
struct placement placement_of(const struct request *r);
void confine_ipc(const struct request *r, int privileged, volatile int *ipc_shared);
void confine_view(const struct request *r, const struct placement *p);
void run_trees(const struct request *r, const struct placement *p, int *trees, int *tree_is_dir);
void confine_run(const struct request *r, const struct placement *p, int *trees, const int *tree_is_dir);
void confine_child(const struct request *r, int privileged, volatile int *ipc_shared);
int run_places(const struct request *r, const char **places);  /* the places a run gets a tmpfs on: 3 at most */
int open_queues(void);   /* the caller's IPC namespace's POSIX queues, listed through an mqueue mounted nowhere */
extern int last_pid_fd;  /* a holder's: its PID namespace's ns_last_pid, open for writing (-1: none) */
void sweep_sysv_ipc(void);
void mount_table_refresh(void);
int mount_table_changed(void);
void clean_scratch(const char *path);

/* seccomp.c: the filter and Landlock scope a run gets just before exec */
void confine_before_exec(const struct request *r);
int filter_launcher(long long bits);  /* launcher --filter BITS */
extern long long launcher_filter;     /* the FILTER_BITS this launcher runs under (0: none) */

/* fresh.c: a run's namespaces made ahead by a holder process (FRESH_PID) */
void holder_start(void);
int holder_use(const struct request *r, char *why, size_t size);
void holder_leave(void);
void holder_enter(const struct request *r, volatile int *ipc_shared);
void holder_end(int wait, int lane);
void holder_after(const struct request *r, int lane);
void holder_close(void);
int holder_spare(pid_t pid);
void holder_prepare(const struct request *r);
pid_t holder_pid(void);
int holder_dying(pid_t pid);
void holder_reap(int lane);
int holder_lane(int last);
int holder_dying_fd(int lane);
/* output.c: stdout and stderr of a run through pipes the launcher copies into the judge's files, counted */
struct stream {
    int read_end, write_end, file, no_splice;
    int *slot;               /* the request's descriptor the child takes as fd 1 or 2 */
    long long written;
};
struct capture {
    struct stream streams[2];
    long long limit;
    int over;                /* 1: stdout, 2: stderr went past the limit */
};
int capture_start(struct capture *c, int *fds, long long limit);
void capture_forked(struct capture *c);
int capture_poll(const struct capture *c, struct pollfd *p);
int capture_drain(struct capture *c);
void capture_finish(struct capture *c);

/* proctree.c: a run's processes as /proc shows them, from its main process down */
long long tree_usage(pid_t root, long long *rss_kb); /* CPU time (us) and summed resident memory, without a group */
long long run_delay_us(pid_t pid);                   /* how long one process waited for a CPU, waits ended so far */
long long tree_delay_us(pid_t root);                 /* the longest of those among the tree's processes */
/* A look at which processes of a tree are runnable (a thread in state R), with their CPU clocks: two looks tell a
 * wait under way, which no schedstat shows until it ends. */
#define PROBE_MAX 64
struct probe {
    int n;
    long long at_us;                /* when the look was taken (CLOCK_MONOTONIC) */
    pid_t pid[PROBE_MAX];
    long long cpu_ns[PROBE_MAX];
    long long since_us[PROBE_MAX];  /* the first of the looks in a row that found it runnable at this CPU time */
};
int tree_runnable(pid_t root, struct probe *seen, long long at_us); /* fills `seen`; returns how many it holds */
int probe_follow(const struct probe *before, struct probe *now);     /* 1: one waited from `before` to `now` */
/* How long `pid` has waited for a CPU without a break, if it has not run since `seen`, which must follow a look
 * that found it waiting: a lower bound (the wait began before the first look), 0 if it ran or was not waiting. */
long long probe_ongoing_us(const struct probe *seen, pid_t pid, long long now_us);

/* relay.c: launcher --relay, the pipe relay of an interactive run */
int relay_main(int argc, char **argv);

#endif
