// WRONG: the rule as a published paper states it: the target is reachable
// iff I(start) and I(target) are both even. Two boards of the odd class reach
// each other too (2 1 3 / 4 5 6 / 7 8 0 reaches 2 1 3 / 4 5 0 / 7 8 6), so
// every odd-odd pair gets NO. Lines are handled correctly.
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

std::vector<int> tiles(const std::vector<int>& board) {
    std::vector<int> result;
    for (int value : board) {
        if (value != 0) {
            result.push_back(value);
        }
    }
    return result;
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
        bool yes;
        if (rows == 1 || cols == 1) {
            yes = tiles(start) == tiles(target);
        } else {
            yes = classParity(cols, start) == 0 && classParity(cols, target) == 0;
        }
        std::puts(yes ? "YES" : "NO");
    }
    return 0;
}
