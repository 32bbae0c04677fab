/*
 * The seccomp filter and the Landlock scope a run gets just before exec: what no namespace isolates, refused or
 * made harmless call by call.
 *
 *  - FRESH_SECCOMP: no_new_privs and add_key, request_key and keyctl refused. Kernel keyrings are not
 *    namespaced: a key with world permissions can be found by its serial number from any uid, so refusing
 *    the calls is the only way to close that channel between runs.
 *  - FRESH_NOUSERNS: user namespaces refused (clone and unshare with CLONE_NEWUSER; clone3, whose flags a
 *    filter cannot read, reports ENOSYS so libc falls back to clone). A user namespace is the only way a run
 *    could get mount rights or a network namespace with a working loopback, whose TCP buffers cgroup v1 does
 *    not charge as memory.
 *  - FRESH_LOCAL_SOCKETS: socket() refused for every family, io_uring too (it makes sockets behind the
 *    filter's back); stream and packet socket pairs work (runtimes use them: asyncio, libuv, multiprocessing's
 *    duplex pipes). So no network to reach or leave state in (TIME_WAIT entries, bound ports) for a later
 *    run, and no socket the run did not make: a local socket could connect() to any socket file the run can
 *    see (a read-only mount does not stop that, and rlimits mode shows the machine's daemons' sockets) or to
 *    an abstract name of whatever shares its network namespace. A socket pair is connected to itself for
 *    good; a datagram pair could still send to an address, so it is refused. A network namespace per run did
 *    part of this at 1-2 ms of every run's time; the filter costs nothing measurable.
 *  - FRESH_QUIET_FILES: every run can open the same files (the system's, its own program), and the kernel
 *    keeps state on a file that any opener sees: POSIX, OFD and flock locks (F_GETLK even reports the
 *    holder's offsets), leases, and notification of reads (inotify, fanotify, dnotify). Taking a lock
 *    succeeds and does nothing (toolchains lock their caches: go build, ghc's package database), asking who
 *    holds one fails with ENOLCK, leases and dnotify fail as on a kernel built without them, and
 *    inotify_init and fanotify_init report ENOSYS. Locks between a run's own processes hold nothing either.
 *  - FRESH_SCOPED: a Landlock domain of the run's own, scoped (Linux 6.12 and later, no root needed): its
 *    processes can signal and trace only each other, not the judge, its launcher or a run beside it, even
 *    with the same uid (rlimits mode as another user shares the judge's uid and process table). A kernel
 *    without Landlock scopes leaves this to the uid and PID namespace of the other modes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "child.h"
#include "launcher.h"

#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif

/* A seccomp program written with named targets: each jump names the label it goes to, resolved to the relative
 * offsets BPF wants once the program is complete, so a rule can be added without recounting every jump. */
enum label { NEXT, ALLOW, DENY, NOSYS, ACCES, ZERO, NOLCK, INVAL, FLAGS, PAIR, FCNTL, SOCKETCALL, COMPAT, LABELS };
#define FILTER_MAX 160
#define LABEL_MAX 96 /* the named labels and the branches of the search trees (new_label) */
struct filter { struct sock_filter code[FILTER_MAX]; unsigned char jt[FILTER_MAX], jf[FILTER_MAX]; int at[LABEL_MAX], n, labels; };

static void emit(struct filter *f, unsigned short code, unsigned int k, int jt, int jf) {
    if (f->n == FILTER_MAX) child_fail("seccomp filter too long");
    f->code[f->n] = (struct sock_filter)BPF_STMT(code, k);
    f->jt[f->n] = (unsigned char)jt, f->jf[f->n] = (unsigned char)jf;
    f->n++;
}
/* A jump on one value; a call number 0 means the architecture has no such call, so there is nothing to match. */
static void jump_if(struct filter *f, unsigned int nr, int to) {
    if (nr) emit(f, BPF_JMP | BPF_JEQ | BPF_K, nr, to, NEXT);
}
static void place(struct filter *f, int l) { f->at[l] = f->n; }
static int new_label(struct filter *f) {
    if (f->labels == LABEL_MAX) child_fail("seccomp filter too long");
    return f->labels++;
}
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
struct numbers {
    unsigned int add_key, request_key, keyctl, clone3, clone, unshare, socket, socketpair, socketcall, io_uring_setup;
    unsigned int flock, fcntl, fcntl64, inotify_init, inotify_init1, fanotify_init;
};

/* A call the filter looks at, and where it goes. */
struct rule { unsigned int nr; int to; };

/* The calls refused by number, sorted by number; clone and unshare go to FLAGS, socketpair to PAIR, fcntl to
 * FCNTL, socketcall to SOCKETCALL. */
static int refused_calls(long long fresh, const struct numbers *nr, struct rule *out) {
    int n = 0;
#define RULE(bit, call, label) \
    if ((fresh & (bit)) && nr->call) out[n++] = (struct rule){nr->call, label}
    RULE(FRESH_SECCOMP, add_key, DENY); RULE(FRESH_SECCOMP, request_key, DENY); RULE(FRESH_SECCOMP, keyctl, DENY);
    RULE(FRESH_NOUSERNS, clone3, NOSYS); RULE(FRESH_NOUSERNS, clone, FLAGS); RULE(FRESH_NOUSERNS, unshare, FLAGS);
    /* socket() of any family: a local one could connect to any socket file the run can see, or to an abstract
     * name of whatever shares its network namespace; a socket pair reaches only itself */
    RULE(FRESH_LOCAL_SOCKETS, socket, ACCES); RULE(FRESH_LOCAL_SOCKETS, socketpair, PAIR);
    RULE(FRESH_LOCAL_SOCKETS, socketcall, SOCKETCALL);
    RULE(FRESH_LOCAL_SOCKETS, io_uring_setup, NOSYS);  /* io_uring makes sockets without a socket call the filter could see */
    /* every run can open the same system files (its own program too): a lock taken on one, or a watch on the
     * reads of another run, would carry bits between runs; a lock of a run's own is granted and holds nothing */
    RULE(FRESH_QUIET_FILES, flock, ZERO); RULE(FRESH_QUIET_FILES, fcntl, FCNTL); RULE(FRESH_QUIET_FILES, fcntl64, FCNTL);
    RULE(FRESH_QUIET_FILES, inotify_init, NOSYS); RULE(FRESH_QUIET_FILES, inotify_init1, NOSYS);
    RULE(FRESH_QUIET_FILES, fanotify_init, NOSYS);
#undef RULE
    for (int i = 1; i < n; i++)  /* insertion sort: a dozen rules */
        for (int j = i; j > 0 && out[j - 1].nr > out[j].nr; j--) {
            struct rule t = out[j];
            out[j] = out[j - 1], out[j - 1] = t;
        }
    return n;
}

/* A binary search over the sorted rules, everything else allowed. Why not a chain of comparisons: as the filter is
 * installed, the kernel runs it on every call number of both architectures (some 900) to find the calls it always
 * allows, which then skip it, and that costs in proportion to the path to ALLOW. With the chain of 16 comparisons the
 * filter cost a run about 80 us of CPU time; with this tree (3 or 4 comparisons to ALLOW) about 65 us, most of it
 * what any filter costs to install (docs/benchmarks.md). */
static void search(struct filter *f, const struct rule *rules, int n) {
    if (n <= 2) {  /* the last comparison of a leaf sends everything else to ALLOW */
        if (n == 0) emit(f, BPF_JMP | BPF_JEQ | BPF_K, 0, ALLOW, ALLOW);
        for (int i = 0; i < n; i++) emit(f, BPF_JMP | BPF_JEQ | BPF_K, rules[i].nr, rules[i].to, i == n - 1 ? ALLOW : NEXT);
        return;
    }
    int mid = n / 2, high = new_label(f);
    emit(f, BPF_JMP | BPF_JGE | BPF_K, rules[mid].nr, high, NEXT);
    search(f, rules, mid);
    place(f, high);
    search(f, rules + mid, n - mid);
}

static void refused(struct filter *f, long long fresh, const struct numbers *nr) {
    struct rule rules[24];
    search(f, rules, refused_calls(fresh, nr, rules));
}

/* fcntl's commands that share state through a file: taking a lock succeeds and does nothing, asking who holds one
 * fails (ENOLCK: no lock is ever held), leases and dnotify are refused as on a kernel built without them. The
 * 64-bit-offset lock commands (12-14) exist on i386 only; elsewhere the kernel refuses them anyway. */
static void fcntl_commands(struct filter *f) {
    place(f, FCNTL);
    load(f, offsetof(struct seccomp_data, args[1]));
    static const unsigned int take[] = {6, 7, 13, 14, 37, 38};  /* F_SETLK(W), F_SETLK(W)64, F_OFD_SETLK(W) */
    static const unsigned int ask[] = {5, 12, 36};              /* F_GETLK, F_GETLK64, F_OFD_GETLK */
    static const unsigned int other[] = {1024, 1025, 1026};     /* F_SETLEASE, F_GETLEASE, F_NOTIFY */
    for (size_t i = 0; i < sizeof take / sizeof take[0]; i++) jump_if(f, take[i], ZERO);
    for (size_t i = 0; i < sizeof ask / sizeof ask[0]; i++) jump_if(f, ask[i], NOLCK);
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) jump_if(f, other[i], INVAL);
    emit(f, BPF_JMP | BPF_JEQ | BPF_K, 0, ALLOW, ALLOW);
}

/* Returns what seccomp() returned: -1 with errno set when the kernel refused the filter. */
static int install_filter(long long fresh) {
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
    const unsigned int arch = AUDIT_ARCH_X86_64;
    const unsigned int inotify_init = __NR_inotify_init;
#else
    const unsigned int arch = AUDIT_ARCH_AARCH64;
    const unsigned int inotify_init = 0;  /* inotify_init1 only */
#endif
    const struct numbers native = {__NR_add_key, __NR_request_key, __NR_keyctl, 435, __NR_clone, __NR_unshare,
                                   __NR_socket, __NR_socketpair, 0, 425, __NR_flock, __NR_fcntl, 0, inotify_init,
                                   __NR_inotify_init1, __NR_fanotify_init};
    struct filter f;
    memset(&f, 0, sizeof f);
    f.labels = LABELS;
    load(&f, offsetof(struct seccomp_data, arch));
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, arch, NEXT, COMPAT);
    load(&f, offsetof(struct seccomp_data, nr));
    emit(&f, BPF_ALU | BPF_AND | BPF_K, ~0x40000000u, NEXT, NEXT);  /* x32 calls carry this bit */
    refused(&f, fresh, &native);
    place(&f, COMPAT);
#if defined(__x86_64__)
    /* a 64-bit program may still make 32-bit calls (int 0x80), numbered as on i386 */
    static const struct numbers i386 = {286, 287, 288, 435, 120, 310, 359, 360, 102, 425, 143, 55, 221, 291, 332, 338};
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, NEXT, ALLOW);
    load(&f, offsetof(struct seccomp_data, nr));
    refused(&f, fresh, &i386);
#else
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, 0, ALLOW, ALLOW);
#endif
    place(&f, FLAGS);  /* clone's and unshare's first argument holds the namespace flags on every architecture here */
    load(&f, offsetof(struct seccomp_data, args[0]));
    emit(&f, BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, DENY, ALLOW);
    place(&f, PAIR);  /* a stream or packet socket pair is connected for good; a datagram one could send anywhere */
    load(&f, offsetof(struct seccomp_data, args[1]));
    emit(&f, BPF_ALU | BPF_AND | BPF_K, 0xf /* the type, without SOCK_NONBLOCK and SOCK_CLOEXEC */, NEXT, NEXT);
    jump_if(&f, SOCK_STREAM, ALLOW);
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, SOCK_SEQPACKET, ALLOW, ACCES);
    place(&f, SOCKETCALL);  /* i386's multiplexer: its arguments are in memory a filter cannot read, so no new sockets */
    load(&f, offsetof(struct seccomp_data, args[0]));
    jump_if(&f, 1 /* SYS_SOCKET */, ACCES);
    emit(&f, BPF_JMP | BPF_JEQ | BPF_K, 8 /* SYS_SOCKETPAIR */, ACCES, ALLOW);
    fcntl_commands(&f);
    place(&f, ALLOW);
    ret(&f, SECCOMP_RET_ALLOW);
    place(&f, DENY);
    ret(&f, SECCOMP_RET_ERRNO | EPERM);
    place(&f, NOSYS);
    ret(&f, SECCOMP_RET_ERRNO | ENOSYS);
    place(&f, ACCES);
    ret(&f, SECCOMP_RET_ERRNO | EACCES);
    place(&f, ZERO);  /* the call is skipped and reports success */
    ret(&f, SECCOMP_RET_ERRNO | 0);
    place(&f, NOLCK);
    ret(&f, SECCOMP_RET_ERRNO | ENOLCK);
    place(&f, INVAL);
    ret(&f, SECCOMP_RET_ERRNO | EINVAL);
    resolve(&f);
    struct sock_fprog prog = {(unsigned short)f.n, f.code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return -1;
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
#else
    (void)fresh;
    return 0;
#endif
}

/* landlock_create_ruleset's attributes as of Landlock ABI 6, which older headers lack */
struct scoped_ruleset { unsigned long long handled_access_fs, handled_access_net, scoped; };
#define SCOPE_ABSTRACT_UNIX_SOCKET 1ULL
#define SCOPE_SIGNAL 2ULL
#define NR_LANDLOCK_CREATE_RULESET 444
#define NR_LANDLOCK_RESTRICT_SELF 446

static void scope_the_run(void) {
    struct scoped_ruleset attr = {0, 0, SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET};
    int fd = (int)syscall(NR_LANDLOCK_CREATE_RULESET, &attr, sizeof attr, 0);
    if (fd < 0) return;  /* no Landlock here, or one before scopes (ABI 6): ENOSYS, EOPNOTSUPP, E2BIG, EINVAL */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || syscall(NR_LANDLOCK_RESTRICT_SELF, fd, 0) < 0) child_fail("landlock");
    close(fd);
}

long long launcher_filter;

/* launcher --filter BITS: the filter installed once, in the launcher itself, for a launcher whose every run gets it
 * (an untrusted launcher: one set of FRESH bits for its life). A run inherits it through fork as it would have
 * installed it, and pays nothing: installing a filter costs about 65 us of CPU time (the kernel checks, JIT-compiles
 * and runs the program over every call number), on every run's path between fork and exec. The launcher and its
 * holders work under it as well: none of them makes a user namespace, a socket, a file lock or a watch. Not for a
 * launcher that must clone3 (CLONE_INTO_CGROUP on cgroup v2), which the filter makes fail with ENOSYS: it would
 * join each run's group the slow way. A request with other filter bits is refused (launcher.c). */
int filter_launcher(long long bits) {
    if (!(bits & FILTER_BITS) || (bits & ~FILTER_BITS)) {
        errno = EINVAL;
        return -1;
    }
    if (install_filter(bits) < 0) return -1;
    launcher_filter = bits;
    return 0;
}

void confine_before_exec(const struct request *r) {
    if (r->fresh & FRESH_SCOPED) scope_the_run();
    long long bits = r->fresh & FILTER_BITS;
    if (bits && bits != launcher_filter && install_filter(bits) < 0) child_fail("seccomp");
}
