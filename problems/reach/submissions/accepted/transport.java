// Accepted (Java): the reference's rule. On a board with both sides >= 2 the
// target is reachable iff the parity of the permutation carrying the start
// onto the target (blank included) equals the parity of the Manhattan
// distance between the two blanks; the permutation's parity comes from its
// cycles in O(M*N). A single row or column never reorders its tiles: there
// the tiles, read in order, must be the same. The input (up to 14 MB) is read
// at once and parsed by hand; the arrays grow to the largest board and are
// reused, so 50 000 tiny pairs allocate nothing.
import java.io.IOException;

public class Main {
    private final byte[] data;
    private int pos;
    private int[] start = new int[4];
    private int[] target = new int[4];
    private int[] where = new int[4];
    private int[] next = new int[4];

    private Main(byte[] data) {
        this.data = data;
    }

    private int read() {
        while (data[pos] < '0') ++pos;
        int value = 0;
        while (pos < data.length && data[pos] >= '0') value = value * 10 + data[pos++] - '0';
        return value;
    }

    private boolean sameTileOrder(int size) {
        int j = 0;
        for (int cell = 0; cell < size; ++cell) {
            if (start[cell] == 0) continue;
            while (target[j] == 0) ++j;
            if (target[j++] != start[cell]) return false;
        }
        return true;
    }

    // Parity of the permutation cell -> cell of the same value in the target.
    private int transportParity(int size) {
        for (int cell = 0; cell < size; ++cell) where[target[cell]] = cell;
        for (int cell = 0; cell < size; ++cell) next[cell] = where[start[cell]];
        int cycles = 0;
        for (int first = 0; first < size; ++first) {
            if (next[first] < 0) continue;
            ++cycles;
            for (int cell = first; next[cell] >= 0; ) {
                int following = next[cell];
                next[cell] = -1;
                cell = following;
            }
        }
        return (size - cycles) & 1;
    }

    private boolean reachable(int rows, int cols) {
        int size = rows * cols;
        if (rows == 1 || cols == 1) return sameTileOrder(size);
        int from = 0, to = 0;
        while (start[from] != 0) ++from;
        while (target[to] != 0) ++to;
        int distance = Math.abs(from / cols - to / cols) + Math.abs(from % cols - to % cols);
        return transportParity(size) == (distance & 1);
    }

    private void run(StringBuilder out) {
        while (true) {
            int rows = read(), cols = read();
            if (rows == 0 && cols == 0) return;
            int size = rows * cols;
            if (start.length < size) {
                start = new int[size];
                target = new int[size];
                where = new int[size];
                next = new int[size];
            }
            for (int cell = 0; cell < size; ++cell) start[cell] = read();
            for (int cell = 0; cell < size; ++cell) target[cell] = read();
            out.append(reachable(rows, cols) ? "YES\n" : "NO\n");
        }
    }

    public static void main(String[] args) throws IOException {
        StringBuilder out = new StringBuilder();
        new Main(System.in.readAllBytes()).run(out);
        System.out.print(out);
        System.out.flush();
    }
}
