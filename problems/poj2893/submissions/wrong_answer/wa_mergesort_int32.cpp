// WRONG: the solution usually published for POJ 2893, written out here, with
// its 32-bit counter (accepted/mergesort_classic.cpp is the same program with
// 64 bits). A 999 x 999 board has up to 5*10^11 inversions: the counter
// wraps, and an odd count that wraps to a negative value gives
// inversions % 2 == -1, which the test `== 1` takes for even. The
// `overflow` group is built for it; some of the largest random boards wrap
// that way too.
#include <cstdio>

static int tiles[1000000];
static int scratch[1000000];
static int inversions;

static void mergeSort(int lo, int hi) {
    if (hi - lo < 2) return;
    int mid = (lo + hi) / 2;
    mergeSort(lo, mid);
    mergeSort(mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (tiles[i] <= tiles[j]) {
            scratch[k++] = tiles[i++];
        } else {
            inversions += mid - i;
            scratch[k++] = tiles[j++];
        }
    }
    while (i < mid) scratch[k++] = tiles[i++];
    while (j < hi) scratch[k++] = tiles[j++];
    for (k = lo; k < hi; k++) tiles[k] = scratch[k];
}

int main() {
    int m, n;
    while (scanf("%d %d", &m, &n) == 2 && (m || n)) {
        int count = 0, blankRow = 0;
        for (int i = 0; i < m * n; i++) {
            int x;
            scanf("%d", &x);
            if (x == 0) blankRow = i / n;
            else tiles[count++] = x;
        }
        inversions = 0;
        mergeSort(0, count);
        if (n % 2 == 0) inversions += m - 1 - blankRow;
        puts(inversions % 2 == 1 ? "NO" : "YES");
    }
    return 0;
}
