// Accepted (Java): the reference's rule. A board is solvable iff
// inv + (M-1-r)*(N-1) is even (inv: inversions among the tiles, r: the
// blank's row from the top); the parity of inv comes in O(M*N) from the
// cycles of the permutation that sends every cell to the goal cell of its
// content, so no inversion count (and no 64-bit overflow) is needed. The
// whole input is read at once and parsed by hand: about 7 MB of digits.
import java.io.IOException;
import java.io.InputStream;

public class Main {
    private final byte[] data;
    private int pos;

    private Main(byte[] data) {
        this.data = data;
    }

    private int next() {
        while (data[pos] < '0') ++pos;
        int value = 0;
        while (pos < data.length && data[pos] >= '0') value = value * 10 + data[pos++] - '0';
        return value;
    }

    // Parity of the permutation cell -> goal cell of its content (blank -> last cell).
    private static int cycleParity(int[] target, boolean[] seen, int size) {
        int cycles = 0;
        for (int start = 0; start < size; ++start) {
            if (seen[start]) continue;
            ++cycles;
            for (int cell = start; !seen[cell]; cell = target[cell]) seen[cell] = true;
        }
        return (size - cycles) & 1;
    }

    public static void main(String[] args) throws IOException {
        InputStream in = System.in;
        Main reader = new Main(in.readAllBytes());
        StringBuilder out = new StringBuilder();
        int[] target = new int[0];
        boolean[] seen = new boolean[0];
        while (true) {
            int rows = reader.next(), cols = reader.next();
            if (rows == 0 && cols == 0) break;
            int size = rows * cols;
            if (target.length < size) {
                target = new int[size];
                seen = new boolean[size];
            }
            int blank = 0;
            for (int cell = 0; cell < size; ++cell) {
                int value = reader.next();
                if (value == 0) {
                    blank = cell;
                    target[cell] = size - 1;
                } else {
                    target[cell] = value - 1;
                }
                seen[cell] = false;
            }
            // Sending the blank to the last cell added size-1-blank inversions.
            int invParity = (cycleParity(target, seen, size) + size - 1 - blank) & 1;
            long rowTerm = (long) (rows - 1 - blank / cols) * (cols - 1);
            out.append(((invParity + rowTerm) & 1) == 0 ? "YES\n" : "NO\n");
        }
        System.out.print(out);
        System.out.flush();
    }
}
