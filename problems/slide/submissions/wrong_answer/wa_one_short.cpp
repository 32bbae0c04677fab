// WRONG: drops the last move of a correct solution, so every solvable board
// except the goal ends one move short of it. Otherwise the reference's
// construction (pairs of tiles, a fixed pattern for the stuck position, a
// final 2x2 cycle).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const std::string kRowFinish = "RD";
const std::string kRowTrap = "URDDLURULDDRULURD";
const std::string kCornerCycle = "ULDR";
const std::string kCornerBack = "LURD";

char transposed(char move) {
    switch (move) {
        case 'U': return 'L';
        case 'D': return 'R';
        case 'L': return 'U';
        default: return 'D';
    }
}

char inverse(char move) {
    switch (move) {
        case 'U': return 'D';
        case 'D': return 'U';
        case 'L': return 'R';
        default: return 'L';
    }
}

std::string transposedAll(const std::string& moves) {
    std::string out = moves;
    std::transform(out.begin(), out.end(), out.begin(), transposed);
    return out;
}

// Parity of the inversions of a sequence of tiles 1..m, via its cycles.
int inversionParity(const std::vector<int>& tiles) {
    std::vector<char> seen(tiles.size(), 0);
    std::size_t cycles = 0;
    for (std::size_t start = 0; start < tiles.size(); ++start) {
        if (seen[start]) continue;
        ++cycles;
        for (std::size_t i = start; !seen[i]; i = tiles[i] - 1) seen[i] = 1;
    }
    return static_cast<int>((tiles.size() - cycles) % 2);
}

bool solvable(int n, const std::vector<int>& cells) {
    std::vector<int> tiles;
    int blank = 0;
    for (int cell = 0; cell < n * n; ++cell) {
        if (cells[cell] == 0) blank = cell;
        else tiles.push_back(cells[cell]);
    }
    int parity = inversionParity(tiles);
    if (n % 2 == 0) parity += n - 1 - blank / n;
    return parity % 2 == 0;
}

std::string cancelInversePairs(const std::string& moves) {
    std::string kept;
    for (char move : moves) {
        if (!kept.empty() && kept.back() == inverse(move)) kept.pop_back();
        else kept.push_back(move);
    }
    return kept;
}

class Solver {
public:
    Solver(int n, std::vector<int> cells)
        : n_(n), cells_(std::move(cells)), where_(n * n), locked_(n * n, 0) {
        for (int cell = 0; cell < n * n; ++cell) where_[cells_[cell]] = cell;
    }

    std::string solve() {
        for (int row = 0; row + 2 < n_; ++row) {
            for (int col = 0; col + 2 < n_; ++col) {
                const int cell = row * n_ + col;
                moveTile(cell + 1, cell);
                locked_[cell] = 1;
            }
            const int end = row * n_ + n_ - 1;
            placePair(end - 1, end, end + n_, end + n_ - 1, kRowFinish, kRowTrap);
        }
        for (int col = 0; col + 2 < n_; ++col) {
            const int top = (n_ - 2) * n_ + col;
            placePair(top, top + n_, top + n_ + 1, top + 1,
                      transposedAll(kRowFinish), transposedAll(kRowTrap));
        }
        finishCorner();
        if (!solved()) throw std::logic_error("construction ended on an unsolved board");
        return cancelInversePairs(moves_);
    }

private:
    // Neighbour of `cell` in direction `move`, or -1 off the board.
    int step(int cell, char move) const {
        const int row = cell / n_, col = cell % n_;
        switch (move) {
            case 'U': return row > 0 ? cell - n_ : -1;
            case 'D': return row < n_ - 1 ? cell + n_ : -1;
            case 'L': return col > 0 ? cell - 1 : -1;
            default: return col < n_ - 1 ? cell + 1 : -1;
        }
    }

    void play(const std::string& letters) {
        for (char letter : letters) {
            const int blank = where_[0];
            const int other = step(blank, letter);
            const int tile = cells_[other];
            cells_[blank] = tile;
            cells_[other] = 0;
            where_[tile] = blank;
            where_[0] = other;
            moves_.push_back(letter);
        }
    }

    // Letters of a shortest walk over unlocked cells other than `blocked`.
    std::string path(int start, int goal, int blocked) const {
        static const char kOrder[] = {'U', 'D', 'L', 'R'};
        std::vector<int> from(n_ * n_, -1);
        std::vector<char> via(n_ * n_, 0);
        std::vector<int> queue = {start};
        from[start] = start;
        for (std::size_t head = 0; head < queue.size() && from[goal] < 0; ++head) {
            const int cell = queue[head];
            for (char move : kOrder) {
                const int next = step(cell, move);
                if (next < 0 || from[next] >= 0 || locked_[next] || next == blocked) continue;
                from[next] = cell;
                via[next] = move;
                queue.push_back(next);
            }
        }
        if (from[goal] < 0) throw std::logic_error("no free path");
        std::string letters;
        for (int cell = goal; cell != start; cell = from[cell]) letters.push_back(via[cell]);
        std::reverse(letters.begin(), letters.end());
        return letters;
    }

    void routeBlank(int goal, int avoid) { play(path(where_[0], goal, avoid)); }

    void moveTile(int tile, int goal) {
        for (char move : path(where_[tile], goal, -1)) {
            const int next = step(where_[tile], move);
            routeBlank(next, where_[tile]);
            play(std::string(1, inverse(move)));
        }
    }

    // Finish `first` and `second` together; see the header comment.
    void placePair(int first, int second, int below, int hub,
                   const std::string& finish, const std::string& trap) {
        const int tileA = first + 1, tileB = second + 1;
        if (cells_[first] == tileA && cells_[second] == tileB) {
            locked_[first] = locked_[second] = 1;
            return;
        }
        moveTile(tileA, second);
        locked_[second] = 1;
        if (where_[0] == first && where_[tileB] == hub) routeBlank(hub, -1);
        if (where_[tileB] == first) {
            routeBlank(hub, first);
            play(trap);
        } else {
            moveTile(tileB, below);
            locked_[below] = 1;
            routeBlank(first, -1);
            locked_[below] = 0;
            play(finish);
        }
        locked_[first] = 1;
    }

    void finishCorner() {
        routeBlank(n_ * n_ - 1, -1);
        if (!solved()) play(kCornerCycle);
        // Undo the cycle and turn the other way; the cancellation leaves one kCornerBack.
        if (!solved()) play(kCornerBack + kCornerBack);
    }

    bool solved() const {
        for (int cell = 0; cell + 1 < n_ * n_; ++cell) {
            if (cells_[cell] != cell + 1) return false;
        }
        return true;
    }

    int n_;
    std::vector<int> cells_;
    std::vector<int> where_;
    std::vector<char> locked_;
    std::string moves_;
};

}  // namespace

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<int> cells(n * n);
    for (int& value : cells) {
        if (std::scanf("%d", &value) != 1) return 1;
    }
    if (!solvable(n, cells)) {
        std::puts("No Answer!");
        return 0;
    }
    std::string moves = Solver(n, cells).solve();
    if (!moves.empty()) moves.pop_back();
    std::puts(moves.c_str());
    return 0;
}
