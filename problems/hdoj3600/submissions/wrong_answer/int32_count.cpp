// WRONG: the inversion count lives in a 32-bit int.  On 300 x 300 boards it
// can pass 2^31 and wrap negative; an odd negative count gives inv % 2 == -1,
// so the test "inv % 2 == 1" reads it as even and the answer flips.  The sum
// goes through unsigned so the wrap is the same with every compiler (signed
// overflow would be undefined behaviour, not a reliable wrong answer).
#include <cstdio>
#include <vector>

namespace {

// Decide one board of side n; tiles before the current one are kept in a
// Fenwick tree so the submission is fast and only the overflow is wrong.
bool solvable(int n) {
    const int size = n * n;
    std::vector<int> tree(size + 1, 0);
    int inversions = 0;
    int tiles_before = 0;
    int blank_row = 0;
    for (int i = 0; i < size; ++i) {
        int value = 0;
        if (scanf("%d", &value) != 1) return false;
        if (value == 0) {
            blank_row = i / n;
            continue;
        }
        int smaller = 0;
        for (int k = value; k > 0; k -= k & -k) smaller += tree[k];
        for (int k = value; k <= size; k += k & -k) ++tree[k];
        inversions = static_cast<int>(static_cast<unsigned>(inversions) +
                                      static_cast<unsigned>(tiles_before - smaller));
        ++tiles_before;
    }
    const bool odd = inversions % 2 == 1;
    if (n % 2 == 1) return !odd;
    return odd == ((n - 1 - blank_row) % 2 == 1);
}

}  // namespace

int main() {
    int n = 0;
    while (scanf("%d", &n) == 1 && n != 0) puts(solvable(n) ? "YES" : "NO");
    return 0;
}
