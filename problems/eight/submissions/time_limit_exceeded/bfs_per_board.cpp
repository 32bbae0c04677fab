// TOO SLOW: a fresh breadth-first search from every board (after the parity
// test), with states ranked by their permutation index in a flat array. A
// board 20 or more moves away makes the search visit most of the 181440
// states, 10 to 30 ms apiece, so a file of a thousand boards takes 5 to 30 s,
// while a heuristic search, or one BFS from the goal for the whole file, is fast.
#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using Board = std::array<char, 9>;

const char kLetters[4] = {'u', 'd', 'l', 'r'};
const int kDelta[4] = {-3, 3, -1, 1};
const Board kGoal = {1, 2, 3, 4, 5, 6, 7, 8, 0};
constexpr int kStates = 362880;

int step(int cell, int dir) {
    const int row = cell / 3;
    const int col = cell % 3;
    if ((dir == 0 && row == 0) || (dir == 1 && row == 2) || (dir == 2 && col == 0) || (dir == 3 && col == 2)) {
        return -1;
    }
    return cell + kDelta[dir];
}

// Lehmer code of the board: a distinct number in 0..9!-1 per permutation.
int rank(const Board& board) {
    static const int kFactorial[9] = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
    int result = 0;
    for (int i = 0; i < 9; ++i) {
        int smaller = 0;
        for (int j = i + 1; j < 9; ++j) {
            smaller += board[j] < board[i];
        }
        result += smaller * kFactorial[i];
    }
    return result;
}

bool solvable(const Board& board) {
    int inversions = 0;
    for (int i = 0; i < 9; ++i) {
        for (int j = i + 1; j < 9; ++j) {
            inversions += board[i] && board[j] && board[i] > board[j];
        }
    }
    return inversions % 2 == 0;
}

std::string solve(const Board& start) {
    std::vector<int> parent(kStates, -2);
    std::vector<char> letter(kStates, 0);
    std::vector<Board> queue{start};
    const int goal = rank(kGoal);
    parent[rank(start)] = -1;
    for (std::size_t head = 0; parent[goal] == -2; ++head) {
        const Board board = queue[head];
        const int from = rank(board);
        int blank = 0;
        while (board[blank] != 0) {
            ++blank;
        }
        for (int dir = 0; dir < 4; ++dir) {
            const int target = step(blank, dir);
            if (target < 0) {
                continue;
            }
            Board after = board;
            after[blank] = after[target];
            after[target] = 0;
            const int id = rank(after);
            if (parent[id] == -2) {
                parent[id] = from;
                letter[id] = kLetters[dir];
                queue.push_back(after);
            }
        }
    }
    std::string path;
    for (int id = goal; parent[id] != -1; id = parent[id]) {
        path.insert(path.begin(), letter[id]);
    }
    return path;
}

}  // namespace

int main() {
    char token[4];
    Board board{};
    int filled = 0;
    std::string out;
    while (std::scanf("%3s", token) == 1) {
        board[filled++] = token[0] == 'x' ? 0 : static_cast<char>(token[0] - '0');
        if (filled == 9) {
            out += solvable(board) ? solve(board) : "unsolvable";
            out += '\n';
            filled = 0;
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
