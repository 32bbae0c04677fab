// WRONG ANSWER: "permutation parity must equal the blank's taxicab distance
// parity", but the permutation is taken raw (cell i -> value a[i]) instead of
// sending tile v to cell v-1 and the blank to the last cell.
#include <cstdio>
#include <vector>

int main() {
    int cases;
    if (scanf("%d", &cases) != 1) return 0;
    std::vector<int> cells;
    std::vector<char> seen;
    while (cases--) {
        int m;
        scanf("%d", &m);
        int size = m * m * m, blank = 0;
        cells.assign(size, 0);
        seen.assign(size, 0);
        for (int i = 0; i < size; ++i) {
            scanf("%d", &cells[i]);
            if (cells[i] == 0) blank = i;
        }
        int cycles = 0;
        for (int s = 0; s < size; ++s) {
            if (seen[s]) continue;
            ++cycles;
            for (int j = s; !seen[j]; j = cells[j]) seen[j] = 1;
        }
        int x = blank % m, y = (blank / m) % m, z = blank / (m * m);
        int distance = (m - 1 - x) + (m - 1 - y) + (m - 1 - z);
        puts((size - cycles) % 2 == distance % 2 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
    }
    return 0;
}
