/*
 * A run's namespaces made ahead, by a holder: with FRESH_PID every run gets a new PID namespace, and the
 * holder is its pid 1. Made while the previous run computes (on another CPU, off the path of any run), the
 * holder sets up the run's IPC and UTS namespaces and its mount namespace, a copy of the request's view (made
 * once, below) with the run's own /proc and tmpfs added (confine.c), and waits. The run's child then only joins
 * them (setns on the holder's pidfd) and is pid 2, a direct child of the launcher as without a namespace, so the
 * launcher waits for it, reads its status and signals it as always. Making namespaces costs a few hundred µs,
 * off the run's path; their end waits for an RCU grace period, which the next run, in another lane, does not.
 * (No network namespace per run: confine.c's filter leaves a run only local sockets, which end with it, where a
 * network namespace cost as much again to make and to tear down.)
 *
 * Why the program is not pid 1 itself: the kernel drops every signal sent to a namespace's init that it
 * has no handler for, so a raise(SIGABRT), a SIGXFSZ or a kill from inside would do nothing. The holder
 * reaps what the program orphans; when it is killed after the run, the kernel kills whatever is left in
 * the namespace, and the namespaces end with it. It keeps the launcher's uid and is not dumpable, so the
 * program can neither signal nor trace it.
 *
 * A holder is made for the request in flight and serves the next one only if that asks for the same
 * namespaces and paths (the exposed paths also by inode, so a folder replaced in between is not served
 * from a stale clone); otherwise it is replaced on the spot.
 *
 * A holder serves the next run of the same request as well when the run left nothing in it: its tmpfs places as the
 * holder made them (their roots' identity, link count and times, which any file made, removed or touched there
 * changes; mounted noatime, so reading them does not: the launcher looks, holder_after), no process but the holder
 * in its PID namespace, and no System V object or POSIX queue in its IPC namespace (the holder looks, held_nothing).
 * Then it puts its namespace's pid counter back (the program is pid 2 again, whatever the last one forked), and a
 * run's /proc hides the holder's own counters (confine.c). Anything else gets a new holder, as every run did before.
 * Making a holder and ending it was most of what a sandboxed run cost beside none's: the namespaces' making and
 * teardown, and an expedited RCU grace period for each mount namespace dropped, an interrupt to the other CPU
 * (docs/benchmarks.md, "Ninth pass").
 *
 * A holder runs on the launcher's memory (clone with CLONE_VM and a stack of its own, make_holder): a process of its
 * own, in namespaces of its own, but no address space to copy and tear down for each run. It shares nothing else
 * (its files, signal handlers, working folder and namespaces are its own), and what it writes of that memory while
 * the launcher runs beside it is nothing (quiet_syscall).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "launcher.h"

/* What a holder tells the launcher: why it failed, and whether it could not get an IPC namespace of its own. One page
 * per holder alive (the current one and the spares, each made while another may still be setting itself up), in
 * one shared mapping; ``shared`` is the page of the holder made last, which holds why making it failed. */
struct shared { char error[CHILD_ERROR_MAX]; volatile int ipc_shared, resets; };
#define SPARES 2
static struct shared *pages, *shared;
/* A holder: its pid, a pidfd to join its namespaces through, the pipe it says "ready" on, what it was made for and
 * its page. ``current`` serves the run in flight; ``spare`` are made for the next runs, in the order they serve,
 * while this one runs: two, so that the next run's holder was made a whole run earlier and has had the CPU time
 * to be ready (with one, the next run waited for it in 10-25% of runs at `-j 1`, where the judge, the run and the
 * holder share two CPUs). That was for forked holders, which set themselves up beside the launcher; one made on the
 * launcher's memory is ready when made, and the second spare only costs its making once more per judging. */
/* ``ack``: the pipe's read end, kept once ready, on which the holder answers whether its last run left nothing (and its
 * pid counter is back); ``root``: its root, to look at its places through; ``base``: its places' roots as made
 * (``based``: read); ``kept``: its last run, in ``lane``, left the places as made, and the holder was asked
 * (holder_after). */
#define PLACES 3
struct holder {
    pid_t pid;
    int fd, ready, stack;
    char *key;
    struct shared *page;
    int ack, root, kept, lane, nplaces, based;
    struct stat base[PLACES];
};
#define NO_HOLDER ((struct holder){-1, -1, -1, -1, NULL, NULL, -1, -1, 0, 0, 0, 0, {{0}}})
static struct holder current = NO_HOLDER, spare[SPARES] = {NO_HOLDER, NO_HOLDER};
/* Whether the run in flight was served by a spare: runs of one request follow each other, so the second spare is
 * worth making. A run whose request differs from the last one's gets one spare only: where every request differs
 * (a launcher serving one run per submission) a second would be made and thrown away each time. */
static int streak;
/* Whether the run in flight was served by the last run's holder (holder_use): while runs leave nothing behind, no
 * spares are made. */
static int reusing;
/* The holder of each lane's last run, killed and still ending, with its pidfd: reaped through the pidfd, since a sweep
 * of the launcher's children may reap it first and its pid may then be a new child's by the lane's next run. */
static struct { pid_t pid; int fd, stack; } dying[LANES];
static int home_pid = -1;

/* What a holder was made for: every request field that shapes the namespaces, and the identity of each exposed path. */
static char *key_of(const struct request *r) {
    size_t size = 256;
    for (int i = 0; i < r->nhide; i++) size += strlen(r->hide[i]) + 4;
    for (int i = 0; i < r->nexpose; i++) size += strlen(r->expose[i]) + 48;
    for (int i = 0; i < r->nwritable; i++) size += strlen(r->writable[i]) + 4;
    size += r->scratch ? strlen(r->scratch) : 0;
    char *key = malloc(size), *at = key;
    if (!key) return NULL;
    at += sprintf(at, "%lld %lld %s\n", r->fresh, r->tmp_kb, r->scratch ? r->scratch : "");
    for (int i = 0; i < r->nhide; i++) at += sprintf(at, "h %s\n", r->hide[i]);
    for (int i = 0; i < r->nexpose; i++) {
        struct stat st;
        if (stat(r->expose[i], &st) < 0) memset(&st, 0, sizeof st);
        at += sprintf(at, "e %s %llu %llu\n", r->expose[i], (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
    }
    for (int i = 0; i < r->nwritable; i++) at += sprintf(at, "w %s\n", r->writable[i]);
    return key;
}

/* The view the holders of one request copy (confine_view): a mount namespace kept open by its fd, made once for a
 * request's key (and again after the machine's mount table changed) by a child that ends at once. Made per run, the
 * view's steps were most of a holder's making, and detaching the control groups waited for an RCU grace period. */
static struct { int fd; char *key; struct placement placement; } view = {-1, NULL, {0, 0}};

static void view_drop(void) {
    if (view.fd >= 0) close(view.fd);
    free(view.key);
    view.fd = -1;
    view.key = NULL;
}

static int make_view(const struct request *r, const char *key) {
    view.placement = placement_of(r);
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) < 0) return -1;
    pid_t launcher = getpid(), pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != launcher) _exit(0);  /* the launcher died before the death signal was asked for */
        close(ready[0]);
        fail_buffer = shared->error;
        confine_view(r, &view.placement);
        if (write(ready[1], "1", 1) != 1) _exit(1);
        for (;;) pause();  /* killed once its namespace is open */
    }
    close(ready[1]);
    char byte, path[64];
    ssize_t n = -1;
    if (pid > 0)
        while ((n = read(ready[0], &byte, 1)) < 0 && errno == EINTR) {}
    close(ready[0]);
    if (n == 1) {
        snprintf(path, sizeof path, "/proc/%d/ns/mnt", (int)pid);
        view.fd = open(path, O_RDONLY | O_CLOEXEC);
        if (view.fd < 0) snprintf(shared->error, sizeof shared->error, "%s: %s", path, strerror(errno));
    }
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, __WALL);
    }
    if (view.fd >= 0 && !(view.key = strdup(key))) view_drop();
    return view.fd < 0 ? -1 : 0;
}

/* A view made for this request: the last one, or one made now. With private mounts it is made from the mount table as
 * the launcher read it, so a mount or unmount since (the machine's, never a run's) has it made again. */
static int view_ready(const struct request *r, const char *key) {
    int mounts = (r->fresh & FRESH_MOUNTS) != 0;
    if (view.fd >= 0 && (strcmp(view.key, key) || (mounts && mount_table_changed()))) view_drop();
    for (int tries = 0; view.fd < 0; tries++) {
        if (tries == 8) {
            snprintf(shared->error, sizeof shared->error, "the machine's mount table kept changing");
            return -1;
        }
        if (mounts) mount_table_refresh();  /* the view's maker copies the table: it names what to detach */
        if (make_view(r, key) < 0) return -1;
        if (mounts && mount_table_changed()) view_drop();
    }
    return 0;
}

/* A system call that leaves errno alone (its error comes back as -errno): a holder on the launcher's memory runs
 * beside the launcher once it is ready, and errno is one variable for both (a holder has no thread storage of its
 * own). Elsewhere than on x86-64 holders are forked (SHARED_STACKS is 0) and this is libc's syscall. */
#if defined(__x86_64__)
static long quiet_syscall(long number, long a, long b, long c, long d) {
    long result;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return result;
}
#define SHARED_STACKS (1 + SPARES + LANES)
#else
static long quiet_syscall(long number, long a, long b, long c, long d) {
    long result = syscall(number, a, b, c, d);
    return result < 0 ? -errno : result;
}
#define SHARED_STACKS 0
#endif

/* Stacks for holders made on the launcher's memory (clone with CLONE_VM), one per holder that can be alive at once:
 * the current one, the spares, and one still ending in each lane. Made once and reused (an unmap would have the
 * kernel flush the launcher's TLB on the other CPU, where a holder ran); a guard page below each turns an overflow
 * into a fault. A stack is in use from the holder's making until it has been reaped (by holder_reap or end, or by a
 * sweep before: the holder's stack index goes with it, not its pid, which a sweep's reaping frees for reuse). */
#define STACK_SIZE (128 * 1024)
#define GUARD_SIZE 4096
static char *stacks;
static int stack_used[SHARED_STACKS + 1];
struct holder_args { const struct request *r; int ready, launcher; };

static int free_stack(void) {
    for (int i = 0; stacks && i < SHARED_STACKS; i++)
        if (!stack_used[i]) return i;
    return -1;
}

/* A holder has been reaped: its stack (-1: it had none of the pool) can serve another. */
static void stack_released(int stack) {
    if (stack >= 0) stack_used[stack] = 0;
}

/* In a holder, between two runs: whether the run left nothing in its namespaces but its places (which the launcher
 * looks at). No process but the holder (kill(-1) from a namespace's pid 1 reaches every other process in it, and
 * one killed but not yet gone counts), and no System V object or POSIX queue in the IPC namespace. */
static int held_nothing(void) {
    struct msginfo queues;
    struct shm_info segments;
    struct seminfo sets;
    char names[1024];
    if (quiet_syscall(SYS_kill, -1, 0, 0, 0) != -ESRCH) return 0;
    if (quiet_syscall(SYS_msgctl, 0, MSG_INFO, (long)&queues, 0) < 0 || queues.msgpool) return 0;
    if (quiet_syscall(SYS_shmctl, 0, SHM_INFO, (long)&segments, 0) < 0 || segments.used_ids) return 0;
    if (quiet_syscall(SYS_semctl, 0, 0, SEM_INFO, (long)&sets) < 0 || sets.semusz) return 0;
    if (quiet_syscall(SYS_lseek, 6, 0, SEEK_SET, 0) < 0) return 0;
    long n = quiet_syscall(SYS_getdents64, 6, (long)names, sizeof names, 0);
    for (long at = 0; at < n;) {  /* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, then the name */
        unsigned short length;
        memcpy(&length, names + at + 16, sizeof length);
        const char *name = names + at + 19;
        if (strcmp(name, ".") && strcmp(name, "..")) return 0;
        at += length;
    }
    return n >= 0;
}

/* The holder: confines itself and reports ready through the pipe (a failure reaches the launcher as the pipe's
 * end without a byte, the reason in the shared page), then reaps orphans, and answers the launcher's question after
 * each run on the same pipe, until it is killed. */
static void hold(const struct request *r, int ready, int launcher) {
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigaddset(&chld, SIGUSR1);  /* the launcher's question after a run (holder_after) */
    sigprocmask(SIG_SETMASK, &chld, NULL);
    own_signals_default();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct pollfd gone = {launcher, POLLIN, 0};
    if (poll(&gone, 1, 0) != 0) _exit(0);  /* the launcher died before the death signal was asked for */
    prctl(PR_SET_DUMPABLE, 0);
    int copies_view = r->fresh & VIEW_BITS && view.fd >= 0;  /* make_holder made the view for this request */
    if (dup2(ready, 3) < 0 || (copies_view && dup2(view.fd, 4) < 0)) _exit(1);
    syscall(SYS_close_range, copies_view ? 5 : 4, ~0U, 0);
    int null = open("/dev/null", O_RDWR);  /* fds 0-2: the judge's socket must not be held open by the holder */
    for (int fd = 0; fd < 3; fd++) dup2(null, fd);
    if (null > 2) close(null);
    fail_buffer = shared->error;
    confine_ipc(r, geteuid() == 0, &shared->ipc_shared);
    last_pid_fd = -1;
    if (copies_view) {  /* a copy of the view (fd 4), with the run's own mounts added */
        int trees[MAX_PATHS], tree_is_dir[MAX_PATHS];
        run_trees(r, &view.placement, trees, tree_is_dir);  /* taken in the launcher's namespace, this one still */
        if (setns(4, CLONE_NEWNS) < 0 || unshare(CLONE_NEWNS) < 0) child_fail("the run's mount namespace");
        close(4);
        confine_run(r, &view.placement, trees, tree_is_dir);
    }
    /* fd 5: ns_last_pid (confine.c's mount_proc), and fd 6: the IPC namespace's POSIX queues, used by the loop below
     * by fixed numbers (last_pid_fd is one variable for every holder on the launcher's memory) */
    int fds[2] = {last_pid_fd, r->fresh & FRESH_IPC && !shared->ipc_shared ? open_queues() : -1};
    for (int i = 0; i < 2; i++) {  /* out of the way of 5 and 6 first: either may have been opened there */
        int high = fds[i] >= 0 ? fcntl(fds[i], F_DUPFD_CLOEXEC, 10) : -1;
        if (fds[i] >= 0) close(fds[i]);
        fds[i] = high;
    }
    shared->resets = fds[0] >= 0 && fds[1] >= 0 && dup2(fds[0], 5) == 5 && dup2(fds[1], 6) == 6;
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0) close(fds[i]);
    if (write(3, "1", 1) != 1) _exit(1);  /* fd 3 stays open: the pipe then carries its acknowledgements */
    /* From here on the launcher runs again beside this holder, on the same memory (make_holder): no call below may
     * write errno, which is the launcher's too, so these are made without libc's wrappers. */
    for (;;) {
        while (quiet_syscall(SYS_wait4, -1, 0, WNOHANG | __WALL, 0) > 0) {}
        long got = quiet_syscall(SYS_rt_sigtimedwait, (long)&chld, 0, 0, _NSIG / 8);  /* blocked, so none is missed */
        if (got != SIGUSR1) continue;
        /* asked after a run whose places were left as made: '1' if the run left nothing else either, its pid counter
         * put back (the next pid is 2 again: a sysctl write at offset 0), else '0' (holder_use) */
        while (quiet_syscall(SYS_wait4, -1, 0, WNOHANG | __WALL, 0) > 0) {}
        char word = held_nothing() && quiet_syscall(SYS_pwrite64, 5, (long)"1", 1, 0) == 1 ? '1' : '0';
        quiet_syscall(SYS_write, 3, (long)&word, 1, 0);
    }
}

static int hold_on_stack(void *arg) {
    const struct holder_args *a = arg;
    hold(a->r, a->ready, a->launcher);
    return 0;
}

static void end(struct holder *h, int wait, int lane);

/* Whether a holder is ready, waited for once: its byte read (ready is then NOT_WAITING), or its pipe's end without
 * one (it failed, why in its page; ready is then FAILED, and the caller ends it). */
#define NOT_WAITING (-1)
#define FAILED (-2)
static int holder_ready(struct holder *h) {
    if (h->pid < 0 || h->ready == FAILED) return 0;
    if (h->ready == NOT_WAITING) return 1;
    char byte;
    long n;  /* read without errno, which a holder setting itself up on the launcher's memory writes too */
    while ((n = quiet_syscall(SYS_read, h->ready, (long)&byte, 1, 0)) == -EINTR) {}
    if (n == 1) h->ack = h->ready;  /* kept: the holder's acknowledgements come on it */
    else close(h->ready);
    h->ready = n == 1 ? NOT_WAITING : FAILED;
    return n == 1;
}

/* A page no live holder uses: one of SPARES + 1, as there are never more holders than the current one and the spares. */
static struct shared *free_page(void) {
    for (int i = 0; i <= SPARES; i++) {
        int used = current.page == &pages[i];
        for (int j = 0; j < SPARES; j++) used |= spare[j].page == &pages[i];
        if (!used) return &pages[i];
    }
    return NULL;
}

/* A holder made for this request: ready (on the launcher's memory) or still setting itself up (forked, where no stack
 * is free or on other machines than x86-64); NO_HOLDER if it could not be made (why in shared->error). */
static struct holder make_holder(const struct request *r) {
    int ready[2];
    struct shared *page = free_page();
    if (!page) return NO_HOLDER;
    shared = page;
    shared->error[0] = '\0';
    shared->ipc_shared = shared->resets = 0;
    int self = (int)syscall(SYS_pidfd_open, getpid(), 0);
    if (self < 0 || pipe2(ready, O_CLOEXEC) < 0) {
        if (self >= 0) close(self);
        return NO_HOLDER;
    }
    char *key = key_of(r);
    if (!key || (r->fresh & VIEW_BITS && view_ready(r, key) < 0)) {
        free(key);
        close(self);
        close(ready[0]);
        close(ready[1]);
        return NO_HOLDER;
    }
    /* On the launcher's memory where a stack is free: no copy of the launcher's address space to make and tear
     * down, and no copy-on-write faults after it in either process (a sixth and a tenth of a sandboxed run's CPU
     * overhead, docs/benchmarks.md). The launcher then waits for it to be ready, so that nothing the holder reads
     * (the request, the view, the page) changes under it and no call the launcher makes meanwhile shares errno with
     * the holder's; afterwards the holder writes nothing of the launcher's (quiet_syscall). Since its memory is the
     * launcher's, the holder's PR_SET_DUMPABLE makes the launcher not dumpable too. */
    int stack = free_stack();
    char *run_buffer = fail_buffer;
    pid_t pid;
    struct holder_args args = {r, ready[1], self};  /* read by the holder until it is ready: kept until then */
    if (stack >= 0) {
        char *top = stacks + (size_t)(stack + 1) * (GUARD_SIZE + STACK_SIZE);
        pid = clone(hold_on_stack, top, CLONE_VM | CLONE_NEWPID | SIGCHLD, &args);
        if (pid > 0) stack_used[stack] = 1;
    } else {
        pid = (pid_t)syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, NULL);
        if (pid == 0) hold(r, ready[1], self);
    }
    close(self);
    close(ready[1]);
    if (pid < 0) {
        free(key);
        close(ready[0]);
        return NO_HOLDER;
    }
    struct holder made = NO_HOLDER;
    made.pid = pid, made.fd = (int)syscall(SYS_pidfd_open, pid, 0), made.ready = ready[0], made.stack = stack;
    made.key = key, made.page = page;
    int ready_now = stack < 0 || holder_ready(&made);
    fail_buffer = run_buffer;  /* the holder pointed it at its page, in the launcher's memory: the run's again */
    if (!ready_now) {
        end(&made, 1, 0);
        return NO_HOLDER;
    }
    return made;
}

void holder_start(void) {
    pages = mmap(NULL, (SPARES + 1) * sizeof *pages, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) pages = NULL;
    shared = pages;
    home_pid = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
    if (SHARED_STACKS) {
        size_t each = GUARD_SIZE + STACK_SIZE;
        stacks = mmap(NULL, SHARED_STACKS * each, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (stacks == MAP_FAILED) stacks = NULL;
        for (int i = 0; stacks && i < SHARED_STACKS; i++)
            if (mprotect(stacks + i * each, GUARD_SIZE, PROT_NONE) < 0) {
                munmap(stacks, SHARED_STACKS * each);
                stacks = NULL;
            }
    }
    for (int l = 0; l < LANES; l++) dying[l].pid = dying[l].fd = dying[l].stack = -1;
}

/* Kills a holder: the kernel kills what is left in its namespace, which ends with it. Its exit, which tears the
 * namespaces down, is waited for only when asked; otherwise it is left dying in its run's lane, for holder_reap. */
static void signal_end(const struct holder *h) {
    if (h->pid < 0) return;
    /* through its pidfd where there is one: a holder already reaped (by sweep, after a failed run) leaves a pid
     * that the kernel may give to another process */
    if (h->fd < 0 || (syscall(SYS_pidfd_send_signal, h->fd, SIGKILL, NULL, 0) < 0 && errno == ENOSYS))
        kill(h->pid, SIGKILL);
}

static void end(struct holder *h, int wait, int lane) {
    if (h->pid < 0) return;
    signal_end(h);
    if (wait) {
        waitpid(h->pid, NULL, __WALL);
        stack_released(h->stack);  /* reaped now, or by a sweep before */
    } else {
        holder_reap(lane);
        dying[lane].pid = h->pid, dying[lane].fd = h->fd, dying[lane].stack = h->stack;
        h->fd = -1;
    }
    if (h->fd >= 0) close(h->fd);
    if (h->ready >= 0) close(h->ready);
    if (h->ack >= 0) close(h->ack);
    if (h->root >= 0) close(h->root);
    free(h->key);
    *h = NO_HOLDER;
}

/* The run's holder, after the run: waited for only when asked (without a control group, nothing else kills the
 * orphans before the answer); otherwise the next run in the same lane waits for it first (holder_reap), by when
 * it has mostly ended: at least one run was in another lane between them (holder_lane). */
void holder_end(int wait, int lane) {
    end(&current, wait, lane);
}

/* A place's root as the holder made it: the same folder, nothing made, removed or touched in it since. */
static int same_root(const struct stat *a, const struct stat *b) {
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_nlink == b->st_nlink
           && a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec
           && a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The roots of a holder's places, through its root (made once): 0 when they could all be read. */
static int places_now(struct holder *h, const struct request *r, struct stat *st) {
    if (h->root < 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/root", (int)h->pid);
        h->root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (h->root < 0) return -1;
    }
    const char *places[PLACES];
    h->nplaces = run_places(r, places);
    for (int i = 0; i < h->nplaces; i++)
        if (fstatat(h->root, places[i] + 1, &st[i], AT_SYMLINK_NOFOLLOW) < 0) return -1;
    return 0;
}

/* Whether a holder's places are as it made them. */
static int places_as_made(struct holder *h, const struct request *r) {
    struct stat now[PLACES];
    int same = h->based && places_now(h, r, now) == 0;
    for (int i = 0; same && i < h->nplaces; i++) same = same_root(&h->base[i], &now[i]);
    return same;
}

/* Whether a holder has no child: every process left in its PID namespace is one, once the run's first process has been
 * reaped (the others are the holder's orphans, or descendants of one). A process still there holds on to what the
 * run had (its output pipes among them): only the holder's end, which kills it, lets the run's end go on. */
static int childless(const struct holder *h) {
    char path[64], listed[16];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)h->pid, (int)h->pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, listed, sizeof listed);
    close(fd);
    return n == 0;
}

/* After a run with a control group: its holder kept for the next run of the same request if no process of the run
 * is left and the run left its places as they were made, and asked to look at the rest and put its pid counter back
 * (held_nothing: its word is read before the next run, holder_use); else ended, in the run's lane, which kills
 * whatever is left in its namespace. */
void holder_after(const struct request *r, int lane) {
    struct holder *h = &current;
    if (h->pid < 0) return;
    int clean = h->page && h->page->resets && h->ack >= 0 && childless(h) && places_as_made(h, r)
                && syscall(SYS_pidfd_send_signal, h->fd, SIGUSR1, NULL, 0) == 0;
    if (clean) h->kept = 1, h->lane = lane;
    else end(h, 0, lane);
}

/* Every holder, as the launcher exits: all killed first, so that their namespaces' ends overlap. */
void holder_close(void) {
    signal_end(&current);
    for (int i = 0; i < SPARES; i++) signal_end(&spare[i]);
    end(&current, 1, 0);
    for (int i = 0; i < SPARES; i++) end(&spare[i], 1, 0);
    for (int l = 0; l < LANES; l++) holder_reap(l);
}

pid_t holder_pid(void) {
    return current.pid;
}

/* A holder made for a next run, or the run's own (which holder_after keeps or ends, and the next holder_use ends if
 * the run failed before its end): a sweep of the launcher's children must leave it alone. */
int holder_spare(pid_t pid) {
    if (pid > 0 && pid == current.pid) return 1;
    for (int i = 0; i < SPARES; i++)
        if (pid > 0 && pid == spare[i].pid) return 1;
    return 0;
}

/* A holder still ending, which a sweep of the launcher's children must leave to holder_reap. */
int holder_dying(pid_t pid) {
    for (int l = 0; l < LANES; l++)
        if (pid > 0 && pid == dying[l].pid) return 1;
    return 0;
}

/* The pidfd of the holder still ending in a lane (-1: none), which polls readable once it has ended. */
int holder_dying_fd(int lane) {
    return dying[lane].fd;
}

/* The lane of the next run: the first but the last run's whose last holder has ended (lanes 0 and 1 in turn, while
 * holders end within a run, as most do), else the first whose holder ends, waited for. A holder's end waits for an
 * RCU grace period (synchronize_rcu_expedited as its mount namespace goes), which now and then took 10-20 ms on this
 * machine's 2 CPUs, several runs' time: with two lanes the run after next waited for it (a mean of 0.03-0.3 ms a run,
 * session to session); now the runs go on in the other lanes meanwhile. */
int holder_lane(int last) {
    struct pollfd ended[LANES];
    int lanes[LANES], n = 0;
    for (int l = 0; l < LANES; l++) {
        if (l == last) continue;
        if (n == 0 && dying[l].pid < 0) return l;  /* the first other lane is free: nothing to look at */
        lanes[n] = l;
        ended[n++] = (struct pollfd){dying[l].pid < 0 ? -1 : dying[l].fd, POLLIN, 0};
    }
    for (int timeout = 0;; timeout = -1) {
        int got = poll(ended, (nfds_t)n, timeout);
        if (got < 0 && errno == EINTR) continue;
        for (int i = 0; i < n; i++)  /* in order: a free lane, or one whose last holder has ended */
            if (dying[lanes[i]].pid < 0 || (got > 0 && ended[i].revents)) return lanes[i];
        for (int i = 0; i < n; i++)  /* a holder without a pidfd (Linux before 5.3): holder_reap waits for it */
            if (dying[lanes[i]].fd < 0 || got < 0) return lanes[i];
    }
}

/* Before a run in a lane: the holder of that lane's last run has ended, so its namespaces are gone. Above all its
 * tmpfs (the run's /dev/shm, in rlimits mode /tmp too), whose pages and inodes are charged to the lane's group: on
 * cgroup v1 a run shares its lane's group with the lane's last run, and would start with that run's files counted
 * against its limit. */
void holder_reap(int lane) {
    if (dying[lane].fd >= 0) {
        siginfo_t info;
        int got;
        while ((got = waitid((idtype_t)3 /* P_PIDFD */, (id_t)dying[lane].fd, &info, WEXITED | __WALL)) < 0 && errno == EINTR) {}
        if (got < 0 && errno == EINVAL) waitpid(dying[lane].pid, NULL, __WALL);  /* Linux 5.3: pidfds, no P_PIDFD */
        close(dying[lane].fd);
    } else if (dying[lane].pid > 0) {
        waitpid(dying[lane].pid, NULL, __WALL);
    }
    stack_released(dying[lane].stack);
    dying[lane].pid = dying[lane].fd = dying[lane].stack = -1;
}

/* While a run goes on (its child has joined its own holder's namespaces): the holder for a next run like this
 * one, made on another CPU while this run computes rather than between the answer and the next request. Nothing
 * of this run reaches it: it is a child of the launcher, in namespaces of its own made from the launcher's. */
void holder_prepare(const struct request *r) {
    if (!(r->fresh & FRESH_PID) || !pages || reusing) return;  /* the runs of this request leave nothing behind */
    for (int i = 0; i < (streak ? SPARES : 1); i++)
        if (spare[i].pid < 0) {
            spare[i] = make_holder(r);
            if (spare[i].pid < 0) return;
        }
}

/* Before a run: a ready holder made for this request, and the launcher's next child in its PID namespace. */
int holder_use(const struct request *r, char *why, size_t size) {
    char *key = key_of(r);
    /* the last run's holder, kept (holder_after), for a request like the last: once it has said the run left nothing
     * (no process is left then, so nothing can change its places any more: they are looked at again) and its pid
     * counter is back; otherwise ended in that run's lane, which is not this run's */
    char word = '0';
    reusing = current.kept && key && current.key && !strcmp(key, current.key) && read(current.ack, &word, 1) == 1
              && word == '1' && places_as_made(&current, r) && setns(current.fd, CLONE_NEWPID) == 0;
    if (reusing) {
        current.kept = 0;  /* kept again only by this run's holder_after: a run that fails before its end leaves it */
        free(key);
        return 0;
    }
    if (current.kept) end(&current, 0, current.lane);
    end(&current, 1, 0);  /* a run that failed before its end left its holder: never one for two runs */
    for (int i = 0; i < SPARES; i++)  /* the spares were made for one request: both serve this one, or neither */
        if (spare[i].pid >= 0 && (!key || !spare[i].key || strcmp(key, spare[i].key))) end(&spare[i], 1, 0);
    free(key);
    current = spare[0];
    for (int i = 0; i + 1 < SPARES; i++) spare[i] = spare[i + 1];
    spare[SPARES - 1] = NO_HOLDER;
    streak = current.pid >= 0;
    if (current.pid < 0 && pages) current = make_holder(r);
    if (!holder_ready(&current) || current.fd < 0 || setns(current.fd, CLONE_NEWPID) < 0) {
        struct shared *page = current.page ? current.page : shared;
        snprintf(why, size, "namespaces: %s", page && page->error[0] ? page->error : strerror(errno));
        holder_end(1, 0);
        return -1;
    }
    /* its places as made, which holder_after compares with after the run */
    current.based = places_now(&current, r, current.base) == 0;
    return 0;
}

/* In the launcher after the fork: its later children are in its own PID namespace again. */
void holder_leave(void) {
    if (home_pid >= 0 && setns(home_pid, CLONE_NEWPID) < 0) {
        perror("launcher: back to its own PID namespace");
        exit(1);
    }
}

/* In the run's child, before the launcher's descriptors are closed: into the holder's namespaces. */
void holder_enter(const struct request *r, volatile int *ipc_shared) {
    int flags = 0;
    if (r->fresh & FRESH_IPC) {
        if (current.page->ipc_shared) *ipc_shared = 1;
        else flags |= CLONE_NEWIPC | CLONE_NEWUTS;
    }
    if (r->fresh & (FRESH_MOUNTS | FRESH_PID | FRESH_SHM | FRESH_READONLY)) flags |= CLONE_NEWNS;
    if (flags && setns(current.fd, flags) < 0) child_fail("joining the run's namespaces");
}
