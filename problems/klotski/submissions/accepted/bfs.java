// Accepted (Java): breadth-first search over positions in which pieces of one
// shape are interchangeable, as in the C++ reference. A position is three
// longs: the 1x2 anchors with the 2x2 piece's anchor above bit 36, the 2x1
// anchors, the 1x1 anchors; positions live in parallel arrays indexed by an
// open-addressing table, so the search allocates no object per position.
// Input is read in one go and output written through one StringBuilder.
import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;

public class Main {
    private static final int[] HEIGHT = {2, 1, 2, 1};
    private static final int[] WIDTH = {2, 2, 1, 1};
    private static final char[] LETTERS = {'U', 'D', 'L', 'R'};
    private static final int KING_SHIFT = 36;
    private static final long FIELD = (1L << KING_SHIFT) - 1;

    private final int rows;
    private final int cols;
    private final char[][] grid;
    private final long[][] foot = new long[4][];
    private final int[][] step;
    private final int goal;
    private long walls;

    private long[] first = new long[1 << 10];
    private long[] second = new long[1 << 10];
    private long[] third = new long[1 << 10];
    private int[] parent = new int[1 << 10];
    private int[] via = new int[1 << 10];  // shape | from << 2 | to << 8
    private int size;
    private int[] slots = new int[1 << 11];

    private Main(int rows, int cols, char[][] grid) {
        this.rows = rows;
        this.cols = cols;
        this.grid = grid;
        int cells = rows * cols;
        step = new int[cells][4];
        for (int shape = 0; shape < 4; ++shape) foot[shape] = new long[cells];
        for (int cell = 0; cell < cells; ++cell) {
            int row = cell / cols, col = cell % cols;
            if (grid[row][col] == '#') walls |= 1L << cell;
            step[cell][0] = row > 0 ? cell - cols : -1;
            step[cell][1] = row + 1 < rows ? cell + cols : -1;
            step[cell][2] = col > 0 ? cell - 1 : -1;
            step[cell][3] = col + 1 < cols ? cell + 1 : -1;
            for (int shape = 0; shape < 4; ++shape) {
                if (row + HEIGHT[shape] > rows || col + WIDTH[shape] > cols) continue;
                for (int r = 0; r < HEIGHT[shape]; ++r) {
                    for (int c = 0; c < WIDTH[shape]; ++c) foot[shape][cell] |= 1L << ((row + r) * cols + col + c);
                }
            }
        }
        goal = (rows - 2) * cols + cols / 2 - 1;
        Arrays.fill(slots, -1);
    }

    private char at(int cell) {
        return grid[cell / cols][cell % cols];
    }

    private static int hash(long a, long b, long c) {
        long h = a * 0x9E3779B97F4A7C15L;
        h = (h ^ (h >>> 31) ^ b) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ (h >>> 29) ^ c) * 0x94D049BB133111EBL;
        return (int) (h ^ (h >>> 32));
    }

    // Adds the position unless known; true if it was new.
    private boolean add(long a, long b, long c, int from, int move) {
        if (2 * (size + 1) > slots.length) grow();
        int mask = slots.length - 1;
        int at = hash(a, b, c) & mask;
        while (slots[at] >= 0) {
            int i = slots[at];
            if (first[i] == a && second[i] == b && third[i] == c) return false;
            at = (at + 1) & mask;
        }
        if (size == first.length) {
            int bigger = size * 2;
            first = Arrays.copyOf(first, bigger);
            second = Arrays.copyOf(second, bigger);
            third = Arrays.copyOf(third, bigger);
            parent = Arrays.copyOf(parent, bigger);
            via = Arrays.copyOf(via, bigger);
        }
        first[size] = a;
        second[size] = b;
        third[size] = c;
        parent[size] = from;
        via[size] = move;
        slots[at] = size++;
        return true;
    }

    private void grow() {
        slots = new int[slots.length * 2];
        Arrays.fill(slots, -1);
        int mask = slots.length - 1;
        for (int i = 0; i < size; ++i) {
            int at = hash(first[i], second[i], third[i]) & mask;
            while (slots[at] >= 0) at = (at + 1) & mask;
            slots[at] = i;
        }
    }

    // Anchors the piece (shape, anchor) reaches through cells not in `used`.
    private long reachable(int shape, int anchor, long used) {
        long seen = 1L << anchor;
        int[] stack = new int[rows * cols];
        int top = 0;
        stack[top++] = anchor;
        while (top > 0) {
            int cell = stack[--top];
            for (int d = 0; d < 4; ++d) {
                int next = step[cell][d];
                if (next < 0 || (seen >>> next & 1) != 0) continue;
                long f = foot[shape][next];
                if (f == 0 || (f & used) != 0) continue;
                seen |= 1L << next;
                stack[top++] = next;
            }
        }
        return seen & ~(1L << anchor);
    }

    private long[] start() {
        long[] anchors = new long[4];
        for (int cell = 0; cell < rows * cols; ++cell) {
            char letter = at(cell);
            int row = cell / cols, col = cell % cols;
            if (letter == '.' || letter == '#') continue;
            if ((row > 0 && grid[row - 1][col] == letter) || (col > 0 && grid[row][col - 1] == letter)) continue;
            boolean wide = col + 1 < cols && grid[row][col + 1] == letter;
            boolean tall = row + 1 < rows && grid[row + 1][col] == letter;
            int shape = wide && tall ? 0 : wide ? 1 : tall ? 2 : 3;
            anchors[shape] |= shape == 0 ? cell : 1L << cell;
        }
        return anchors;
    }

    // Index of the first position with the 2x2 piece on the exit, or -1.
    private int search() {
        long[] s = start();
        add(s[1] | s[0] << KING_SHIFT, s[2], s[3], -1, 0);
        if ((int) s[0] == goal) return 0;
        for (int head = 0; head < size; ++head) {
            long a = first[head], b = second[head], c = third[head];
            int king = (int) (a >>> KING_SHIFT);
            long[] anchors = {0, a & FIELD, b, c};
            long used = walls | foot[0][king];
            for (int shape = 1; shape < 4; ++shape) {
                for (long rest = anchors[shape]; rest != 0; rest &= rest - 1) {
                    used |= foot[shape][Long.numberOfTrailingZeros(rest)];
                }
            }
            for (long to = reachable(0, king, used & ~foot[0][king]); to != 0; to &= to - 1) {
                int target = Long.numberOfTrailingZeros(to);
                if (add((a & FIELD) | (long) target << KING_SHIFT, b, c, head, target << 8 | king << 2) && target == goal) {
                    return size - 1;
                }
            }
            for (int shape = 1; shape < 4; ++shape) {
                for (long rest = anchors[shape]; rest != 0; rest &= rest - 1) {
                    int from = Long.numberOfTrailingZeros(rest);
                    for (long to = reachable(shape, from, used & ~foot[shape][from]); to != 0; to &= to - 1) {
                        int target = Long.numberOfTrailingZeros(to);
                        long flip = 1L << from | 1L << target;
                        add(shape == 1 ? a ^ flip : a, shape == 2 ? b ^ flip : b, shape == 3 ? c ^ flip : c,
                            head, target << 8 | from << 2 | shape);
                    }
                }
            }
        }
        return -1;
    }

    // Moves the piece on the lettered grid and appends "letter path".
    private void replay(int move, StringBuilder out) {
        int shape = move & 3, from = move >> 2 & 63, to = move >> 8;
        int cells = rows * cols;
        char letter = at(from);
        long used = walls;
        for (int cell = 0; cell < cells; ++cell) {
            if (at(cell) != '.' && at(cell) != letter) used |= 1L << cell;
        }
        int[] came = new int[cells];
        char[] how = new char[cells];
        Arrays.fill(came, -1);
        int[] queue = new int[cells];
        int head = 0, tail = 0;
        queue[tail++] = from;
        came[from] = from;
        while (came[to] < 0) {
            int cell = queue[head++];
            for (int d = 0; d < 4; ++d) {
                int next = step[cell][d];
                if (next < 0 || came[next] >= 0) continue;
                long f = foot[shape][next];
                if (f == 0 || (f & used) != 0) continue;
                came[next] = cell;
                how[next] = LETTERS[d];
                queue[tail++] = next;
            }
        }
        StringBuilder path = new StringBuilder();
        for (int cell = to; cell != from; cell = came[cell]) path.append(how[cell]);
        for (long rest = foot[shape][from]; rest != 0; rest &= rest - 1) {
            int cell = Long.numberOfTrailingZeros(rest);
            grid[cell / cols][cell % cols] = '.';
        }
        for (long rest = foot[shape][to]; rest != 0; rest &= rest - 1) {
            int cell = Long.numberOfTrailingZeros(rest);
            grid[cell / cols][cell % cols] = letter;
        }
        out.append(letter).append(' ').append(path.reverse()).append('\n');
    }

    private void answer(StringBuilder out) {
        int found = search();
        if (found < 0) {
            out.append("impossible\n");
            return;
        }
        int count = 0;
        for (int i = found; i > 0; i = parent[i]) ++count;
        int[] moves = new int[count];
        for (int i = found, k = count - 1; i > 0; i = parent[i]) moves[k--] = via[i];
        out.append(count).append('\n');
        for (int move : moves) replay(move, out);
    }

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(System.in);
        byte[] data = in.readAllBytes();
        int[] pos = {0};
        int boards = Integer.parseInt(token(data, pos));
        StringBuilder out = new StringBuilder();
        for (int b = 0; b < boards; ++b) {
            int rows = Integer.parseInt(token(data, pos));
            int cols = Integer.parseInt(token(data, pos));
            char[][] grid = new char[rows][];
            for (int r = 0; r < rows; ++r) grid[r] = token(data, pos).toCharArray();
            new Main(rows, cols, grid).answer(out);
        }
        PrintStream stdout = new PrintStream(System.out, false);
        stdout.print(out);
        stdout.flush();
    }

    private static String token(byte[] data, int[] pos) {
        int i = pos[0];
        while (data[i] <= ' ') ++i;
        int start = i;
        while (i < data.length && data[i] > ' ') ++i;
        pos[0] = i;
        return new String(data, start, i - start);
    }
}
