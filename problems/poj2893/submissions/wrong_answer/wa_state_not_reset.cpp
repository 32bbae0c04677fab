// WRONG: the "visited" array of the cycle count is a global that is never
// cleared, so every case after the first sees cells already visited by the
// earlier (possibly huge) boards and miscounts the cycles.
#include <cstdio>
#include <vector>

static bool seen[1000000];

int main() {
    int rows;
    int cols;
    std::vector<int> cells;
    std::vector<int> target;
    while (std::scanf("%d %d", &rows, &cols) == 2 && (rows != 0 || cols != 0)) {
        const int size = rows * cols;
        cells.resize(size);
        target.resize(size);
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
        int cycles = 0;
        for (int start = 0; start < size; ++start) {
            if (!seen[start]) {
                ++cycles;
                for (int cell = start; !seen[cell]; cell = target[cell]) {
                    seen[cell] = true;
                }
            }
        }
        int parity = (size - cycles + size - 1 - blank) & 1;
        if (cols % 2 == 0) {
            parity ^= (rows - 1 - blank / cols) & 1;
        }
        std::puts(parity == 0 ? "YES" : "NO");
    }
    return 0;
}
