// Accepted (Java): one breadth-first search from the goal, then look-ups.
// Moves are reversible, so the search reaches exactly the 9!/2 solvable
// boards and records for each the blank's move one step closer to the goal;
// a board is then answered by following those moves (a shortest solution),
// and a board the search never reached is unsolvable. Boards are numbered by
// their rank among the 9! permutations (Lehmer code), so the table is a byte
// array and the search allocates nothing per board.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.Arrays;

public class Main {
    private static final int CELLS = 9;
    private static final int[] FACTORIAL = {40320, 5040, 720, 120, 24, 6, 2, 1, 1};
    private static final char[] LETTERS = {'u', 'd', 'l', 'r'};
    private static final int[] OPPOSITE = {1, 0, 3, 2};

    // The rank of a board (values 0..8, the blank as 0) among all permutations.
    private static int rank(int[] board) {
        int result = 0;
        for (int i = 0; i < CELLS; ++i) {
            int smaller = 0;
            for (int j = i + 1; j < CELLS; ++j) if (board[j] < board[i]) ++smaller;
            result += smaller * FACTORIAL[i];
        }
        return result;
    }

    // The board of a rank: position i holds the (code / (8-i)!)-th value not used yet.
    private static void unrank(int code, int[] board) {
        boolean[] used = new boolean[CELLS];
        for (int i = 0; i < CELLS; ++i) {
            int skip = code / FACTORIAL[i];
            code %= FACTORIAL[i];
            int value = 0;
            while (used[value] || skip-- > 0) ++value;
            used[value] = true;
            board[i] = value;
        }
    }

    // The cell the blank reaches from `cell` in direction d (u, d, l, r), or -1.
    private static int step(int cell, int d) {
        int row = cell / 3, col = cell % 3;
        switch (d) {
            case 0: return row > 0 ? cell - 3 : -1;
            case 1: return row < 2 ? cell + 3 : -1;
            case 2: return col > 0 ? cell - 1 : -1;
            default: return col < 2 ? cell + 1 : -1;
        }
    }

    private static int blank(int[] board) {
        int cell = 0;
        while (board[cell] != 0) ++cell;
        return cell;
    }

    // towardGoal[rank]: the blank's move towards the goal, -1 at the goal, -2 if unsolvable.
    private static byte[] searchFromGoal() {
        byte[] toward = new byte[FACTORIAL[0] * CELLS];
        Arrays.fill(toward, (byte) -2);
        int[] board = {1, 2, 3, 4, 5, 6, 7, 8, 0};
        int[] queue = new int[toward.length / 2];
        int head = 0, tail = 0;
        queue[tail++] = rank(board);
        toward[queue[0]] = -1;
        while (head < tail) {
            unrank(queue[head++], board);
            int from = blank(board);
            for (int d = 0; d < 4; ++d) {
                int to = step(from, d);
                if (to < 0) continue;
                board[from] = board[to];
                board[to] = 0;
                int code = rank(board);
                if (toward[code] == -2) {
                    toward[code] = (byte) OPPOSITE[d];
                    queue[tail++] = code;
                }
                board[to] = board[from];
                board[from] = 0;
            }
        }
        return toward;
    }

    public static void main(String[] args) throws IOException {
        byte[] toward = searchFromGoal();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        int[] board = new int[CELLS];
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] tokens = line.trim().split(" ");
            if (tokens.length < CELLS) continue;
            for (int i = 0; i < CELLS; ++i) board[i] = tokens[i].equals("x") ? 0 : Integer.parseInt(tokens[i]);
            int code = rank(board);
            if (toward[code] == -2) {
                out.append("unsolvable\n");
                continue;
            }
            for (int move = toward[code]; move >= 0; move = toward[code]) {
                int from = blank(board), to = step(from, move);
                board[from] = board[to];
                board[to] = 0;
                out.append(LETTERS[move]);
                code = rank(board);
            }
            out.append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }
}
