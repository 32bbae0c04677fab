#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* Touches N MiB, then prints the kernel's own record of its peak (VmHWM, kB): the truth to compare against. */
int main(int argc, char **argv) {
    size_t n = (size_t)atol(argv[1]) << 20;
    char *p = malloc(n ? n : 1);
    memset(p, 1, n);
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) printf("%ld\n", atol(line + 6));
    return p[n / 2] == 7;
}
