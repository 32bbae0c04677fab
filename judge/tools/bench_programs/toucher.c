#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
/* toucher MIB [CHILDREN]: touches MIB MiB in this process, or in each of CHILDREN forked children at once, and
 * prints the truth to compare a judge's peak against: "VmHWM_kB charged_kB", where charged is the RssAnon +
 * RssShmem + VmPTE (page tables) of every process of the tree while all of them hold their memory (what a control
 * group charges for a tree, less kernel stacks and the like), and VmHWM is this process's own peak as the kernel
 * records it. */
static long field(const char *name) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long total = 0;
    size_t len = strlen(name);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, name, len)) total += atol(line + len);
    fclose(f);
    return total;
}

static long anon(void) { return field("RssAnon:") + field("RssShmem:") + field("VmPTE:"); }

static void touch(size_t bytes) {
    volatile char *p = malloc(bytes ? bytes : 1);
    for (size_t at = 0; at < bytes; at += 4096) p[at] = 1;
}

int main(int argc, char **argv) {
    size_t bytes = (size_t)atol(argv[1]) << 20;
    int children = argc > 2 ? atoi(argv[2]) : 0;
    if (children == 0) {
        touch(bytes);
        printf("%ld %ld\n", field("VmHWM:"), anon());
        return 0;
    }
    int report[2], go[2];
    if (pipe(report) < 0 || pipe(go) < 0) return 2;
    for (int i = 0; i < children; i++) {
        if (fork() == 0) {
            close(go[1]);
            touch(bytes);
            long mine = anon();
            if (write(report[1], &mine, sizeof mine) != sizeof mine) _exit(3);
            char c;
            if (read(go[0], &c, 1) < 0) _exit(4); /* hold the memory until the parent has every figure */
            _exit(0);
        }
    }
    close(go[0]);
    long total = anon();
    for (int i = 0; i < children; i++) {
        long theirs;
        if (read(report[0], &theirs, sizeof theirs) != sizeof theirs) return 5;
        total += theirs;
    }
    close(go[1]);
    while (wait(NULL) > 0) {}
    printf("%ld %ld\n", field("VmHWM:"), total);
    return 0;
}
