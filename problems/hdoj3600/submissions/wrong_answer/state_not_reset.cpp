// WRONG: the "seen" marks of the cycle count live in a global array that is
// never cleared, so after a large board the next boards find no new cycles.
#include <cstdio>

namespace {

int target[300 * 300];
bool seen[300 * 300];

// Decide one board of side n (permutation cycles, taxicab distance rule).
bool solvable(int n) {
    const int size = n * n;
    int blank = 0;
    for (int i = 0; i < size; ++i) {
        int value = 0;
        if (scanf("%d", &value) != 1) return false;
        if (value == 0) blank = i;
        target[i] = value == 0 ? size - 1 : value - 1;
    }
    int cycles = 0;
    for (int start = 0; start < size; ++start) {
        if (seen[start]) continue;
        ++cycles;
        for (int j = start; !seen[j]; j = target[j]) seen[j] = true;
    }
    const int distance = (n - 1 - blank / n) + (n - 1 - blank % n);
    return ((size - cycles) & 1) == (distance & 1);
}

}  // namespace

int main() {
    int n = 0;
    while (scanf("%d", &n) == 1 && n != 0) puts(solvable(n) ? "YES" : "NO");
    return 0;
}
