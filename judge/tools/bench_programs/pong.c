/* The interactor side of the interactive benchmark (Kattis protocol): sends N, doubles every number, checks the sum. */
#include <signal.h>
#include <stdio.h>
int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int n;
    FILE *in = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!in || fscanf(in, "%d", &n) != 1) return 1;
    printf("%d\n", n);
    fflush(stdout);
    long long want = 0;
    for (int i = 0; i < n; i++) {
        int x;
        if (scanf("%d", &x) != 1) return 43;
        printf("%d\n", 2 * x);
        fflush(stdout);
        want += 2LL * x;
    }
    long long got;
    return scanf("%lld", &got) == 1 && got == want ? 42 : 43;
}
