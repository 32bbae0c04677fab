// Accepted (Java): send every cell to the goal index of its value (tile v to
// v-1, the blank to the last cell). A move of the blank is a transposition
// of that permutation and changes the blank's taxicab distance to the
// bottom-right corner by one, so a board is solvable iff the permutation's
// parity, (L - cycles) mod 2, equals the parity of that distance: O(L) per
// board and no inversion count that could overflow. The input (up to about
// 6 MB) is read at once and parsed by hand; arrays are reused across boards.
import java.io.IOException;

public class Main {
    private final byte[] data;
    private int pos;

    private Main(byte[] data) {
        this.data = data;
    }

    private int read() {
        while (data[pos] < '0') ++pos;
        int value = 0;
        while (pos < data.length && data[pos] >= '0') value = value * 10 + data[pos++] - '0';
        return value;
    }

    public static void main(String[] args) throws IOException {
        Main in = new Main(System.in.readAllBytes());
        StringBuilder out = new StringBuilder();
        int[] target = new int[1];
        boolean[] seen = new boolean[1];
        for (int n = in.read(); n != 0; n = in.read()) {
            int size = n * n;
            if (target.length < size) {
                target = new int[size];
                seen = new boolean[size];
            }
            int blank = 0;
            for (int cell = 0; cell < size; ++cell) {
                int value = in.read();
                if (value == 0) blank = cell;
                target[cell] = value == 0 ? size - 1 : value - 1;
                seen[cell] = false;
            }
            int cycles = 0;
            for (int start = 0; start < size; ++start) {
                if (seen[start]) continue;
                ++cycles;
                for (int cell = start; !seen[cell]; cell = target[cell]) seen[cell] = true;
            }
            int distance = (n - 1 - blank / n) + (n - 1 - blank % n);
            out.append(((size - cycles) & 1) == (distance & 1) ? "YES\n" : "NO\n");
        }
        System.out.print(out);
        System.out.flush();
    }
}
