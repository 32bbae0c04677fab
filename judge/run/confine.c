/*
 * What a run gets that no other run shares, set up between fork and exec (in the run's init when it has a
 * PID namespace of its own), and what is cleaned after it.
 *
 *  - FRESH_IPC: new IPC and UTS namespaces per run, so SysV objects and POSIX message queues die
 *    with the run. Without the privilege for it, the SysV objects are removed after the run.
 *  - FRESH_PID: a new PID namespace per run, whose pid 1 (the holder, fresh.c, which does all of
 *    this ahead of the run) mounts a /proc of its own, so no pid counter or process list carries over.
 *    A holder serves the next run too when this one left nothing in it (fresh.c says what is looked at),
 *    its pid counter put back; the run's /proc hides other users' processes, the holder's counters among them.
 *  - FRESH_MOUNTS (rlimits mode as root): a private mount namespace with fresh tmpfs on /tmp,
 *    /dev/shm and /var/tmp; "hide" paths get an empty tmpfs over them (test data, the build cache),
 *    "expose" paths (the program's own files, its interpreter) are cloned into place on top, with
 *    any parent the run's uid could not cross (like a 0700 home) replaced by a 0755 tmpfs. Every
 *    control-group file system is detached: no run reads another slot's counters.
 *  - FRESH_SHM: a fresh tmpfs on /dev/shm (bwrap mode; FRESH_MOUNTS makes one already). Its pages
 *    are charged to the writer, so they count in the run's memory.
 *  - FRESH_READONLY: every mount of the run's view is made read-only, recursively, and only the
 *    scratch tmpfs and the request's "writable" paths are made writable again: a world-writable
 *    folder nobody thought of (/run/lock, a PHP session folder) cannot carry anything to later runs.
 *
 * The seccomp filter and the Landlock scope (FRESH_SECCOMP, FRESH_NOUSERNS, FRESH_LOCAL_SOCKETS, FRESH_QUIET_FILES,
 * FRESH_SCOPED) are seccomp.c's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <linux/mount.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "child.h"
#include "launcher.h"

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
struct mount_attr { unsigned long long attr_set, attr_clr, propagation, userns_fd; };
#endif


/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape(const char *in, char *out) {
    for (; *in; in++) {
        if (in[0] == '\\' && in[1] && in[2] && in[3]) {
            *out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
            in += 3;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
}

static const char *const TMPFS_PLACES[] = {"/tmp", "/dev/shm", "/var/tmp"};

static int is_dir(const char *path, struct stat *st) {
    return stat(path, st) == 0 && S_ISDIR(st->st_mode);
}

static void mount_tmpfs(const char *where, long long size_kb, const char *mode, unsigned long more) {
    char options[64];
    snprintf(options, sizeof options, "size=%lldk,mode=%s", size_kb > 0 ? size_kb : 64, mode);
    if (mount("tmpfs", where, "tmpfs", MS_NOSUID | MS_NODEV | more, options) < 0) child_fail(where);
}

/* Makes every component of path exist and be crossable by any uid; the last one is made as a file
 * or a folder to match what will be mounted on it. */
static void make_reachable(char *path, int leaf_is_dir) {
    for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash) *slash = '\0';
        struct stat st;
        int last = slash == NULL;
        if (lstat(path, &st) < 0) {
            if (errno != ENOENT) child_fail(path);
            if (last && !leaf_is_dir) {
                int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
                if (fd < 0) child_fail(path);
                close(fd);
            } else if (mkdir(path, 0755) < 0) {
                child_fail(path);
            }
        } else if (!last && S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH)) {
            mount_tmpfs(path, 64, "0755", 0);
        }
        if (!slash) return;
        *slash = '/';
    }
}

/* Sets or clears the read-only flag of the mount at path (and, with AT_RECURSIVE, of every mount below it). */
static int mount_read_only(const char *path, unsigned int flags, int read_only) {
    struct mount_attr attr;
    memset(&attr, 0, sizeof attr);
    if (read_only) attr.attr_set = MOUNT_ATTR_RDONLY;
    else attr.attr_clr = MOUNT_ATTR_RDONLY;
    return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &attr, sizeof attr);
}

/* Every control-group file system leaves the run's view (rlimits mode, which otherwise shows the machine's): the
 * counters of the other slots' groups (memory, CPU time, process count) would tell a run what a run beside it
 * does, bit by bit. Detached rather than covered, so that /proc/self/mountinfo names none either (a JVM reads it
 * to look for its limits, and finds none to read: its limits are the command line's). */
/* One line of mountinfo: what detach_control_groups needs of it. */
struct mount_entry { int id, parent; char kind; /* 'g' control group, 't' tmpfs, 0 other */ int gone; char point[512]; };

/* Where a control group is detached from: the mount that holds it when that is a tmpfs holding nothing but control
 * groups (the machine's /sys/fs/cgroup, for cgroup v1 a dozen of them), otherwise the group itself. Each detach
 * waits for an RCU grace period, so one for the whole folder instead of one per group saves most of that in every
 * run's set-up (docs/benchmarks.md). */
static int detach_point(const struct mount_entry *m, int n, int i) {
    int holder = -1;
    for (int j = 0; j < n; j++)
        if (m[j].id == m[i].parent) holder = j;
    if (holder < 0 || m[holder].kind != 't' || !strcmp(m[holder].point, "/")) return i;
    for (int j = 0; j < n; j++)
        if (m[j].parent == m[holder].id && m[j].kind != 'g') return i;
    return holder;
}

/* The control-group mounts a run's view loses, worked out from the launcher's own mount table, of which every run's
 * mount namespace is a copy: read once, and again only when the table changed (the kernel marks an open mountinfo
 * POLLPRI at every mount and unmount of its namespace). Reading and parsing it in every holder was a tenth of the
 * launcher's CPU time (docs/benchmarks.md). ``count`` is -1 until read; ``failed`` the errno of a read that failed. */
static struct { int fd, count, failed; char (*points)[512]; } table = {-1, -1, 0, NULL};

static void read_table(void) {
    table.count = 0;
    table.failed = 0;
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) {
        table.failed = errno;
        return;
    }
    int n = 0, size = 0;
    struct mount_entry *m = NULL;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char point[512], type[64];
        int id, parent;
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%d %d %*s %*s %511s", &id, &parent, point) != 3 || sscanf(dash + 3, "%63s", type) != 1) continue;
        if (n == size) {
            size = size ? 2 * size : 64;
            struct mount_entry *more = realloc(m, (size_t)size * sizeof *m);
            if (!more) {
                table.failed = ENOMEM;
                break;
            }
            m = more;
        }
        char kind = !strcmp(type, "cgroup") || !strcmp(type, "cgroup2") ? 'g' : !strcmp(type, "tmpfs") ? 't' : 0;
        m[n] = (struct mount_entry){id, parent, kind, 0, ""};
        unescape(point, m[n].point);
        n++;
    }
    fclose(f);
    free(table.points);
    table.points = table.failed ? NULL : malloc((size_t)(n ? n : 1) * sizeof *table.points);
    if (!table.points && !table.failed) table.failed = ENOMEM;
    for (int i = 0; !table.failed && i < n; i++) {
        if (m[i].kind != 'g') continue;
        struct mount_entry *at = &m[detach_point(m, n, i)];
        if (at->gone) continue;
        at->gone = 1;
        memcpy(table.points[table.count++], at->point, sizeof at->point);
    }
    free(m);
}

/* 1 when the launcher's mount table changed since it was read (or was never read): a mount namespace copied before
 * the change may hold a control group the table does not name. The table is stale from then until read again. */
int mount_table_changed(void) {
    struct pollfd p = {table.fd, POLLPRI, 0};
    if (table.fd < 0 || poll(&p, 1, 0) != 0) table.count = -1;
    return table.count < 0;
}

/* In the launcher, before a run's mount namespace is made (by a holder, or by the run's child): the table is current. */
void mount_table_refresh(void) {
    if (table.fd < 0) table.fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
    if (mount_table_changed()) read_table();  /* after the poll that took the change: what is read is as new */
}

static void detach_control_groups(void) {
    if (table.count < 0) read_table();
    if (table.failed) {
        errno = table.failed;
        child_fail("/proc/self/mountinfo");
    }
    for (int i = 0; i < table.count; i++)  /* one may have gone with an earlier one's parent: EINVAL, ENOENT */
        if (umount2(table.points[i], MNT_DETACH) < 0 && errno != EINVAL && errno != ENOENT) child_fail(table.points[i]);
}

void confine_ipc(const struct request *r, int privileged, volatile int *ipc_shared) {
    if (r->fresh & FRESH_IPC) {
        if (!privileged || unshare(CLONE_NEWIPC | CLONE_NEWUTS) < 0) *ipc_shared = 1;
    }
}

/* 1 when the place gets a tmpfs of its own in every run. */
static int run_place_wanted(const struct request *r, size_t i) {
    struct stat st;
    return (r->fresh & FRESH_MOUNTS || (r->fresh & FRESH_SHM && !strcmp(TMPFS_PLACES[i], "/dev/shm"))) && is_dir(TMPFS_PLACES[i], &st);
}

int run_places(const struct request *r, const char **places) {
    int n = 0;
    for (size_t i = 0; i < sizeof TMPFS_PLACES / sizeof TMPFS_PLACES[0]; i++)
        if (run_place_wanted(r, i)) places[n++] = TMPFS_PLACES[i];
    return n;
}

/* 1 when path lies in (or is) a place that gets a tmpfs of its own in every run, both resolved (a /var/tmp may be a
 * link): what is exposed there is mounted on that tmpfs in each run, since the view's copy would be covered by it. */
static int in_run_place(const struct request *r, const char *path) {
    char real[PATH_MAX], place[PATH_MAX];
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    for (size_t i = 0; i < sizeof TMPFS_PLACES / sizeof TMPFS_PLACES[0]; i++) {
        if (!run_place_wanted(r, i) || !realpath(TMPFS_PLACES[i], place)) continue;
        size_t len = strlen(place);
        if (!strncmp(real, place, len) && (real[len] == '/' || real[len] == '\0')) return 1;
    }
    return 0;
}

struct placement placement_of(const struct request *r) {
    struct placement p = {0, 0};
    for (int i = 0; r->fresh & FRESH_MOUNTS && i < r->nexpose; i++)
        if (in_run_place(r, r->expose[i])) p.expose |= 1u << i;
    for (int i = 0; i < r->nwritable; i++)
        if (in_run_place(r, r->writable[i])) p.writable |= 1u << i;
    return p;
}

/* Clones of the exposed paths, taken in the launcher's mount namespace before the run's is made: those of the view
 * (per_run 0) or those of a run (per_run 1); -1 for the others. */
static void open_trees(const struct request *r, const struct placement *p, int per_run, int *trees, int *tree_is_dir) {
    for (int i = 0; i < MAX_PATHS; i++) trees[i] = -1;
    for (int i = 0; r->fresh & FRESH_MOUNTS && i < r->nexpose; i++) {
        int lies_there = (p->expose >> i) & 1;
        if (lies_there != per_run) continue;
        struct stat st;
        tree_is_dir[i] = is_dir(r->expose[i], &st);
        trees[i] = (int)syscall(SYS_open_tree, AT_FDCWD, r->expose[i], OPEN_TREE_CLONE | O_CLOEXEC | AT_RECURSIVE);
        if (trees[i] < 0) child_fail(r->expose[i]);
    }
}

static void place_trees(const struct request *r, int *trees, const int *tree_is_dir) {
    for (int i = 0; i < r->nexpose; i++) {
        if (trees[i] < 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s", r->expose[i]);
        make_reachable(path, tree_is_dir[i]);
        if (syscall(SYS_move_mount, trees[i], "", AT_FDCWD, r->expose[i], MOVE_MOUNT_F_EMPTY_PATH) < 0) child_fail(r->expose[i]);
        close(trees[i]);
        trees[i] = -1;
    }
}

/* The view every run of a request starts from, made once in a mount namespace of its own (fresh.c keeps it for the
 * runs of the same request): private mounts, no control group, the hidden paths covered, the exposed ones in place
 * and everything read-only but the scratch and the writable paths. What must be new in each run (the tmpfs places,
 * what is exposed in them, /proc) is confine_run's. */
void confine_view(const struct request *r, const struct placement *p) {
    int trees[MAX_PATHS], tree_is_dir[MAX_PATHS];
    open_trees(r, p, 0, trees, tree_is_dir);
    if (unshare(CLONE_NEWNS) < 0) child_fail("unshare mount namespace");
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) child_fail("private mounts");
    if (r->fresh & FRESH_MOUNTS) detach_control_groups();
    for (int i = 0; r->fresh & FRESH_MOUNTS && i < r->nhide; i++) {
        struct stat st;
        if (is_dir(r->hide[i], &st)) mount_tmpfs(r->hide[i], 64, "0755", 0);
    }
    place_trees(r, trees, tree_is_dir);
    if (!(r->fresh & FRESH_READONLY)) return;
    /* Everything read-only, then the writable places back (mounts below them stay read-only); a run's tmpfs, mounted
     * later, is writable as made. */
    if (mount_read_only("/", AT_RECURSIVE, 1) < 0) child_fail("read-only mounts");
    if (r->scratch && *r->scratch && mount_read_only(r->scratch, 0, 0) < 0) child_fail(r->scratch);
    for (int i = 0; i < r->nwritable; i++)
        if (!(p->writable >> i & 1) && mount_read_only(r->writable[i], 0, 0) < 0) child_fail(r->writable[i]);
}

/* A clone of an exposed path, read-only as the view's mounts are, but the top of a writable one. */
static void read_only_tree(const struct request *r, const struct placement *p, int i, int tree) {
    struct mount_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.attr_set = MOUNT_ATTR_RDONLY;
    if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) < 0) child_fail(r->expose[i]);
    for (int w = 0; w < r->nwritable; w++) {
        if (!(p->writable >> w & 1) || strcmp(r->writable[w], r->expose[i])) continue;
        attr.attr_set = 0;
        attr.attr_clr = MOUNT_ATTR_RDONLY;
        if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof attr) < 0) child_fail(r->expose[i]);
    }
}

/* The run's /proc, its PID namespace's, read-only under FRESH_READONLY. It hides the processes of other users: the holder
 * (pid 1), whose counters (CPU time, context switches, one more for each orphan it reaped) would otherwise tell a run
 * about the runs the holder served before it. The holder also keeps ns_last_pid open for writing, to put its
 * namespace's pid counter back between two runs it serves (fresh.c): through a proc instance of its own, mounted
 * nowhere (a file open for writing would keep the run's /proc from being made read-only), as a write to it acts on the
 * writer's PID namespace whatever the mount. last_pid_fd stays -1 where either cannot be had (a kernel before 5.8,
 * where proc mounts share their options), and then no holder serves two runs. */
int last_pid_fd = -1;

/* A file of a new instance of a file system mounted nowhere (no run sees it), opened: -1 where it cannot be had. */
static int open_unmounted(const char *type, const char *path, int flags) {
    int fs = (int)syscall(SYS_fsopen, type, FSOPEN_CLOEXEC), mnt = -1, fd = -1;
    if (fs < 0) return -1;
    if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
        mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
    close(fs);
    if (mnt >= 0) {
        fd = openat(mnt, path, flags | O_CLOEXEC);
        close(mnt);
    }
    return fd;
}

/* The root of the POSIX message queues of the caller's IPC namespace, open for reading, through an mqueue instance
 * mounted nowhere: -1 where it cannot be had. A holder lists it to tell whether a run left a queue in the IPC
 * namespace the runs it serves share (fresh.c). */
int open_queues(void) {
    return open_unmounted("mqueue", ".", O_RDONLY | O_DIRECTORY);
}

static void mount_proc(const struct request *r) {
    unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC | (r->fresh & FRESH_READONLY ? MS_RDONLY : 0);
    int hides = mount("proc", "/proc", "proc", flags, "hidepid=2") == 0;
    if (!hides && mount("proc", "/proc", "proc", flags, NULL) < 0) child_fail("/proc");
    last_pid_fd = hides ? open_unmounted("proc", "sys/kernel/ns_last_pid", O_WRONLY) : -1;
}

/* What each run gets new, in a copy of the view just made (unshare(CLONE_NEWNS) after joining it): a tmpfs on each
 * place (/tmp, /dev/shm, /var/tmp in rlimits mode; /dev/shm alone with FRESH_SHM), the exposed paths that lie there
 * (``trees``, from run_trees), and, for pid 1 of the run's PID namespace, a /proc that shows the run's processes only. */
void confine_run(const struct request *r, const struct placement *p, int *trees, const int *tree_is_dir) {
    for (size_t i = 0; i < sizeof TMPFS_PLACES / sizeof TMPFS_PLACES[0]; i++)
        if (run_place_wanted(r, i)) mount_tmpfs(TMPFS_PLACES[i], r->tmp_kb, "1777", MS_NOATIME);
    for (int i = 0; r->fresh & FRESH_READONLY && i < r->nexpose; i++)
        if (trees[i] >= 0) read_only_tree(r, p, i, trees[i]);
    place_trees(r, trees, tree_is_dir);
    if (r->fresh & FRESH_PID) mount_proc(r);
}

void run_trees(const struct request *r, const struct placement *p, int *trees, int *tree_is_dir) {
    open_trees(r, p, 1, trees, tree_is_dir);
}

/* A run's view and its own mounts made in one go, in its child (no holder: no PID namespace of its own). */
void confine_child(const struct request *r, int privileged, volatile int *ipc_shared) {
    confine_ipc(r, privileged, ipc_shared);
    if (!(r->fresh & VIEW_BITS)) return;
    struct placement p = placement_of(r);
    int trees[MAX_PATHS], tree_is_dir[MAX_PATHS];
    run_trees(r, &p, trees, tree_is_dir);
    confine_view(r, &p);
    confine_run(r, &p, trees, tree_is_dir);
}

/* Without an IPC namespace per run: remove every SysV object this namespace shows (the sandbox's
 * own, or the objects of the run's uid). POSIX queues cannot be listed without mounting mqueue. */
void sweep_sysv_ipc(void) {
    static const char *const files[] = {"/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem"};
    for (int kind = 0; kind < 3; kind++) {
        FILE *f = fopen(files[kind], "re");
        if (!f) continue;
        char line[512];
        if (!fgets(line, sizeof line, f)) { fclose(f); continue; }
        while (fgets(line, sizeof line, f)) {
            long key, id;
            if (sscanf(line, "%ld %ld", &key, &id) != 2) continue;
            if (kind == 0) shmctl((int)id, IPC_RMID, NULL);
            else if (kind == 1) msgctl((int)id, IPC_RMID, NULL);
            else semctl((int)id, 0, IPC_RMID);
        }
        fclose(f);
    }
}

/* Mount points strictly below path (bwrap puts a program's binds there when they live under /tmp). */
static int mounts_below(const char *path, char found[][512], int most) {
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) return 0;
    size_t len = strlen(path);
    int count = 0;
    char line[4096];
    while (count < most && fgets(line, sizeof line, f)) {
        char point[512];
        if (sscanf(line, "%*s %*s %*s %*s %511s", point) != 1) continue;
        if (strncmp(point, path, len) || point[len] != '/') continue;
        unescape(point, found[count++]);
    }
    fclose(f);
    return count;
}

/* 1: path is one of the mount points; 2: it leads to one (must stay, emptied around); 0: neither. */
static int kept(const char *path, char mounts[][512], int count) {
    size_t len = strlen(path);
    int result = 0;
    for (int i = 0; i < count; i++) {
        if (!strcmp(mounts[i], path)) return 1;
        if (!strncmp(mounts[i], path, len) && mounts[i][len] == '/') result = 2;
    }
    return result;
}

/* Empties one folder: an entry that will not go is emptied by moving its sub-folders up into this
 * folder, so no path ever grows longer than two names (PATH_MAX never matters), and a folder made
 * unreadable by the program is made readable again first. Mount points and the folders leading to
 * them stay; those are emptied around them, one level at a time. */
static void empty_folder(int top, const char *path, char mounts[][512], int count) {
    unsigned long hoisted = 0;
    for (int pass = 0; pass < 100000; pass++) {
        int again = dup(top);
        DIR *d = again >= 0 ? fdopendir(again) : NULL;
        if (!d) return;
        rewinddir(d);
        int progress = 0;  /* a pass that removes and moves nothing (an entry that cannot go) ends the clean-up */
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", path, e->d_name);
            int keep = count ? kept(full, mounts, count) : 0;
            if (keep == 2) {
                int sub = openat(top, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0) {
                    empty_folder(sub, full, mounts, count);
                    close(sub);
                }
            }
            if (keep) continue;
            if (unlinkat(top, e->d_name, 0) == 0 || (fchmodat(top, e->d_name, 0700, AT_SYMLINK_NOFOLLOW), unlinkat(top, e->d_name, AT_REMOVEDIR) == 0)) {
                progress = 1;
                continue;
            }
            int sub = openat(top, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            DIR *sd = sub >= 0 ? fdopendir(sub) : NULL;
            if (!sd) continue;
            for (struct dirent *c; (c = readdir(sd));) {
                if (!strcmp(c->d_name, ".") || !strcmp(c->d_name, "..")) continue;
                if (unlinkat(sub, c->d_name, 0) == 0) {
                    progress = 1;
                    continue;
                }
                char name[64];
                long moved;
                do snprintf(name, sizeof name, ".scratch-hoisted-%lu", hoisted++);
                while ((moved = syscall(SYS_renameat2, sub, c->d_name, top, name, 1 /* RENAME_NOREPLACE */)) < 0 && errno == EEXIST);
                if (moved == 0) progress = 1;
            }
            closedir(sd);
            if (unlinkat(top, e->d_name, AT_REMOVEDIR) == 0) progress = 1;
        }
        closedir(d);
        if (!progress) return;
    }
}

/* Whether a folder holds nothing but "." and "..", from one read of its entries: most runs leave their scratch empty,
 * and the directory stream empty_folder opens (a dup, its checks and a rewind) was five system calls more per run. */
static int holds_nothing(int dir) {
    char buf[1024];
    long n;
    while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
        for (long at = 0; at < n; at += ((struct dirent64 *)(buf + at))->d_reclen) {
            const char *name = ((struct dirent64 *)(buf + at))->d_name;
            if (strcmp(name, ".") && strcmp(name, "..")) return 0;
        }
    return n == 0;
}

/* The mount points below a scratch are read once per scratch path: nothing a run does can mount in the
 * launcher's namespace, so they only change with the sandbox, which comes with a new launcher. */
void clean_scratch(const char *path) {
    if (!path || !*path || !strcmp(path, "/")) return;
    int top = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (top < 0) return;
    if (holds_nothing(top)) {
        close(top);
        return;
    }
    static char mounts[64][512], seen_for[4096];
    static int count;
    if (strcmp(seen_for, path)) {
        count = mounts_below(path, mounts, 64);
        snprintf(seen_for, sizeof seen_for, "%s", path);
    }
    empty_folder(top, path, mounts, count);
    close(top);
}
