/* The submission side of the interactive benchmark: N round trips of one number each way, then their sum. */
#include <stdio.h>
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        printf("%d\n", i);
        fflush(stdout);
        int reply;
        if (scanf("%d", &reply) != 1) return 2;
        sum += reply;
    }
    printf("%lld\n", sum);
    fflush(stdout);
    return 0;
}
