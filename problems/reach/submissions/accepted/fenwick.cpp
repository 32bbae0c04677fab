// Accepted alternative: counts I(s) = inversions among the tiles +
// (blank row) * (N - 1) exactly, with a Fenwick tree and 64-bit sums, for
// both boards, and compares the parities. It checks the parity-class
// formulation of the rule against the cycle-based references.
#include <cstdio>
#include <vector>

namespace {

// Inversions among the tiles (blank skipped), in O(L log L), 64-bit.
long long tileInversions(const std::vector<int>& board) {
    const int size = static_cast<int>(board.size());
    std::vector<int> tree(size + 1, 0);
    long long inversions = 0;
    int placed = 0;
    for (int value : board) {
        if (value == 0) {
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
    return inversions;
}

long long key(int cols, const std::vector<int>& board) {
    int blank = 0;
    while (board[blank] != 0) {
        ++blank;
    }
    return tileInversions(board) + static_cast<long long>(blank / cols) * (cols - 1);
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
