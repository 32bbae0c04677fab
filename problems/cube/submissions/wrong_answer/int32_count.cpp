// WRONG ANSWER: Fenwick inversion count kept in a 32-bit int. On a big cube the
// count (up to ~5*10^11) wraps; an odd count that wraps negative gives
// inversions % 2 == -1, so "odd" is never seen.
#include <cstdio>
#include <vector>

int main() {
    int cases;
    if (scanf("%d", &cases) != 1) return 0;
    while (cases--) {
        int m;
        scanf("%d", &m);
        int size = m * m * m, seen = 0, blank = 0;
        std::vector<int> tree(size + 1, 0);
        int inversions = 0;
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
        bool odd = inversions % 2 == 1;
        if (m % 2 == 0) odd ^= (((m - 1 - (blank / m) % m) + (m - 1 - blank / (m * m))) & 1) != 0;
        puts(odd ? "Puzzle is unsolvable." : "Puzzle can be solved.");
    }
    return 0;
}
