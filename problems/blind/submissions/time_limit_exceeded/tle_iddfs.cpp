// Time limit: a shortest solution by iterative deepening without any estimate
// of the distance left (only the move straight back is skipped): right, but
// it explores about 2^d move sequences for a board d moves from the goal.
// Whether a board can be solved comes from the parity rule.
#include <cstdio>
#include <vector>

namespace {

const int DR[4] = {-1, 1, 0, 0};
const int DC[4] = {0, 0, -1, 1};
const char NAME[4] = {'U', 'D', 'L', 'R'};
const int BACK[4] = {1, 0, 3, 2};

int rows, cols;
std::vector<int> board;
std::vector<int> path;

bool solved() {
    int size = rows * cols;
    for (int i = 0; i < size - 1; ++i)
        if (board[i] != i + 1) return false;
    return true;
}

bool search(int blank, int depth, int last) {
    if (depth == 0) return solved();
    int r = blank / cols, c = blank % cols;
    for (int k = 0; k < 4; ++k) {
        if (last >= 0 && k == BACK[last]) continue;
        int nr = r + DR[k], nc = c + DC[k];
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
        int other = nr * cols + nc;
        board[blank] = board[other];
        board[other] = 0;
        path.push_back(k);
        if (search(other, depth - 1, k)) return true;
        path.pop_back();
        board[other] = board[blank];
        board[blank] = 0;
    }
    return false;
}

bool solvable() {
    int inversions = 0, blank_row = 0;
    for (size_t i = 0; i < board.size(); ++i) {
        if (board[i] == 0) {
            blank_row = static_cast<int>(i) / cols;
            continue;
        }
        for (size_t j = i + 1; j < board.size(); ++j) inversions += board[j] != 0 && board[j] < board[i];
    }
    if (cols % 2 == 1) return inversions % 2 == 0;
    return (inversions + rows - 1 - blank_row) % 2 == 0;
}

}  // namespace

int main() {
    int rounds;
    if (scanf("%d", &rounds) != 1) return 0;
    for (int round = 0; round < rounds; ++round) {
        if (scanf("%d %d", &rows, &cols) != 2) return 0;
        int size = rows * cols, missing = size * (size - 1) / 2;
        board.assign(size, 0);
        for (int i = 0; i < size - 1; ++i) {
            printf("? %d %d\n", i / cols + 1, i % cols + 1);
            fflush(stdout);
            if (scanf("%d", &board[i]) != 1) return 0;
            missing -= board[i];
        }
        board[size - 1] = missing;
        if (!solvable()) {
            printf("! impossible\n");
            fflush(stdout);
            continue;
        }
        int blank = 0;
        while (board[blank] != 0) ++blank;
        path.clear();
        for (int depth = 0; !search(blank, depth, -1); ++depth) {
        }
        for (int k : path) printf("%c\n", NAME[k]);
        printf("! done\n");
        fflush(stdout);
    }
    return 0;
}
