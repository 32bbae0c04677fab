// WRONG: the "seen" marks of the cycle count live in one vector for the whole
// file and are only resized, never cleared: resize() keeps the marks of the
// cells an earlier case already visited. Any case not larger than an earlier
// one finds its cells already seen, counts too few cycles and answers at
// random. Otherwise the solution is the reference's method (permutation
// start -> target against the blanks' Manhattan distance).
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

std::vector<char> seen;

int transportParity(const std::vector<int>& start, const std::vector<int>& target) {
    const int size = static_cast<int>(start.size());
    std::vector<int> where(size);
    for (int cell = 0; cell < size; ++cell) {
        where[target[cell]] = cell;
    }
    seen.resize(size);
    int cycles = 0;
    for (int first = 0; first < size; ++first) {
        if (seen[first]) {
            continue;
        }
        ++cycles;
        for (int cell = first; !seen[cell]; cell = where[start[cell]]) {
            seen[cell] = 1;
        }
    }
    return (size - cycles) & 1;
}

int blankCell(const std::vector<int>& board) {
    int cell = 0;
    while (board[cell] != 0) {
        ++cell;
    }
    return cell;
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
            const int from = blankCell(start);
            const int to = blankCell(target);
            const int distance = std::abs(from / cols - to / cols) + std::abs(from % cols - to % cols);
            yes = transportParity(start, target) == (distance & 1);
        }
        std::puts(yes ? "YES" : "NO");
    }
    return 0;
}
