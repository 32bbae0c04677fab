// Reference solution (C++) for POJ 1507 "Commedia dell' arte".
// The tiles, read in input order with the blank left out, form a permutation;
// its parity is (n - #cycles) mod 2, found in O(n) without counting inversions.
// Solvable iff that parity plus (dy + dz) is even for even M (odd M: parity alone),
// where dy, dz are the blank's distances to the last row and layer.
#include <cstdio>
#include <cstdlib>
#include <vector>

static std::vector<char> input;
static size_t pos = 0;

static void read_all() {
    char chunk[1 << 16];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0) input.insert(input.end(), chunk, chunk + got);
    input.push_back('\0');
}

static long next_int() {
    while (input[pos] && (input[pos] < '0' || input[pos] > '9')) ++pos;
    long value = 0;
    while (input[pos] >= '0' && input[pos] <= '9') value = value * 10 + (input[pos++] - '0');
    return value;
}

static int cycle_parity(const std::vector<int>& perm) {
    std::vector<char> seen(perm.size(), 0);
    size_t cycles = 0;
    for (size_t start = 0; start < perm.size(); ++start) {
        if (seen[start]) continue;
        ++cycles;
        for (size_t j = start; !seen[j]; j = perm[j]) seen[j] = 1;
    }
    return (int)((perm.size() - cycles) & 1);
}

int main() {
    read_all();
    long cases = next_int();
    std::vector<int> tiles;
    for (long c = 0; c < cases; ++c) {
        long m = next_int();
        long size = m * m * m;
        tiles.clear();
        long blank = 0;
        for (long i = 0; i < size; ++i) {
            long v = next_int();
            if (v == 0) blank = i;
            else tiles.push_back((int)(v - 1));
        }
        int parity = cycle_parity(tiles);
        if (m % 2 == 0) {
            long y = (blank / m) % m, z = blank / (m * m);
            parity ^= (int)(((m - 1 - y) + (m - 1 - z)) & 1);
        }
        puts(parity == 0 ? "Puzzle can be solved." : "Puzzle is unsolvable.");
    }
    return 0;
}
