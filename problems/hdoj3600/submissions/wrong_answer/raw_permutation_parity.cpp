// WRONG: takes the parity of the board read as a raw permutation of 0..L-1
// (cell i -> value a[i]) by cycle counting, without remapping the blank to
// its goal cell, and uses it as if it were the tile inversion parity.
#include <cstdio>
#include <vector>

namespace {

// Decide one board of side n.
bool solvable(int n) {
    const int size = n * n;
    std::vector<int> board(size);
    int blank_row = 0;
    for (int i = 0; i < size; ++i) {
        if (scanf("%d", &board[i]) != 1) return false;
        if (board[i] == 0) blank_row = i / n;
    }
    std::vector<char> seen(size, 0);
    int cycles = 0;
    for (int start = 0; start < size; ++start) {
        if (seen[start]) continue;
        ++cycles;
        for (int j = start; !seen[j]; j = board[j]) seen[j] = 1;
    }
    const int parity = (size - cycles) & 1;
    if (n % 2 == 1) return parity == 0;
    return (parity + (n - 1 - blank_row)) % 2 == 0;
}

}  // namespace

int main() {
    int n = 0;
    while (scanf("%d", &n) == 1 && n != 0) puts(solvable(n) ? "YES" : "NO");
    return 0;
}
