/*
 * What a run gets that no other run shares, set up between fork and exec (in the run's init when it has a
 * PID namespace of its own), and what is cleaned after it.
 *
 *  - FRESH_IPC: new IPC and UTS namespaces per run, so SysV objects and POSIX message queues die
 *    with the run. Without the privilege for it, the SysV objects are removed after the run.
 *  - FRESH_LOCAL_SOCKETS: the seccomp filter refuses every socket but a local (AF_UNIX) one, and io_uring,
 *    which could make one behind the filter's back. A run can then neither reach a network nor leave
 *    state in one (TIME_WAIT entries, bound ports, counters) for a later run of the same launcher, whose
 *    network namespace it shares: a local socket lives no longer than the processes holding it, which
 *    all end with the run. A namespace per run did the same at 1-2 ms of every run's time (making one
 *    and tearing it down); the filter costs nothing measurable.
 *  - FRESH_PID: a new PID namespace per run, whose pid 1 (the holder, fresh.c, which does all of
 *    this ahead of the run) mounts a /proc of its own, so no pid counter or process list carries over.
 *  - FRESH_MOUNTS (rlimits mode as root): a private mount namespace with fresh tmpfs on /tmp,
 *    /dev/shm and /var/tmp; "hide" paths get an empty tmpfs over them (test data, the build cache),
 *    "expose" paths (the program's own files, its interpreter) are cloned into place on top, with
 *    any parent the run's uid could not cross (like a 0700 home) replaced by a 0755 tmpfs.
 *  - FRESH_SHM: a fresh tmpfs on /dev/shm (bwrap mode; FRESH_MOUNTS makes one already). Its pages
 *    are charged to the writer, so they count in the run's memory.
 *  - FRESH_READONLY: every mount of the run's view is made read-only, recursively, and only the
 *    scratch tmpfs and the request's "writable" paths are made writable again: a world-writable
 *    folder nobody thought of (/run/lock, a PHP session folder) cannot carry anything to later runs.
 *  - FRESH_SECCOMP: no_new_privs and a filter refusing add_key, request_key and keyctl. Kernel
 *    keyrings are not namespaced: a key with world permissions can be found by its serial number
 *    from any uid, so refusing the calls is the only way to close that channel between runs.
 *  - FRESH_NOUSERNS: the same filter refuses user namespaces (clone and unshare with CLONE_NEWUSER;
 *    clone3, whose flags a filter cannot read, reports ENOSYS so libc falls back to clone). A user
 *    namespace is the only way a run could get mount rights or a network namespace with a working
 *    loopback, whose TCP buffers cgroup v1 does not charge as memory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sys/socket.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <linux/mount.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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
#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif


static const char *const TMPFS_PLACES[] = {"/tmp", "/dev/shm", "/var/tmp"};

static int is_dir(const char *path, struct stat *st) {
    return stat(path, st) == 0 && S_ISDIR(st->st_mode);
}

static void mount_tmpfs(const char *where, long long size_kb, const char *mode) {
    char options[64];
    snprintf(options, sizeof options, "size=%lldk,mode=%s", size_kb > 0 ? size_kb : 64, mode);
    if (mount("tmpfs", where, "tmpfs", MS_NOSUID | MS_NODEV, options) < 0) child_fail(where);
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
            mount_tmpfs(path, 64, "0755");
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

/* Everything read-only, then the run's own writable places back: the tmpfs mounted for it, the scratch
 * (bwrap's /tmp) and the writable binds (a compilation's output folder). Mounts below those stay read-only. */
static void read_only_but(const struct request *r, const char *const *mine, int nmine) {
    if (mount_read_only("/", AT_RECURSIVE, 1) < 0) child_fail("read-only mounts");
    for (int i = 0; i < nmine; i++)
        if (mount_read_only(mine[i], 0, 0) < 0) child_fail(mine[i]);
    if (r->scratch && *r->scratch && mount_read_only(r->scratch, 0, 0) < 0) child_fail(r->scratch);
    for (int i = 0; i < r->nwritable; i++)
        if (mount_read_only(r->writable[i], 0, 0) < 0) child_fail(r->writable[i]);
}

void confine_child(const struct request *r, int privileged, volatile int *ipc_shared) {
    if (r->fresh & FRESH_IPC) {
        if (!privileged || unshare(CLONE_NEWIPC | CLONE_NEWUTS) < 0) *ipc_shared = 1;
    }
    if (!(r->fresh & (FRESH_MOUNTS | FRESH_PID | FRESH_SHM | FRESH_READONLY))) return;
    int trees[MAX_PATHS];
    int tree_is_dir[MAX_PATHS];
    int nexpose = r->fresh & FRESH_MOUNTS ? r->nexpose : 0;
    for (int i = 0; i < nexpose; i++) {
        struct stat st;
        tree_is_dir[i] = is_dir(r->expose[i], &st);
        trees[i] = (int)syscall(SYS_open_tree, AT_FDCWD, r->expose[i], OPEN_TREE_CLONE | O_CLOEXEC | AT_RECURSIVE);
        if (trees[i] < 0) child_fail(r->expose[i]);
    }
    if (unshare(CLONE_NEWNS) < 0) child_fail("unshare mount namespace");
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) child_fail("private mounts");
    const char *mine[sizeof TMPFS_PLACES / sizeof TMPFS_PLACES[0]];
    int nmine = 0;
    for (size_t i = 0; i < sizeof TMPFS_PLACES / sizeof TMPFS_PLACES[0]; i++) {
        struct stat st;
        int wanted = r->fresh & FRESH_MOUNTS || (r->fresh & FRESH_SHM && !strcmp(TMPFS_PLACES[i], "/dev/shm"));
        if (wanted && is_dir(TMPFS_PLACES[i], &st)) {
            mount_tmpfs(TMPFS_PLACES[i], r->tmp_kb, "1777");
            mine[nmine++] = TMPFS_PLACES[i];
        }
    }
    for (int i = 0; r->fresh & FRESH_MOUNTS && i < r->nhide; i++) {
        struct stat st;
        if (is_dir(r->hide[i], &st)) mount_tmpfs(r->hide[i], 64, "0755");
    }
    for (int i = 0; i < nexpose; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", r->expose[i]);
        make_reachable(path, tree_is_dir[i]);
        if (syscall(SYS_move_mount, trees[i], "", AT_FDCWD, r->expose[i], MOVE_MOUNT_F_EMPTY_PATH) < 0) child_fail(r->expose[i]);
        close(trees[i]);
    }
    /* the caller is pid 1 of the run's new PID namespace: this /proc shows the run's processes only */
    if (r->fresh & FRESH_PID && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) child_fail("/proc");
    if (r->fresh & FRESH_READONLY) read_only_but(r, mine, nmine);
}

/* A seccomp program written with named targets: each jump names the label it goes to, resolved to the relative
 * offsets BPF wants once the program is complete, so a rule can be added without recounting every jump. */
enum label { NEXT, ALLOW, DENY, NOSYS, ACCES, FLAGS, DOMAIN, SOCKETCALL, COMPAT, LABELS };
struct filter { struct sock_filter code[48]; unsigned char jt[48], jf[48]; int at[LABELS], n; };

static void emit(struct filter *f, unsigned short code, unsigned int k, enum label jt, enum label jf) {
    f->code[f->n] = (struct sock_filter)BPF_STMT(code, k);
    f->jt[f->n] = (unsigned char)jt, f->jf[f->n] = (unsigned char)jf;
    f->n++;
}
static void jump_if(struct filter *f, unsigned int nr, enum label to) { emit(f, BPF_JMP | BPF_JEQ | BPF_K, nr, to, NEXT); }
static void place(struct filter *f, enum label l) { f->at[l] = f->n; }
static void load(struct filter *f, unsigned int offset) { emit(f, BPF_LD | BPF_W | BPF_ABS, offset, NEXT, NEXT); }
static void ret(struct filter *f, unsigned int value) { emit(f, BPF_RET | BPF_K, value, NEXT, NEXT); }

static void resolve(struct filter *f) {
    for (int i = 0; i < f->n; i++) {
        if (BPF_CLASS(f->code[i].code) != BPF_JMP) continue;
        f->code[i].jt = f->jt[i] == NEXT ? 0 : (unsigned char)(f->at[f->jt[i]] - i - 1);
        f->code[i].jf = f->jf[i] == NEXT ? 0 : (unsigned char)(f->at[f->jf[i]] - i - 1);
    }
}

/* One architecture's numbering of the calls the filter looks at (0: the architecture has no such call). */
struct numbers { unsigned int add_key, request_key, keyctl, clone3, clone, unshare, socket, socketcall, io_uring_setup; };

/* The calls refused by number; clone and unshare go to FLAGS, socket to DOMAIN, socketcall to SOCKETCALL. */
static void refused_calls(struct filter *f, long long fresh, const struct numbers *nr) {
    if (fresh & FRESH_SECCOMP) jump_if(f, nr->add_key, DENY), jump_if(f, nr->request_key, DENY), jump_if(f, nr->keyctl, DENY);
    if (fresh & FRESH_NOUSERNS) jump_if(f, nr->clone3, NOSYS), jump_if(f, nr->clone, FLAGS), jump_if(f, nr->unshare, FLAGS);
    if (fresh & FRESH_LOCAL_SOCKETS) {
        jump_if(f, nr->socket, DOMAIN);
        if (nr->socketcall) jump_if(f, nr->socketcall, SOCKETCALL);
        jump_if(f, nr->io_uring_setup, NOSYS);  /* io_uring makes sockets without a socket call the filter could see */
    }
    emit(f, BPF_JMP | BPF_JEQ | BPF_K, 0, ALLOW, ALLOW);  /* everything else */
}

static void install_filter(long long fresh) {
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
    const unsigned int arch = AUDIT_ARCH_X86_64;
#else
    const unsigned int arch = AUDIT_ARCH_AARCH64;
#endif
    static const struct numbers native = {__NR_add_key, __NR_request_key, __NR_keyctl, 435, __NR_clone, __NR_unshare,
                                          __NR_socket, 0, 425};
    struct filter f;
    memset(&f, 0, sizeof f);
    load(&f, offsetof(struct seccomp_data, arch));
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, arch, NEXT, COMPAT);
    load(&f, offsetof(struct seccomp_data, nr));
    emit(&f, BPF_ALU | BPF_AND | BPF_K, ~0x40000000u, NEXT, NEXT);  /* x32 calls carry this bit */
    refused_calls(&f, fresh, &native);
    place(&f, COMPAT);
#if defined(__x86_64__)
    /* a 64-bit program may still make 32-bit calls (int 0x80), numbered as on i386 */
    static const struct numbers i386 = {286, 287, 288, 435, 120, 310, 359, 102, 425};
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, NEXT, ALLOW);
    load(&f, offsetof(struct seccomp_data, nr));
    refused_calls(&f, fresh, &i386);
#else
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, 0, ALLOW, ALLOW);
#endif
    place(&f, FLAGS);  /* clone's and unshare's first argument holds the namespace flags on every architecture here */
    load(&f, offsetof(struct seccomp_data, args[0]));
    emit(&f, BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, DENY, ALLOW);
    place(&f, DOMAIN);  /* socket's first argument is the address family: local sockets only */
    load(&f, offsetof(struct seccomp_data, args[0]));
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, ALLOW, ACCES);
    place(&f, SOCKETCALL);  /* i386's multiplexer: its arguments are in memory a filter cannot read, so no new sockets */
    load(&f, offsetof(struct seccomp_data, args[0]));
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, 1 /* SYS_SOCKET */, ACCES, ALLOW);
    place(&f, ALLOW);
    ret(&f, SECCOMP_RET_ALLOW);
    place(&f, DENY);
    ret(&f, SECCOMP_RET_ERRNO | EPERM);
    place(&f, NOSYS);
    ret(&f, SECCOMP_RET_ERRNO | ENOSYS);
    place(&f, ACCES);
    ret(&f, SECCOMP_RET_ERRNO | EACCES);
    resolve(&f);
    struct sock_fprog prog = {(unsigned short)f.n, f.code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) child_fail("no_new_privs");
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) child_fail("seccomp");
#else
    (void)fresh;
#endif
}

void confine_before_exec(const struct request *r) {
    if (r->fresh & (FRESH_SECCOMP | FRESH_NOUSERNS | FRESH_LOCAL_SOCKETS)) install_filter(r->fresh);
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
        char *out = found[count];
        for (const char *in = point; *in; in++) {  /* mountinfo escapes space, tab, newline, backslash as \ooo */
            if (in[0] == '\\' && in[1] && in[2] && in[3]) {
                *out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
                in += 3;
            } else {
                *out++ = *in;
            }
        }
        *out = '\0';
        count++;
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

/* The mount points below a scratch are read once per scratch path: nothing a run does can mount in the
 * launcher's namespace, so they only change with the sandbox, which comes with a new launcher. */
void clean_scratch(const char *path) {
    if (!path || !*path || !strcmp(path, "/")) return;
    int top = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (top < 0) return;
    static char mounts[64][512], seen_for[4096];
    static int count;
    if (strcmp(seen_for, path)) {
        count = mounts_below(path, mounts, 64);
        snprintf(seen_for, sizeof seen_for, "%s", path);
    }
    empty_folder(top, path, mounts, count);
    close(top);
}
