// WRONG: walks towards the goal but leaves the loop as soon as a move
// reaches it, before printing that move: every answer stops one move short.
#include <cstdio>
#include <queue>
#include <string>
#include <unordered_map>

namespace {

const char kLetters[4] = {'u', 'd', 'l', 'r'};
const int kDelta[4] = {-3, 3, -1, 1};
const int kOpposite[4] = {1, 0, 3, 2};
const std::string kGoal = "12345678x";

// The cell the blank reaches from `cell` in direction `dir`, or -1 off the board.
int step(int cell, int dir) {
    const int row = cell / 3;
    const int col = cell % 3;
    if ((dir == 0 && row == 0) || (dir == 1 && row == 2) || (dir == 2 && col == 0) || (dir == 3 && col == 2)) {
        return -1;
    }
    return cell + kDelta[dir];
}

// For every solvable board, the direction of the blank's next move towards the goal.
std::unordered_map<std::string, int> towardsGoal() {
    std::unordered_map<std::string, int> next;
    next.reserve(400000);
    next[kGoal] = -1;
    std::queue<std::string> queue;
    queue.push(kGoal);
    while (!queue.empty()) {
        const std::string board = queue.front();
        queue.pop();
        const int blank = static_cast<int>(board.find('x'));
        for (int dir = 0; dir < 4; ++dir) {
            const int target = step(blank, dir);
            if (target < 0) {
                continue;
            }
            std::string before = board;
            std::swap(before[blank], before[target]);
            if (next.emplace(before, kOpposite[dir]).second) {
                queue.push(before);
            }
        }
    }
    return next;
}

}  // namespace

int main() {
    const std::unordered_map<std::string, int> next = towardsGoal();
    std::string out;
    char token[4];
    std::string board;
    while (std::scanf("%3s", token) == 1) {
        board += token[0];
        if (board.size() < 9) {
            continue;
        }
        if (next.count(board) == 0) {
            out += "unsolvable";
        }
        while (next.count(board) != 0 && board != kGoal) {
            const int dir = next.at(board);
            const int blank = static_cast<int>(board.find('x'));
            std::swap(board[blank], board[step(blank, dir)]);
            if (board == kGoal) {
                break;
            }
            out += kLetters[dir];
        }
        out += '\n';
        board.clear();
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
