// Accepted: counts the tile inversions exactly with a Fenwick tree (64-bit count),
// then applies the parity rule: even M adds the blank's row and layer distance.
#include <cstdio>
#include <vector>

int main() {
    int cases;
    if (scanf("%d", &cases) != 1) return 0;
    while (cases--) {
        int m;
        scanf("%d", &m);
        int size = m * m * m;
        std::vector<int> tree(size + 1, 0);
        long long inversions = 0;
        int seen = 0, blank = 0;
        for (int i = 0; i < size; ++i) {
            int v;
            scanf("%d", &v);
            if (v == 0) { blank = i; continue; }
            int not_greater = 0;
            for (int k = v; k > 0; k -= k & -k) not_greater += tree[k];
            inversions += seen - not_greater;
            for (int k = v; k <= size; k += k & -k) ++tree[k];
            ++seen;
        }
        long long parity = inversions;
        if (m % 2 == 0) parity += (m - 1 - (blank / m) % m) + (m - 1 - blank / (m * m));
        puts(parity % 2 == 0 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
    }
    return 0;
}
