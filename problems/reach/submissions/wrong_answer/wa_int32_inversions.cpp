// WRONG: counts I(s) = inversions + (blank row) * (N - 1) with a Fenwick tree
// in a 32-bit int. The sum wraps modulo 2^32, which keeps its parity, but an
// odd key that wraps to a negative value gives key % 2 == -1, so the test
// `== 1` reads it as even. A board of 10^5 cells has about 2.5 * 10^9
// inversions, right in the range that wraps negative.
#include <cstdio>
#include <vector>

namespace {

int key(int cols, const std::vector<int>& board) {
    const int size = static_cast<int>(board.size());
    std::vector<int> tree(size + 1, 0);
    int inversions = 0;
    int placed = 0;
    int blank = 0;
    for (int cell = 0; cell < size; ++cell) {
        const int value = board[cell];
        if (value == 0) {
            blank = cell;
            continue;
        }
        int notGreater = 0;
        for (int k = value; k > 0; k -= k & -k) {
            notGreater += tree[k];
        }
        inversions += placed - notGreater;
        ++placed;
        for (int k = value; k <= size; k += k & -k) {
            ++tree[k];
        }
    }
    return inversions + (blank / cols) * (cols - 1);
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
            const bool startOdd = key(cols, start) % 2 == 1;
            const bool targetOdd = key(cols, target) % 2 == 1;
            yes = startOdd == targetOdd;
        }
        std::puts(yes ? "YES" : "NO");
    }
    return 0;
}
