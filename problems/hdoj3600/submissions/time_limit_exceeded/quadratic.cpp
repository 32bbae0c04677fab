// Correct but too slow: counts the tile inversions by comparing every pair,
// O(L^2) = about 4 * 10^9 comparisons on a single 300 x 300 board.
#include <cstdio>
#include <vector>

namespace {

// Decide one board of side n.
bool solvable(int n) {
    const int size = n * n;
    std::vector<int> tiles;
    tiles.reserve(size);
    int blank_row = 0;
    for (int i = 0; i < size; ++i) {
        int value = 0;
        if (scanf("%d", &value) != 1) return false;
        if (value == 0) blank_row = i / n;
        else tiles.push_back(value);
    }
    long long inversions = 0;
    const int count = static_cast<int>(tiles.size());
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            if (tiles[i] > tiles[j]) ++inversions;
        }
    }
    if (n % 2 == 1) return inversions % 2 == 0;
    return (inversions + (n - 1 - blank_row)) % 2 == 0;
}

}  // namespace

int main() {
    int n = 0;
    while (scanf("%d", &n) == 1 && n != 0) puts(solvable(n) ? "YES" : "NO");
    return 0;
}
