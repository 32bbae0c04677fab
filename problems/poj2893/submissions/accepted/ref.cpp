// Reference solution for POJ 2893 "M x N Puzzle" (writes the .ans files).
//
// A board (both sides >= 2) is solvable iff
//   inv + (M-1-r)*(N-1) is even,
// where inv counts inversions among the tiles (blank excluded) and r is the
// blank's row counted from the top. Only the parity of inv matters, and it is
// obtained in O(M*N) from the cycle structure of the permutation that sends
// every cell to the goal cell of its content.
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Whole-input reader: the largest file is about 8 MB of integers.
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

// Parity (0 or 1) of the permutation cell -> goal cell of its content.
int cycleParity(const std::vector<int>& target) {
    const int size = static_cast<int>(target.size());
    std::vector<char> seen(size, 0);
    int cycles = 0;
    for (int start = 0; start < size; ++start) {
        if (seen[start]) {
            continue;
        }
        ++cycles;
        for (int cell = start; !seen[cell]; cell = target[cell]) {
            seen[cell] = 1;
        }
    }
    return (size - cycles) & 1;
}

bool solvable(int rows, int cols, const std::vector<int>& cells) {
    const int size = rows * cols;
    std::vector<int> target(size);
    int blank = 0;
    for (int cell = 0; cell < size; ++cell) {
        if (cells[cell] == 0) {
            blank = cell;
            target[cell] = size - 1;
        } else {
            target[cell] = cells[cell] - 1;
        }
    }
    // Mapping the blank to the last goal cell adds (size-1-blank) inversions
    // to the tile inversions; remove them to get the parity of inv alone.
    const int invParity = (cycleParity(target) + (size - 1 - blank)) & 1;
    const int rowsBelow = rows - 1 - blank / cols;
    return ((invParity + static_cast<long>(rowsBelow) * (cols - 1)) & 1) == 0;
}

}  // namespace

int main() {
    Reader in;
    std::vector<int> cells;
    for (;;) {
        const long rows = in.next();
        const long cols = in.next();
        if (rows <= 0 || cols <= 0) {
            break;
        }
        cells.resize(rows * cols);
        for (int& value : cells) {
            value = static_cast<int>(in.next());
        }
        std::puts(solvable(static_cast<int>(rows), static_cast<int>(cols), cells) ? "YES" : "NO");
    }
    return 0;
}
