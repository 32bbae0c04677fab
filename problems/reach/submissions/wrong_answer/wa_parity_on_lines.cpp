// WRONG: applies the two-dimensional parity rule to single rows and columns
// too. A line cannot reorder its tiles at all, so a target whose tiles differ
// by an even permutation (a 3-cycle, two swaps) has the same parity class and
// gets YES, although it is unreachable.
#include <cstdio>
#include <vector>

namespace {

// I(s) mod 2 from the cycles of tile v -> slot v-1 (blank skipped).
int classParity(int cols, const std::vector<int>& board) {
    std::vector<int> tiles;
    int blank = 0;
    for (int cell = 0; cell < static_cast<int>(board.size()); ++cell) {
        if (board[cell] == 0) {
            blank = cell;
        } else {
            tiles.push_back(board[cell]);
        }
    }
    const int count = static_cast<int>(tiles.size());
    std::vector<char> seen(count, 0);
    int cycles = 0;
    for (int first = 0; first < count; ++first) {
        if (seen[first]) {
            continue;
        }
        ++cycles;
        for (int slot = first; !seen[slot]; slot = tiles[slot] - 1) {
            seen[slot] = 1;
        }
    }
    return (count - cycles + (blank / cols) * (cols - 1)) & 1;
}

std::vector<int> readBoard(int size) {
    std::vector<int> board(size);
    for (int& value : board) {
        if (std::scanf("%d", &value) != 1) {
            value = 0;
        }
    }
    return board;
}

}  // namespace

int main() {
    int rows;
    int cols;
    while (std::scanf("%d %d", &rows, &cols) == 2 && (rows != 0 || cols != 0)) {
        const std::vector<int> start = readBoard(rows * cols);
        const std::vector<int> target = readBoard(rows * cols);
        const bool yes = classParity(cols, start) == classParity(cols, target);
        std::puts(yes ? "YES" : "NO");
    }
    return 0;
}
