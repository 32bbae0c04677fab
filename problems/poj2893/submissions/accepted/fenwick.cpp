// Accepted: counts the tile inversions exactly with a Fenwick tree and a
// 64-bit accumulator, then applies the textbook rule
//   odd width:  inv even;  even width: inv + (rows below the blank) even.
#include <cstdio>
#include <vector>

namespace {

int readInt() {
    int c = std::getchar();
    while (c != EOF && (c < '0' || c > '9')) {
        c = std::getchar();
    }
    int value = 0;
    while (c >= '0' && c <= '9') {
        value = value * 10 + (c - '0');
        c = std::getchar();
    }
    return value;
}

// Number of pairs i < j with tiles[i] > tiles[j]; tiles are 1..n.
long long countInversions(const std::vector<int>& tiles) {
    const int n = static_cast<int>(tiles.size());
    std::vector<int> tree(n + 1, 0);
    long long inversions = 0;
    for (int i = 0; i < n; ++i) {
        int notGreater = 0;
        for (int k = tiles[i]; k > 0; k -= k & -k) {
            notGreater += tree[k];
        }
        inversions += i - notGreater;
        for (int k = tiles[i]; k <= n; k += k & -k) {
            ++tree[k];
        }
    }
    return inversions;
}

bool solvable(int rows, int cols, const std::vector<int>& cells) {
    std::vector<int> tiles;
    tiles.reserve(cells.size());
    int blankRow = 0;
    for (std::size_t cell = 0; cell < cells.size(); ++cell) {
        if (cells[cell] == 0) {
            blankRow = static_cast<int>(cell) / cols;
        } else {
            tiles.push_back(cells[cell]);
        }
    }
    const long long inversions = countInversions(tiles);
    if (cols % 2 == 1) {
        return inversions % 2 == 0;
    }
    return (inversions + (rows - 1 - blankRow)) % 2 == 0;
}

}  // namespace

int main() {
    std::vector<int> cells;
    for (;;) {
        const int rows = readInt();
        const int cols = readInt();
        if (rows == 0 && cols == 0) {
            break;
        }
        cells.assign(static_cast<std::size_t>(rows) * cols, 0);
        for (int& value : cells) {
            value = readInt();
        }
        std::puts(solvable(rows, cols, cells) ? "YES" : "NO");
    }
    return 0;
}
