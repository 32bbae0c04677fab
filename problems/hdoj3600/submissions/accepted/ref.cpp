// Reference solution for HDOJ 3600 "Simple Puzzle" (C++).
//
// Send every cell to the goal index of its value (tile v -> v-1, blank -> L-1).
// Each blank move is a transposition of that permutation and changes the
// blank's taxicab distance to the bottom-right corner by one, so a board is
// solvable iff the permutation parity equals the parity of that distance.
// Parity = (L - #cycles) mod 2: O(L) per board, no counter that can overflow.
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

std::vector<char> input;
size_t cursor = 0;

// Read the whole of stdin once: boards can total a million cells per file.
void read_all() {
    char chunk[1 << 16];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        input.insert(input.end(), chunk, chunk + got);
    }
}

// Next non-negative integer token; the validator guarantees the format.
int next_int() {
    while (cursor < input.size() && (input[cursor] < '0' || input[cursor] > '9')) ++cursor;
    int value = 0;
    while (cursor < input.size() && input[cursor] >= '0' && input[cursor] <= '9') {
        value = value * 10 + (input[cursor] - '0');
        ++cursor;
    }
    return value;
}

// Parity of the permutation `target` by counting its cycles.
int permutation_parity(const std::vector<int>& target) {
    const int size = static_cast<int>(target.size());
    std::vector<char> seen(size, 0);
    int cycles = 0;
    for (int start = 0; start < size; ++start) {
        if (seen[start]) continue;
        ++cycles;
        for (int j = start; !seen[j]; j = target[j]) seen[j] = 1;
    }
    return (size - cycles) & 1;
}

// Decide one n x n board read from the input.
bool solvable(int n) {
    const int size = n * n;
    std::vector<int> target(size);
    int blank = 0;
    for (int i = 0; i < size; ++i) {
        const int value = next_int();
        if (value == 0) {
            blank = i;
            target[i] = size - 1;
        } else {
            target[i] = value - 1;
        }
    }
    const int distance = (n - 1 - blank / n) + (n - 1 - blank % n);
    return permutation_parity(target) == (distance & 1);
}

}  // namespace

int main() {
    read_all();
    std::vector<char> out;
    for (int n = next_int(); n != 0; n = next_int()) {
        const char* answer = solvable(n) ? "YES\n" : "NO\n";
        for (const char* c = answer; *c; ++c) out.push_back(*c);
    }
    fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
