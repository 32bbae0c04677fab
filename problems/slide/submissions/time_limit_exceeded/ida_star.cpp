// TOO SLOW: an optimal search (IDA*, iterative-deepening A* with the sum of
// Manhattan distances as the bound). Its answers are always right and short,
// and it needs almost no memory, so it never fails with MLE or WA; but the
// search tree grows exponentially with the solution length: 3x3 boards take
// milliseconds, random 4x4 boards seconds to hours, 5x5 and larger never
// finish. Unsolvable boards are detected by the parity rule first.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const int kFound = -1;
const char kMoves[] = {'U', 'D', 'L', 'R'};

int n;
std::vector<int> cells;
std::string path;

int manhattan(int value, int cell) {
    if (value == 0) return 0;
    const int home = value - 1;
    return std::abs(home / n - cell / n) + std::abs(home % n - cell % n);
}

int neighbour(int cell, char move) {
    const int row = cell / n, col = cell % n;
    switch (move) {
        case 'U': return row > 0 ? cell - n : -1;
        case 'D': return row < n - 1 ? cell + n : -1;
        case 'L': return col > 0 ? cell - 1 : -1;
        default: return col < n - 1 ? cell + 1 : -1;
    }
}

bool undoes(char move, char last) {
    return (move == 'U' && last == 'D') || (move == 'D' && last == 'U') ||
           (move == 'L' && last == 'R') || (move == 'R' && last == 'L');
}

// Depth-first search below `bound`; returns kFound or the smallest f over the bound.
int search(int blank, int depth, int heuristic, int bound) {
    const int f = depth + heuristic;
    if (f > bound) return f;
    if (heuristic == 0) return kFound;
    int next_bound = 1 << 30;
    for (char move : kMoves) {
        if (!path.empty() && undoes(move, path.back())) continue;
        const int other = neighbour(blank, move);
        if (other < 0) continue;
        const int tile = cells[other];
        const int changed = heuristic - manhattan(tile, other) + manhattan(tile, blank);
        cells[blank] = tile;
        cells[other] = 0;
        path.push_back(move);
        const int result = search(other, depth + 1, changed, bound);
        if (result == kFound) return kFound;
        if (result < next_bound) next_bound = result;
        path.pop_back();
        cells[other] = tile;
        cells[blank] = 0;
    }
    return next_bound;
}

bool solvable(int blank) {
    int inversions = 0;
    for (int i = 0; i < n * n; ++i) {
        for (int j = i + 1; j < n * n; ++j) {
            if (cells[i] && cells[j] && cells[i] > cells[j]) ++inversions;
        }
    }
    if (n % 2 == 0) inversions += n - 1 - blank / n;
    return inversions % 2 == 0;
}

}  // namespace

int main() {
    if (std::scanf("%d", &n) != 1) return 1;
    cells.resize(n * n);
    int blank = 0;
    int heuristic = 0;
    for (int cell = 0; cell < n * n; ++cell) {
        if (std::scanf("%d", &cells[cell]) != 1) return 1;
        if (cells[cell] == 0) blank = cell;
        heuristic += manhattan(cells[cell], cell);
    }
    if (!solvable(blank)) {
        std::puts("No Answer!");
        return 0;
    }
    int bound = heuristic;
    while (true) {
        const int result = search(blank, 0, heuristic, bound);
        if (result == kFound) break;
        bound = result;
    }
    std::puts(path.c_str());
    return 0;
}
