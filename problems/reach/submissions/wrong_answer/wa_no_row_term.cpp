// WRONG: ignores the blank's row and compares only the parities of the tile
// inversions, the rule for boards of odd width. With an even width a
// vertical move changes the inversion parity (the tile jumps over N - 1
// others), so the answer is inverted whenever the blanks' rows differ by an
// odd number.
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
            yes = inversionParity(start) == inversionParity(target);
        }
        std::puts(yes ? "YES" : "NO");
    }
    return 0;
}
