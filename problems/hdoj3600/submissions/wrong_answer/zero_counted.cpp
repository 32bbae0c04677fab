// WRONG: the blank (0) is counted in the inversions as the smallest value,
// adding one inversion for every cell in front of it.
#include <cstdio>
#include <vector>

namespace {

// Decide one board of side n; values are shifted by one so 0 fits the tree.
bool solvable(int n) {
    const int size = n * n;
    std::vector<int> tree(size + 1, 0);
    long long inversions = 0;
    int blank_row = 0;
    for (int i = 0; i < size; ++i) {
        int value = 0;
        if (scanf("%d", &value) != 1) return false;
        if (value == 0) blank_row = i / n;
        int not_greater = 0;
        for (int k = value + 1; k > 0; k -= k & -k) not_greater += tree[k];
        for (int k = value + 1; k <= size; k += k & -k) ++tree[k];
        inversions += i - not_greater;
    }
    if (n % 2 == 1) return inversions % 2 == 0;
    return (inversions + (n - 1 - blank_row)) % 2 == 0;
}

}  // namespace

int main() {
    int n = 0;
    while (scanf("%d", &n) == 1 && n != 0) puts(solvable(n) ? "YES" : "NO");
    return 0;
}
