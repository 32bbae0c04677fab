// WRONG: decides solvability with the 15-puzzle rule (inversions plus the
// blank's row counted from the bottom must be odd), which only holds for an
// even width. With width 3 the blank's row does not matter, so boards with
// the blank in the middle row are misjudged; a board the rule calls
// solvable but the search never reached is still printed as unsolvable.
#include <cstdio>
#include <algorithm>
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

// The 4x4 rule, applied to a 3x3 board.
bool looksSolvable(const std::string& board) {
    std::string tiles = board;
    tiles.erase(std::remove(tiles.begin(), tiles.end(), 'x'), tiles.end());
    int inversions = 0;
    for (int i = 0; i < 8; ++i) {
        for (int j = i + 1; j < 8; ++j) {
            inversions += tiles[i] > tiles[j];
        }
    }
    const int rowFromBottom = 3 - static_cast<int>(board.find('x')) / 3;
    return (inversions + rowFromBottom) % 2 == 1;
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
        const bool solvable = looksSolvable(board) && next.count(board) != 0;
        if (!solvable) {
            out += "unsolvable";
        }
        while (solvable && board != kGoal) {
            const int dir = next.at(board);
            const int blank = static_cast<int>(board.find('x'));
            std::swap(board[blank], board[step(blank, dir)]);
            out += kLetters[dir];
        }
        out += '\n';
        board.clear();
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
