// Reference solution for "reach" (writes the .ans files).
//
// Every move exchanges the blank with a neighbouring tile: it flips the
// parity of the permutation that carries the current board onto the target
// (blank included) and changes the Manhattan distance between the two
// blanks by one. So a reachable target needs
//   parity(permutation start -> target) == parity(Manhattan distance),
// and on a board with both sides >= 2 this is also sufficient (exactly half
// of the arrangements are reachable from any one). The permutation parity
// comes from its cycles in O(M*N), with no inversion count at all.
// A single row or column never changes the order of its tiles, so there the
// target is reachable iff the tiles, read in order, are the same.
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Whole-input reader: the largest file is about 14 MB of integers.
class Reader {
public:
    Reader() {
        std::size_t got;
        char chunk[1 << 16];
        while ((got = std::fread(chunk, 1, sizeof chunk, stdin)) > 0) {
            data_.insert(data_.end(), chunk, chunk + got);
        }
    }

    // Next non-negative integer, or -1 at the end of the input.
    long next() {
        while (pos_ < data_.size() && (data_[pos_] < '0' || data_[pos_] > '9')) {
            ++pos_;
        }
        if (pos_ == data_.size()) {
            return -1;
        }
        long value = 0;
        while (pos_ < data_.size() && data_[pos_] >= '0' && data_[pos_] <= '9') {
            value = value * 10 + (data_[pos_] - '0');
            ++pos_;
        }
        return value;
    }

private:
    std::vector<char> data_;
    std::size_t pos_ = 0;
};

// Tiles of a line in reading order must match one for one.
bool sameTileOrder(const std::vector<int>& start, const std::vector<int>& target) {
    std::size_t j = 0;
    for (int value : start) {
        if (value == 0) {
            continue;
        }
        while (target[j] == 0) {
            ++j;
        }
        if (target[j] != value) {
            return false;
        }
        ++j;
    }
    return true;
}

// Parity (0 or 1) of the permutation cell -> cell of the same value in the target.
// The permutation is built in two sequential passes first, so that following
// its cycles costs one dependent memory access per cell instead of three.
int transportParity(const std::vector<int>& start, const std::vector<int>& target) {
    const int size = static_cast<int>(start.size());
    std::vector<int> where(size);
    for (int cell = 0; cell < size; ++cell) {
        where[target[cell]] = cell;
    }
    std::vector<int> next(size);
    for (int cell = 0; cell < size; ++cell) {
        next[cell] = where[start[cell]];
    }
    int cycles = 0;
    for (int first = 0; first < size; ++first) {
        if (next[first] < 0) {
            continue;
        }
        ++cycles;
        for (int cell = first; next[cell] >= 0;) {
            const int following = next[cell];
            next[cell] = -1;
            cell = following;
        }
    }
    return (size - cycles) & 1;
}

int blankCell(const std::vector<int>& board) {
    int cell = 0;
    while (board[cell] != 0) {
        ++cell;
    }
    return cell;
}

bool reachable(int rows, int cols, const std::vector<int>& start, const std::vector<int>& target) {
    if (rows == 1 || cols == 1) {
        return sameTileOrder(start, target);
    }
    const int from = blankCell(start);
    const int to = blankCell(target);
    const int distance = std::abs(from / cols - to / cols) + std::abs(from % cols - to % cols);
    return transportParity(start, target) == (distance & 1);
}

}  // namespace

int main() {
    Reader in;
    std::vector<int> start;
    std::vector<int> target;
    for (;;) {
        const long rows = in.next();
        const long cols = in.next();
        if (rows <= 0 || cols <= 0) {
            break;
        }
        start.resize(rows * cols);
        target.resize(rows * cols);
        for (int& value : start) {
            value = static_cast<int>(in.next());
        }
        for (int& value : target) {
            value = static_cast<int>(in.next());
        }
        std::puts(reachable(static_cast<int>(rows), static_cast<int>(cols), start, target) ? "YES" : "NO");
    }
    return 0;
}
