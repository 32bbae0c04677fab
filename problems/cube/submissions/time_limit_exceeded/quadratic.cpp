// Expected TLE: correct rule, but the inversions are counted over all pairs,
// O(L^2) = 5*10^11 comparisons on a 100-cube.
#include <cstdio>
#include <vector>

int main() {
    int cases;
    if (scanf("%d", &cases) != 1) return 0;
    while (cases--) {
        int m;
        scanf("%d", &m);
        int size = m * m * m, blank = 0;
        std::vector<int> tiles;
        for (int i = 0; i < size; ++i) {
            int v;
            scanf("%d", &v);
            if (v == 0) blank = i;
            else tiles.push_back(v);
        }
        long long inversions = 0;
        for (size_t i = 0; i < tiles.size(); ++i)
            for (size_t j = i + 1; j < tiles.size(); ++j)
                if (tiles[i] > tiles[j]) ++inversions;
        long long parity = inversions;
        if (m % 2 == 0) parity += (m - 1 - (blank / m) % m) + (m - 1 - blank / (m * m));
        puts(parity % 2 == 0 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
    }
    return 0;
}
