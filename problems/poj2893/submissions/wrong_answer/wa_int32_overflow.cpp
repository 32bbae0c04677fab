// WRONG: the Fenwick inversion count is accumulated in a 32-bit int. The sum
// wraps modulo 2^32, which keeps the parity, but an odd count that wraps to
// a negative value gives inv % 2 == -1, so the test `== 1` reads it as even.
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
        int inv = 0;
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
        bool odd = inv % 2 == 1;
        if (cols % 2 == 0 && (rows - 1 - blankRow) % 2 == 1) {
            odd = !odd;
        }
        std::puts(odd ? "NO" : "YES");
    }
    return 0;
}
