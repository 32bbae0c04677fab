// Accepted (Java): the reference's construction, written for the JVM.
//
// Solvability: tile inversions even (odd n), or tile inversions plus the
// blank's row counted from the bottom even (even n); the inversion parity
// comes from the cycles of the tile sequence.
// Construction, touching only cells that are not finished yet:
//  1. Rows 0..n-3, left to right: a tile walks to its cell along a shortest
//     path of free cells, the blank routed ahead of it by breadth-first
//     search (never through the tile or a finished cell). The last two tiles
//     a, b of a row go in as a pair: a waits in b's cell, b right below it,
//     the blank enters a's cell and "RD" drops both into place.
//  2. The last two rows, column by column, with the pair method transposed.
//  3. The final 2x2 block: the blank to the corner, then at most one cycle.
// The pair method is stuck in one position (b in a's cell while a waits,
// the blank able to come in only through b); a fixed 17-move pattern in the
// 3x2 block next to the pair (2x3 for columns) solves it. Neighbouring
// moves that undo each other are cancelled at the end.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StreamTokenizer;
import java.util.Arrays;

public class Main {
    private static final String ROW_FINISH = "RD";
    private static final String ROW_TRAP = "URDDLURULDDRULURD";
    private static final String CORNER_CYCLE = "ULDR";
    private static final String CORNER_BACK = "LURD";
    private static final char[] ORDER = {'U', 'D', 'L', 'R'};

    private final int n;
    private final int[] cells;
    private final int[] where;
    private final boolean[] locked;
    private final StringBuilder moves = new StringBuilder();

    private Main(int n, int[] cells) {
        this.n = n;
        this.cells = cells;
        where = new int[n * n];
        locked = new boolean[n * n];
        for (int cell = 0; cell < n * n; ++cell) where[cells[cell]] = cell;
    }

    private static char transposed(char move) {
        switch (move) {
            case 'U': return 'L';
            case 'D': return 'R';
            case 'L': return 'U';
            default: return 'D';
        }
    }

    private static char inverse(char move) {
        switch (move) {
            case 'U': return 'D';
            case 'D': return 'U';
            case 'L': return 'R';
            default: return 'L';
        }
    }

    private static String transposedAll(String letters) {
        StringBuilder out = new StringBuilder();
        for (char move : letters.toCharArray()) out.append(transposed(move));
        return out.toString();
    }

    private static boolean solvable(int n, int[] cells) {
        int[] tiles = new int[n * n - 1];
        int count = 0, blank = 0;
        for (int cell = 0; cell < n * n; ++cell) {
            if (cells[cell] == 0) blank = cell;
            else tiles[count++] = cells[cell];
        }
        boolean[] seen = new boolean[count];
        int cycles = 0;
        for (int start = 0; start < count; ++start) {
            if (seen[start]) continue;
            ++cycles;
            for (int i = start; !seen[i]; i = tiles[i] - 1) seen[i] = true;
        }
        int parity = (count - cycles) % 2;
        if (n % 2 == 0) parity += n - 1 - blank / n;
        return parity % 2 == 0;
    }

    private static String cancelInversePairs(CharSequence letters) {
        StringBuilder kept = new StringBuilder();
        for (int i = 0; i < letters.length(); ++i) {
            char move = letters.charAt(i);
            int last = kept.length() - 1;
            if (last >= 0 && kept.charAt(last) == inverse(move)) kept.setLength(last);
            else kept.append(move);
        }
        return kept.toString();
    }

    // Neighbour of `cell` in direction `move`, or -1 off the board.
    private int step(int cell, char move) {
        int row = cell / n, col = cell % n;
        switch (move) {
            case 'U': return row > 0 ? cell - n : -1;
            case 'D': return row < n - 1 ? cell + n : -1;
            case 'L': return col > 0 ? cell - 1 : -1;
            default: return col < n - 1 ? cell + 1 : -1;
        }
    }

    private void play(String letters) {
        for (char letter : letters.toCharArray()) {
            int blank = where[0];
            int other = step(blank, letter);
            int tile = cells[other];
            cells[blank] = tile;
            cells[other] = 0;
            where[tile] = blank;
            where[0] = other;
            moves.append(letter);
        }
    }

    // Letters of a shortest walk over unlocked cells other than `blocked`.
    private String path(int start, int goal, int blocked) {
        int[] from = new int[n * n];
        char[] via = new char[n * n];
        Arrays.fill(from, -1);
        int[] queue = new int[n * n];
        int head = 0, tail = 0;
        queue[tail++] = start;
        from[start] = start;
        while (head < tail && from[goal] < 0) {
            int cell = queue[head++];
            for (char move : ORDER) {
                int next = step(cell, move);
                if (next < 0 || from[next] >= 0 || locked[next] || next == blocked) continue;
                from[next] = cell;
                via[next] = move;
                queue[tail++] = next;
            }
        }
        if (from[goal] < 0) throw new IllegalStateException("no free path");
        StringBuilder letters = new StringBuilder();
        for (int cell = goal; cell != start; cell = from[cell]) letters.append(via[cell]);
        return letters.reverse().toString();
    }

    private void routeBlank(int goal, int avoid) {
        play(path(where[0], goal, avoid));
    }

    private void moveTile(int tile, int goal) {
        for (char move : path(where[tile], goal, -1).toCharArray()) {
            int next = step(where[tile], move);
            routeBlank(next, where[tile]);
            play(String.valueOf(inverse(move)));
        }
    }

    // Finish `first` and `second` together; see the header comment.
    private void placePair(int first, int second, int below, int hub, String finish, String trap) {
        int tileA = first + 1, tileB = second + 1;
        if (cells[first] == tileA && cells[second] == tileB) {
            locked[first] = locked[second] = true;
            return;
        }
        moveTile(tileA, second);
        locked[second] = true;
        if (where[0] == first && where[tileB] == hub) routeBlank(hub, -1);
        if (where[tileB] == first) {
            routeBlank(hub, first);
            play(trap);
        } else {
            moveTile(tileB, below);
            locked[below] = true;
            routeBlank(first, -1);
            locked[below] = false;
            play(finish);
        }
        locked[first] = true;
    }

    private boolean solved() {
        for (int cell = 0; cell + 1 < n * n; ++cell) {
            if (cells[cell] != cell + 1) return false;
        }
        return true;
    }

    private String solve() {
        for (int row = 0; row + 2 < n; ++row) {
            for (int col = 0; col + 2 < n; ++col) {
                int cell = row * n + col;
                moveTile(cell + 1, cell);
                locked[cell] = true;
            }
            int end = row * n + n - 1;
            placePair(end - 1, end, end + n, end + n - 1, ROW_FINISH, ROW_TRAP);
        }
        for (int col = 0; col + 2 < n; ++col) {
            int top = (n - 2) * n + col;
            placePair(top, top + n, top + n + 1, top + 1, transposedAll(ROW_FINISH), transposedAll(ROW_TRAP));
        }
        routeBlank(n * n - 1, -1);
        if (!solved()) play(CORNER_CYCLE);
        // Undo the cycle and turn the other way; the cancellation leaves one CORNER_BACK.
        if (!solved()) play(CORNER_BACK + CORNER_BACK);
        if (!solved()) throw new IllegalStateException("construction ended on an unsolved board");
        return cancelInversePairs(moves);
    }

    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        in.nextToken();
        int n = (int) in.nval;
        int[] cells = new int[n * n];
        for (int cell = 0; cell < n * n; ++cell) {
            in.nextToken();
            cells[cell] = (int) in.nval;
        }
        System.out.println(solvable(n, cells) ? new Main(n, cells).solve() : "No Answer!");
    }
}
