// WRONG ANSWER: treats M = 1 as hopeless ("the blank has no neighbour to move
// to"), although the lone blank is already the goal.
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
            else tiles.push_back(v - 1);
        }
        if (m == 1) {
            puts("Puzzle is unsolvable.");
            continue;
        }
        std::vector<char> seen(tiles.size(), 0);
        size_t cycles = 0;
        for (size_t s = 0; s < tiles.size(); ++s) {
            if (seen[s]) continue;
            ++cycles;
            for (size_t j = s; !seen[j]; j = tiles[j]) seen[j] = 1;
        }
        size_t parity = tiles.size() - cycles;
        if (m % 2 == 0) parity += (m - 1 - (blank / m) % m) + (m - 1 - blank / (m * m));
        puts(parity % 2 == 0 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
    }
    return 0;
}
