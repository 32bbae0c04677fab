// WRONG: mixes the two conventions for the blank's row. The start board uses
// r * (N - 1) with r counted from the top (I(s)), the target board
// (M - 1 - r) * (N - 1), counted from the bottom (the usual "solvable"
// test against the goal). The two differ by (M - 1) * (N - 1), which is odd
// exactly when M and N are both even: then every answer is inverted.
#include <cstdio>
#include <vector>

namespace {

// Parity of the inversions among the tiles, from the cycles of tile v -> slot v-1.
int inversionParity(const std::vector<int>& board) {
    std::vector<int> tiles;
    for (int value : board) {
        if (value != 0) {
            tiles.push_back(value);
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
    return (count - cycles) & 1;
}

int blankRow(int cols, const std::vector<int>& board) {
    int cell = 0;
    while (board[cell] != 0) {
        ++cell;
    }
    return cell / cols;
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
            const int fromTop = (inversionParity(start) + blankRow(cols, start) * (cols - 1)) & 1;
            const int fromBottom =
                (inversionParity(target) + (rows - 1 - blankRow(cols, target)) * (cols - 1)) & 1;
            yes = fromTop == fromBottom;
        }
        std::puts(yes ? "YES" : "NO");
    }
    return 0;
}
