// TOO SLOW: correct, but counts the inversions of each board by comparing
// every pair of tiles, O(L^2): about 5 * 10^11 comparisons per board of
// 10^6 cells, and already 5 * 10^9 on the boards of 10^5 cells.
#include <cstdio>
#include <vector>

namespace {

long long key(int cols, const std::vector<int>& board) {
    const int size = static_cast<int>(board.size());
    long long inversions = 0;
    int blank = 0;
    for (int i = 0; i < size; ++i) {
        if (board[i] == 0) {
            blank = i;
            continue;
        }
        for (int j = i + 1; j < size; ++j) {
            if (board[j] != 0 && board[j] < board[i]) {
                ++inversions;
            }
        }
    }
    return inversions + static_cast<long long>(blank / cols) * (cols - 1);
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
            yes = key(cols, start) % 2 == key(cols, target) % 2;
        }
        std::puts(yes ? "YES" : "NO");
    }
    return 0;
}
