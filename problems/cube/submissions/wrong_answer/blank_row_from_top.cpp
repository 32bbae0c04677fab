// WRONG ANSWER: the blank's row distance is measured from the top (y) instead of from the last row.
#include <cstdio>
#include <vector>

static char buf[1 << 16];
static size_t len = 0, at = 0;

static int next_char() {
    if (at == len) {
        len = fread(buf, 1, sizeof buf, stdin);
        at = 0;
        if (len == 0) return -1;
    }
    return buf[at++];
}

static long next_int() {
    int c = next_char();
    while (c != -1 && (c < '0' || c > '9')) c = next_char();
    long v = 0;
    while (c >= '0' && c <= '9') { v = v * 10 + (c - '0'); c = next_char(); }
    return v;
}

// Parity of a permutation of 0..n-1 by counting its cycles.
static int cycle_parity(const std::vector<int>& perm) {
    std::vector<char> seen(perm.size(), 0);
    size_t cycles = 0;
    for (size_t s = 0; s < perm.size(); ++s) {
        if (seen[s]) continue;
        ++cycles;
        for (size_t j = s; !seen[j]; j = perm[j]) seen[j] = 1;
    }
    return (int)((perm.size() - cycles) & 1);
}

int main() {
    long cases = next_int();
    std::vector<int> tiles;
    while (cases-- > 0) {
        long m = next_int(), size = m * m * m, blank = 0;
        tiles.clear();
        for (long i = 0; i < size; ++i) {
            long v = next_int();
            if (v == 0) blank = i;
            else tiles.push_back((int)(v - 1));
        }
        long y = (blank / m) % m, z = blank / (m * m);
        long parity = cycle_parity(tiles);
        if (m % 2 == 0) parity += y + (m - 1 - z);
        puts(parity % 2 == 0 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
    }
    return 0;
}
