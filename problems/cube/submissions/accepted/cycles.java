// Accepted (Java): the parity rule of the statement's notes. The boxes, read
// in input order without the empty compartment, form a permutation whose
// parity is that of their inversions, found from its cycles in O(M^3). A move
// along y or z carries a box over M-1 or M^2-1 others, so for even M the
// empty compartment's distances dy + dz to the far faces count too; for odd
// M they do not, and a move along x never changes anything. The input (up to
// about 7.6 MB) is read at once and parsed by hand.
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
        int[] tiles = new int[1];
        boolean[] seen = new boolean[1];
        int cabinets = in.read();
        for (int c = 0; c < cabinets; ++c) {
            int m = in.read();
            int size = m * m * m;
            if (tiles.length < size) {
                tiles = new int[size];
                seen = new boolean[size];
            }
            int count = 0, blank = 0;
            for (int slot = 0; slot < size; ++slot) {
                int value = in.read();
                if (value == 0) {
                    blank = slot;
                } else {
                    seen[count] = false;
                    tiles[count++] = value - 1;
                }
            }
            int cycles = 0;
            for (int start = 0; start < count; ++start) {
                if (seen[start]) continue;
                ++cycles;
                for (int i = start; !seen[i]; i = tiles[i]) seen[i] = true;
            }
            int parity = (count - cycles) & 1;
            if (m % 2 == 0) {
                int y = blank / m % m, z = blank / (m * m);
                parity ^= ((m - 1 - y) + (m - 1 - z)) & 1;
            }
            out.append(parity == 0 ? "Puzzle can be solved.\n" : "Puzzle is unsolvable.\n");
        }
        System.out.print(out);
        System.out.flush();
    }
}
