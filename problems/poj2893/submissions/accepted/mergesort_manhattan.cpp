// Accepted: the general sliding-puzzle invariant. Treat the blank as the
// largest value L, count inversions of the whole board with a merge sort
// (64-bit), and require inversions + Manhattan distance of the blank from the
// bottom-right cell to be even.
#include <cstdio>
#include <vector>

namespace {

long long mergeCount(std::vector<int>& a, std::vector<int>& buffer, int lo, int hi) {
    if (hi - lo < 2) {
        return 0;
    }
    const int mid = lo + (hi - lo) / 2;
    long long count = mergeCount(a, buffer, lo, mid) + mergeCount(a, buffer, mid, hi);
    int i = lo;
    int j = mid;
    int k = lo;
    while (i < mid || j < hi) {
        if (j == hi || (i < mid && a[i] <= a[j])) {
            buffer[k++] = a[i++];
        } else {
            count += mid - i;
            buffer[k++] = a[j++];
        }
    }
    for (k = lo; k < hi; ++k) {
        a[k] = buffer[k];
    }
    return count;
}

}  // namespace

int main() {
    int rows;
    int cols;
    std::vector<int> cells;
    std::vector<int> buffer;
    while (std::scanf("%d %d", &rows, &cols) == 2 && (rows != 0 || cols != 0)) {
        const int size = rows * cols;
        cells.resize(size);
        buffer.resize(size);
        int blank = 0;
        for (int cell = 0; cell < size; ++cell) {
            std::scanf("%d", &cells[cell]);
            if (cells[cell] == 0) {
                blank = cell;
            }
        }
        cells[blank] = size;
        const long long manhattan = (rows - 1 - blank / cols) + (cols - 1 - blank % cols);
        const bool ok = (mergeCount(cells, buffer, 0, size) + manhattan) % 2 == 0;
        std::puts(ok ? "YES" : "NO");
    }
    return 0;
}
