// WRONG: the blank (0) takes part in the inversion count as the smallest
// value, so every tile before it adds one inversion too many.
#include <cstdio>
#include <vector>

int main() {
    int rows;
    int cols;
    while (std::scanf("%d %d", &rows, &cols) == 2 && (rows != 0 || cols != 0)) {
        const int size = rows * cols;
        std::vector<int> cells(size);
        int blankRow = 0;
        for (int cell = 0; cell < size; ++cell) {
            std::scanf("%d", &cells[cell]);
            if (cells[cell] == 0) {
                blankRow = cell / cols;
            }
        }
        std::vector<int> tree(size + 1, 0);
        long long inv = 0;
        for (int i = 0; i < size; ++i) {
            const int rank = cells[i] + 1;
            int notGreater = 0;
            for (int k = rank; k > 0; k -= k & -k) {
                notGreater += tree[k];
            }
            inv += i - notGreater;
            for (int k = rank; k <= size; k += k & -k) {
                ++tree[k];
            }
        }
        const bool ok = cols % 2 == 1 ? inv % 2 == 0 : (inv + (rows - 1 - blankRow)) % 2 == 0;
        std::puts(ok ? "YES" : "NO");
    }
    return 0;
}
