// WRONG ANSWER: the blank (0) is counted in the inversions like a tile, which
// adds its index to the count.
#include <cstdio>
#include <vector>

int main() {
    int cases;
    if (scanf("%d", &cases) != 1) return 0;
    while (cases--) {
        int m;
        scanf("%d", &m);
        int size = m * m * m, blank = 0;
        std::vector<int> tree(size + 1, 0);
        long long inversions = 0;
        for (int i = 0; i < size; ++i) {
            int v;
            scanf("%d", &v);
            if (v == 0) blank = i;
            int not_greater = 0;
            for (int k = v + 1; k > 0; k -= k & -k) not_greater += tree[k];
            inversions += i - not_greater;
            for (int k = v + 1; k <= size; k += k & -k) ++tree[k];
        }
        if (m % 2 == 0) inversions += (m - 1 - (blank / m) % m) + (m - 1 - blank / (m * m));
        puts(inversions % 2 == 0 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
    }
    return 0;
}
