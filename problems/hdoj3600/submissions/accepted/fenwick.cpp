// Independent accepted solution: count inversions among the tiles (the blank
// excluded) with a Fenwick tree in 64-bit, then apply the classic rule:
// odd width -> solvable iff inversions even; even width -> solvable iff
// inversions + (rows of the blank above the bottom row) is even.
#include <cstdio>
#include <vector>

namespace {

// Fenwick tree over tile values 1..size-1, counting tiles already seen.
class Fenwick {
public:
    explicit Fenwick(int size) : tree_(size + 1, 0) {}
    void add(int index) {
        for (; index < static_cast<int>(tree_.size()); index += index & -index) ++tree_[index];
    }
    int prefix(int index) const {
        int total = 0;
        for (; index > 0; index -= index & -index) total += tree_[index];
        return total;
    }

private:
    std::vector<int> tree_;
};

// Decide one board of side n read from stdin.
bool solvable(int n) {
    const int size = n * n;
    Fenwick seen(size);
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
        inversions += tiles_before - seen.prefix(value);
        seen.add(value);
        ++tiles_before;
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
