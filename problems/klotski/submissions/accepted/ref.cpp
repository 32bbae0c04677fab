// Reference solution for "Klotski" (writes the .ans files).
//
// Breadth-first search over positions. A position only records where the
// pieces of each shape stand, not which letter is where: pieces of the same
// shape are interchangeable for the question "can the 2x2 piece reach the
// exit, and how fast", which shrinks the search by the permutations of equal
// pieces. A position is the anchor (top-left cell) of the 2x2 piece plus one
// bit mask of anchors per other shape. The successors of a position: for
// every piece, every other anchor it can reach by unit steps through cells
// that are free (the piece's own cells count as free), found by a flood fill;
// each such anchor is one move. The first position with the 2x2 piece on the
// exit ends the search; its chain of parents gives the moves, which are then
// replayed on the lettered board to name the pieces and spell their paths.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using Mask = std::uint64_t;

constexpr int kShapes = 4;  // the 2x2 piece, 1x2 (horizontal), 2x1 (vertical), 1x1
constexpr int kHeight[kShapes] = {2, 1, 2, 1};
constexpr int kWidth[kShapes] = {2, 2, 1, 1};
constexpr char kLetters[4] = {'U', 'D', 'L', 'R'};
constexpr int kMaxCells = 36;

struct Position {
    int king;
    Mask anchors[kShapes];  // anchors[0] is unused: the 2x2 piece is `king`

    bool operator==(const Position& other) const {
        return king == other.king && anchors[1] == other.anchors[1] && anchors[2] == other.anchors[2] &&
               anchors[3] == other.anchors[3];
    }
};

Mask hashOf(const Position& p) {
    Mask h = (p.anchors[1] ^ static_cast<Mask>(p.king) << 58) * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 31) ^ p.anchors[2]) * 0xC2B2AE3D27D4EB4FULL;
    h = (h ^ (h >> 29) ^ p.anchors[3]) * 0x94D049BB133111EBULL;
    return h ^ (h >> 32);
}

// Positions in discovery order with their index, in an open-addressing table
// (linear probing, grown at half load): the search's only data structure.
class PositionTable {
public:
    PositionTable() : slots_(1 << 12, -1) {}

    // Index of `p`, adding it if new; `added` tells which.
    int insert(const Position& p, bool& added) {
        if (2 * (positions_.size() + 1) > slots_.size()) grow();
        std::size_t at = hashOf(p) & (slots_.size() - 1);
        while (slots_[at] >= 0) {
            if (positions_[slots_[at]] == p) {
                added = false;
                return slots_[at];
            }
            at = (at + 1) & (slots_.size() - 1);
        }
        slots_[at] = static_cast<int>(positions_.size());
        positions_.push_back(p);
        added = true;
        return slots_[at];
    }

    const Position& operator[](std::size_t i) const { return positions_[i]; }
    std::size_t size() const { return positions_.size(); }

private:
    void grow() {
        slots_.assign(slots_.size() * 2, -1);
        for (std::size_t i = 0; i < positions_.size(); ++i) {
            std::size_t at = hashOf(positions_[i]) & (slots_.size() - 1);
            while (slots_[at] >= 0) at = (at + 1) & (slots_.size() - 1);
            slots_[at] = static_cast<int>(i);
        }
    }

    std::vector<Position> positions_;
    std::vector<int> slots_;
};

struct Move {
    int shape;
    int from;
    int to;
};

class Board {
public:
    Board(int rows, int cols, std::vector<std::string> grid) : rows_(rows), cols_(cols), grid_(std::move(grid)) {
        const int cells = rows * cols;
        for (int cell = 0; cell < cells; ++cell) {
            if (at(cell) == '#') walls_ |= bit(cell);
            for (int d = 0; d < 4; ++d) step_[cell][d] = neighbour(cell, d);
            for (int shape = 0; shape < kShapes; ++shape) foot_[shape][cell] = footprint(shape, cell);
        }
        goal_ = (rows - 2) * cols + cols / 2 - 1;
    }

    // The board's answer: the moves as lines "letter path", or empty with
    // solved=false when the exit cannot be reached.
    std::vector<std::string> solve(bool& solved) {
        const std::vector<Move> moves = search(solved);
        std::vector<std::string> lines;
        for (const Move& move : moves) {
            const char letter = at(move.from);
            lines.push_back(std::string(1, letter) + ' ' + replay(move));
        }
        return lines;
    }

private:
    static Mask bit(int cell) { return Mask{1} << cell; }

    char at(int cell) const { return grid_[cell / cols_][cell % cols_]; }

    int neighbour(int cell, int direction) const {
        const int row = cell / cols_, col = cell % cols_;
        switch (direction) {
            case 0: return row > 0 ? cell - cols_ : -1;
            case 1: return row + 1 < rows_ ? cell + cols_ : -1;
            case 2: return col > 0 ? cell - 1 : -1;
            default: return col + 1 < cols_ ? cell + 1 : -1;
        }
    }

    // Cells covered by a piece of `shape` anchored at `cell`; 0 if it sticks out of the board.
    Mask footprint(int shape, int cell) const {
        const int row = cell / cols_, col = cell % cols_;
        if (row + kHeight[shape] > rows_ || col + kWidth[shape] > cols_) return 0;
        Mask mask = 0;
        for (int r = 0; r < kHeight[shape]; ++r) {
            for (int c = 0; c < kWidth[shape]; ++c) mask |= bit((row + r) * cols_ + col + c);
        }
        return mask;
    }

    Position start() const {
        Position position{-1, {0, 0, 0, 0}};
        const int cells = rows_ * cols_;
        for (int cell = 0; cell < cells; ++cell) {
            const char letter = at(cell);
            if (letter == '.' || letter == '#') continue;
            const int row = cell / cols_, col = cell % cols_;
            if ((row > 0 && grid_[row - 1][col] == letter) || (col > 0 && grid_[row][col - 1] == letter)) continue;
            const bool wide = col + 1 < cols_ && grid_[row][col + 1] == letter;
            const bool tall = row + 1 < rows_ && grid_[row + 1][col] == letter;
            const int shape = wide && tall ? 0 : wide ? 1 : tall ? 2 : 3;
            if (shape == 0) position.king = cell;
            else position.anchors[shape] |= bit(cell);
        }
        return position;
    }

    Mask occupied(const Position& p) const {
        Mask used = walls_ | foot_[0][p.king];
        for (int shape = 1; shape < kShapes; ++shape) {
            for (Mask rest = p.anchors[shape]; rest; rest &= rest - 1) used |= foot_[shape][__builtin_ctzll(rest)];
        }
        return used;
    }

    // Every anchor the piece (shape, anchor) can reach, given the cells `used` by the others.
    Mask reachable(int shape, int anchor, Mask used) const {
        Mask seen = bit(anchor);
        int stack[kMaxCells];
        int top = 0;
        stack[top++] = anchor;
        while (top) {
            const int cell = stack[--top];
            for (int d = 0; d < 4; ++d) {
                const int next = step_[cell][d];
                if (next < 0 || (seen & bit(next))) continue;
                const Mask foot = foot_[shape][next];
                if (foot == 0 || (foot & used)) continue;
                seen |= bit(next);
                stack[top++] = next;
            }
        }
        return seen & ~bit(anchor);
    }

    std::vector<Move> search(bool& solved) {
        PositionTable positions;
        bool added = false;
        positions.insert(start(), added);
        std::vector<int> parent{-1};
        std::vector<Move> via{{0, 0, 0}};
        int found = positions[0].king == goal_ ? 0 : -1;
        for (std::size_t head = 0; head < positions.size() && found < 0; ++head) {
            const Position current = positions[head];
            const Mask used = occupied(current);
            auto visit = [&](int shape, int from, int to) {
                Position next = current;
                if (shape == 0) {
                    next.king = to;
                } else {
                    next.anchors[shape] ^= bit(from) | bit(to);
                }
                positions.insert(next, added);
                if (!added) return;
                parent.push_back(static_cast<int>(head));
                via.push_back({shape, from, to});
                if (next.king == goal_ && found < 0) found = static_cast<int>(positions.size()) - 1;
            };
            for (Mask to = reachable(0, current.king, used & ~foot_[0][current.king]); to; to &= to - 1) {
                visit(0, current.king, __builtin_ctzll(to));
            }
            for (int shape = 1; shape < kShapes; ++shape) {
                for (Mask rest = current.anchors[shape]; rest; rest &= rest - 1) {
                    const int from = __builtin_ctzll(rest);
                    for (Mask to = reachable(shape, from, used & ~foot_[shape][from]); to; to &= to - 1) {
                        visit(shape, from, __builtin_ctzll(to));
                    }
                }
            }
        }
        solved = found >= 0;
        std::vector<Move> moves;
        for (int at = found; at > 0; at = parent[at]) moves.push_back(via[at]);
        std::reverse(moves.begin(), moves.end());
        return moves;
    }

    // Apply one move to the lettered grid; returns the piece's path as letters.
    std::string replay(const Move& move) {
        const int cells = rows_ * cols_;
        const char letter = at(move.from);
        Mask used = walls_;
        for (int cell = 0; cell < cells; ++cell) {
            if (at(cell) != '.' && at(cell) != letter) used |= bit(cell);
        }
        std::vector<int> from(cells, -1);
        std::vector<char> how(cells, 0);
        std::vector<int> queue{move.from};
        from[move.from] = move.from;
        for (std::size_t head = 0; head < queue.size() && from[move.to] < 0; ++head) {
            const int cell = queue[head];
            for (int d = 0; d < 4; ++d) {
                const int next = step_[cell][d];
                if (next < 0 || from[next] >= 0) continue;
                const Mask foot = foot_[move.shape][next];
                if (foot == 0 || (foot & used)) continue;
                from[next] = cell;
                how[next] = kLetters[d];
                queue.push_back(next);
            }
        }
        std::string path;
        for (int cell = move.to; cell != move.from; cell = from[cell]) path.push_back(how[cell]);
        std::reverse(path.begin(), path.end());
        for (Mask rest = foot_[move.shape][move.from]; rest; rest &= rest - 1) {
            const int cell = __builtin_ctzll(rest);
            grid_[cell / cols_][cell % cols_] = '.';
        }
        for (Mask rest = foot_[move.shape][move.to]; rest; rest &= rest - 1) {
            const int cell = __builtin_ctzll(rest);
            grid_[cell / cols_][cell % cols_] = letter;
        }
        return path;
    }

    int rows_;
    int cols_;
    std::vector<std::string> grid_;
    Mask walls_ = 0;
    Mask foot_[kShapes][kMaxCells] = {};
    int step_[kMaxCells][4] = {};
    int goal_ = 0;
};

}  // namespace

int main() {
    int boards = 0;
    if (std::scanf("%d", &boards) != 1) return 1;
    std::string out;
    for (int b = 0; b < boards; ++b) {
        int rows = 0, cols = 0;
        if (std::scanf("%d %d", &rows, &cols) != 2) return 1;
        std::vector<std::string> grid(rows);
        char line[64];
        for (auto& row : grid) {
            if (std::scanf("%63s", line) != 1) return 1;
            row = line;
        }
        bool solved = false;
        const std::vector<std::string> lines = Board(rows, cols, grid).solve(solved);
        if (!solved) {
            out += "impossible\n";
            continue;
        }
        out += std::to_string(lines.size()) + '\n';
        for (const std::string& line : lines) out += line + '\n';
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
