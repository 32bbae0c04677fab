/* Independent accepted solution in C: merge-sort inversion count over the
 * tiles only, kept in a 64-bit counter, and the general sliding-puzzle rule
 * "inversions + (height - 1 - blank row) * (width - 1) is even". */
#include <stdio.h>
#include <stdlib.h>

/* Sort a[lo, hi) using buf and return the number of inversions inside it. */
static long long sort_count(int *a, int *buf, int lo, int hi) {
    if (hi - lo < 2) return 0;
    int mid = lo + (hi - lo) / 2;
    long long count = sort_count(a, buf, lo, mid) + sort_count(a, buf, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (a[i] <= a[j]) {
            buf[k++] = a[i++];
        } else {
            count += mid - i;
            buf[k++] = a[j++];
        }
    }
    while (i < mid) buf[k++] = a[i++];
    while (j < hi) buf[k++] = a[j++];
    for (k = lo; k < hi; ++k) a[k] = buf[k];
    return count;
}

/* Read one board of side n and decide it; tiles and buf hold n*n ints. */
static int solvable(int n, int *tiles, int *buf) {
    int size = n * n, count = 0, blank_row = 0;
    for (int i = 0; i < size; ++i) {
        int value = 0;
        if (scanf("%d", &value) != 1) return 0;
        if (value == 0) blank_row = i / n;
        else tiles[count++] = value;
    }
    long long inversions = sort_count(tiles, buf, 0, count);
    long long distance = (long long)(n - 1 - blank_row) * (n - 1);
    return (inversions + distance) % 2 == 0;
}

int main(void) {
    int *tiles = malloc(sizeof(int) * 300 * 300);
    int *buf = malloc(sizeof(int) * 300 * 300);
    int n = 0;
    if (!tiles || !buf) return 1;
    while (scanf("%d", &n) == 1 && n != 0) puts(solvable(n, tiles, buf) ? "YES" : "NO");
    free(tiles);
    free(buf);
    return 0;
}
