// WRONG: reads the header as "columns rows". The cells are still read in
// order, but the width used for the blank row and for the width parity is
// M instead of N, which only matters on non-square boards.
#include <cstdio>
#include <vector>

int main() {
    int rows;
    int cols;
    while (std::scanf("%d %d", &cols, &rows) == 2 && (rows != 0 || cols != 0)) {
        const int size = rows * cols;
        std::vector<int> tiles;
        int blankRow = 0;
        for (int cell = 0; cell < size; ++cell) {
            int value;
            std::scanf("%d", &value);
            if (value == 0) {
                blankRow = cell / cols;
            } else {
                tiles.push_back(value);
            }
        }
        const int n = size - 1;
        std::vector<int> tree(n + 1, 0);
        long long inv = 0;
        for (int i = 0; i < n; ++i) {
            int notGreater = 0;
            for (int k = tiles[i]; k > 0; k -= k & -k) {
                notGreater += tree[k];
            }
            inv += i - notGreater;
            for (int k = tiles[i]; k <= n; k += k & -k) {
                ++tree[k];
            }
        }
        const bool ok = cols % 2 == 1 ? inv % 2 == 0 : (inv + (rows - 1 - blankRow)) % 2 == 0;
        std::puts(ok ? "YES" : "NO");
    }
    return 0;
}
