// WRONG: answers a 1 x 1 board with a shortcut but forgets to read its only
// cell, so that "0" is then taken for the terminator and every later board
// of the file goes unanswered.
#include <cstdio>
#include <vector>

namespace {

// Decide one board of side n >= 2 with a 64-bit Fenwick inversion count.
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
    return (inversions + (n - 1 - blank_row)) % 2 == 0;
}

}  // namespace

int main() {
    int n = 0;
    while (scanf("%d", &n) == 1 && n != 0) {
        if (n == 1) {
            puts("YES");
            continue;
        }
        puts(solvable(n) ? "YES" : "NO");
    }
    return 0;
}
