// WRONG: adds the blank's distance to the bottom row whatever the width,
// although for odd widths a vertical move never changes the inversion parity.
#include <cstdio>
#include <vector>

int main() {
    int rows;
    int cols;
    while (std::scanf("%d %d", &rows, &cols) == 2 && (rows != 0 || cols != 0)) {
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
        std::puts((inv + (rows - 1 - blankRow)) % 2 == 0 ? "YES" : "NO");
    }
    return 0;
}
