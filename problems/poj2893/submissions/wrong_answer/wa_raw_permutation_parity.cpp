// WRONG: uses "permutation parity + blank's Manhattan distance to the
// bottom-right corner is even", but takes the raw board (value v in cell v)
// as the permutation, without sending the blank to the last goal cell. Its
// parity is inv + blank instead of inv + (L-1-blank), so the answer is wrong
// exactly when L = M*N is even.
#include <cstdio>
#include <vector>

int main() {
    int rows;
    int cols;
    while (std::scanf("%d %d", &rows, &cols) == 2 && (rows != 0 || cols != 0)) {
        const int size = rows * cols;
        std::vector<int> cells(size);
        int blank = 0;
        for (int cell = 0; cell < size; ++cell) {
            std::scanf("%d", &cells[cell]);
            if (cells[cell] == 0) {
                blank = cell;
            }
        }
        std::vector<char> seen(size, 0);
        int cycles = 0;
        for (int start = 0; start < size; ++start) {
            if (!seen[start]) {
                ++cycles;
                for (int cell = start; !seen[cell]; cell = cells[cell]) {
                    seen[cell] = 1;
                }
            }
        }
        const int manhattan = (rows - 1 - blank / cols) + (cols - 1 - blank % cols);
        std::puts(((size - cycles) + manhattan) % 2 == 0 ? "YES" : "NO");
    }
    return 0;
}
