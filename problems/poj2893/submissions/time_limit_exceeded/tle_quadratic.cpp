// TIME LIMIT EXCEEDED: correct, but counts the tile inversions by comparing
// every pair, O((M*N)^2): about 5*10^11 comparisons on a 999x999 board.
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
        long long inv = 0;
        const int n = static_cast<int>(tiles.size());
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j < n; ++j) {
                inv += tiles[i] > tiles[j];
            }
        }
        const bool ok = cols % 2 == 1 ? inv % 2 == 0 : (inv + (rows - 1 - blankRow)) % 2 == 0;
        std::puts(ok ? "YES" : "NO");
    }
    return 0;
}
