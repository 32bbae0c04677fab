// WRONG: on even widths the blank's row is counted from the top instead of
// from the bottom row, which flips the answer on every even board.
#include <cstdio>
#include <vector>

namespace {

// Decide one board of side n with a 64-bit Fenwick inversion count.
bool solvable(int n) {
    const int size = n * n;
    std::vector<int> tree(size + 1, 0);
    long long inversions = 0;
    int tiles_before = 0;
    int blank_row = 0;
    for (int i = 0; i < size; ++i) {
        int value = 0;
        if (scanf("%d", &value) != 1) return false;
        if (value == 0) {
            blank_row = i / n;
            continue;
        }
        int smaller = 0;
        for (int k = value; k > 0; k -= k & -k) smaller += tree[k];
        for (int k = value; k <= size; k += k & -k) ++tree[k];
        inversions += tiles_before - smaller;
        ++tiles_before;
    }
    if (n % 2 == 1) return inversions % 2 == 0;
    return (inversions + blank_row) % 2 == 0;
}

}  // namespace

int main() {
    int n = 0;
    while (scanf("%d", &n) == 1 && n != 0) puts(solvable(n) ? "YES" : "NO");
    return 0;
}
