/* Accepted (C): merge sort counts the tile inversions in a 64-bit integer.
   The blank's coordinates enter only for even M, as dy + dz. */
#include <stdio.h>
#include <stdlib.h>

static long long sort_count(int *a, int *tmp, int n) {
    long long count = 0;
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (a[i] <= a[j]) tmp[k++] = a[i++];
                else { count += mid - i; tmp[k++] = a[j++]; }
            }
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        for (int i = 0; i < n; ++i) a[i] = tmp[i];
    }
    return count;
}

int main(void) {
    int cases;
    if (scanf("%d", &cases) != 1) return 0;
    while (cases--) {
        int m;
        if (scanf("%d", &m) != 1) return 0;
        int size = m * m * m, n = 0, blank = 0;
        int *tiles = malloc(sizeof(int) * size), *tmp = malloc(sizeof(int) * size);
        for (int i = 0; i < size; ++i) {
            int v;
            if (scanf("%d", &v) != 1) return 0;
            if (v == 0) blank = i;
            else tiles[n++] = v;
        }
        long long parity = sort_count(tiles, tmp, n);
        if (m % 2 == 0) {
            int y = (blank / m) % m, z = blank / (m * m);
            parity += (m - 1 - y) + (m - 1 - z);
        }
        puts(parity % 2 == 0 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
        free(tiles);
        free(tmp);
    }
    return 0;
}
