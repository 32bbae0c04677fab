// WRONG: IDA* that gives up above 25 moves and then prints "unsolvable",
// on the belief that no board needs more. The hardest boards need 31 moves
// (every depth from 26 to 31 occurs), so those are called unsolvable.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int kCells = 9;
constexpr int kFound = -1;
constexpr int kMaxDepth = 25;
constexpr char kLetters[4] = {'u', 'd', 'l', 'r'};
constexpr int kOpposite[4] = {1, 0, 3, 2};

// Manhattan distance of tile t (1..8) standing on cell c from its goal cell t-1.
int gDistance[kCells][kCells];
// Cell reached by moving the blank from cell c in direction d, or -1 off the board.
int gStep[kCells][4];

void buildTables() {
    for (int tile = 1; tile < kCells; ++tile) {
        for (int cell = 0; cell < kCells; ++cell) {
            gDistance[tile][cell] = std::abs(cell / 3 - (tile - 1) / 3) + std::abs(cell % 3 - (tile - 1) % 3);
        }
    }
    for (int cell = 0; cell < kCells; ++cell) {
        const int row = cell / 3;
        const int col = cell % 3;
        gStep[cell][0] = row > 0 ? cell - 3 : -1;
        gStep[cell][1] = row < 2 ? cell + 3 : -1;
        gStep[cell][2] = col > 0 ? cell - 1 : -1;
        gStep[cell][3] = col < 2 ? cell + 1 : -1;
    }
}

// One IDA* search: the board (0 = blank), the blank's cell and the path so far.
struct Search {
    int board[kCells];
    int blank;
    char path[64];
    int depth;

    // Smallest f above `bound` met below this node, or kFound once solved.
    int dive(int heuristic, int bound, int lastMove) {
        const int f = depth + heuristic;
        if (f > bound) {
            return f;
        }
        if (heuristic == 0) {
            return kFound;
        }
        int next = 1 << 30;
        for (int move = 0; move < 4; ++move) {
            const int target = gStep[blank][move];
            if (target < 0 || (lastMove >= 0 && move == kOpposite[lastMove])) {
                continue;
            }
            const int tile = board[target];
            const int changed = heuristic - gDistance[tile][target] + gDistance[tile][blank];
            board[blank] = tile;
            board[target] = 0;
            const int from = blank;
            blank = target;
            path[depth++] = kLetters[move];
            const int result = dive(changed, bound, move);
            if (result == kFound) {
                return kFound;
            }
            --depth;
            blank = from;
            board[target] = tile;
            board[blank] = 0;
            if (result < next) {
                next = result;
            }
        }
        return next;
    }
};

bool solvable(const int* board) {
    int inversions = 0;
    for (int i = 0; i < kCells; ++i) {
        for (int j = i + 1; j < kCells; ++j) {
            inversions += board[i] && board[j] && board[i] > board[j];
        }
    }
    return inversions % 2 == 0;
}

std::string solve(const int* board) {
    Search search{};
    std::memcpy(search.board, board, sizeof search.board);
    int heuristic = 0;
    for (int cell = 0; cell < kCells; ++cell) {
        if (board[cell] == 0) {
            search.blank = cell;
        } else {
            heuristic += gDistance[board[cell]][cell];
        }
    }
    for (int bound = heuristic; bound <= kMaxDepth; ) {
        search.depth = 0;
        const int result = search.dive(heuristic, bound, -1);
        if (result == kFound) {
            return std::string(search.path, search.depth);
        }
        bound = result;
    }
    return "unsolvable";
}

// Reads one board of nine tokens; false at the end of the input.
bool readBoard(int* board) {
    for (int cell = 0; cell < kCells; ++cell) {
        char token[4];
        if (std::scanf("%3s", token) != 1) {
            return false;
        }
        board[cell] = token[0] == 'x' ? 0 : token[0] - '0';
    }
    return true;
}

}  // namespace

int main() {
    buildTables();
    int board[kCells];
    std::string out;
    while (readBoard(board)) {
        out += solvable(board) ? solve(board) : "unsolvable";
        out += '\n';
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
