// WRONG: for even widths the blank row is counted from the top (r) instead
// of from the bottom (M-1-r). Same parity when M is odd, so only boards with
// both sides even expose it.
#include <cstdio>
#include <vector>

int main() {
    int rows;
    int cols;
    while (std::scanf("%d %d", &rows, &cols) == 2 && (rows != 0 || cols != 0)) {
        const int size = rows * cols;
        std::vector<int> target(size);
        std::vector<int> cells(size);
        int blank = 0;
        for (int cell = 0; cell < size; ++cell) {
            std::scanf("%d", &cells[cell]);
            if (cells[cell] == 0) {
                blank = cell;
                target[cell] = size - 1;
            } else {
                target[cell] = cells[cell] - 1;
            }
        }
        std::vector<char> seen(size, 0);
        int cycles = 0;
        for (int start = 0; start < size; ++start) {
            if (!seen[start]) {
                ++cycles;
                for (int cell = start; !seen[cell]; cell = target[cell]) {
                    seen[cell] = 1;
                }
            }
        }
        int parity = (size - cycles + size - 1 - blank) & 1;
        if (cols % 2 == 0) {
            parity ^= (blank / cols) & 1;
        }
        std::puts(parity == 0 ? "YES" : "NO");
    }
    return 0;
}
