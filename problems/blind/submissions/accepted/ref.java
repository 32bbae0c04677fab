// Accepted (Java): read every cell but the last (the missing number is the
// last one), then walk down a table of distances to the goal, built once per
// board shape by a breadth-first search outward from the goal. A board is a
// long of 4 bits per cell; a board missing from the table cannot be solved.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.StringTokenizer;

public class Main {
    private static final int[] DR = {-1, 1, 0, 0};
    private static final int[] DC = {0, 0, -1, 1};
    private static final char[] NAME = {'U', 'D', 'L', 'R'};

    private static int cell(long board, int i) {
        return (int) ((board >>> (4 * i)) & 15);
    }

    private static long swapped(long board, int a, int b) {
        long x = cell(board, a), y = cell(board, b);
        board &= ~((15L << (4 * a)) | (15L << (4 * b)));
        return board | (y << (4 * a)) | (x << (4 * b));
    }

    private static int blankOf(long board, int size) {
        for (int i = 0; i < size; i++) {
            if (cell(board, i) == 0) {
                return i;
            }
        }
        return -1;
    }

    private static Map<Long, Integer> distances(int rows, int cols) {
        int size = rows * cols;
        long goal = 0;
        for (int i = 0; i < size - 1; i++) {
            goal |= (long) (i + 1) << (4 * i);
        }
        Map<Long, Integer> dist = new HashMap<>();
        dist.put(goal, 0);
        ArrayDeque<Long> queue = new ArrayDeque<>();
        queue.add(goal);
        while (!queue.isEmpty()) {
            long board = queue.poll();
            int blank = blankOf(board, size), r = blank / cols, c = blank % cols, d = dist.get(board);
            for (int k = 0; k < 4; k++) {
                int nr = r + DR[k], nc = c + DC[k];
                if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) {
                    continue;
                }
                long next = swapped(board, blank, nr * cols + nc);
                if (!dist.containsKey(next)) {
                    dist.put(next, d + 1);
                    queue.add(next);
                }
            }
        }
        return dist;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(System.out);
        Map<Integer, Map<Long, Integer>> tables = new HashMap<>();
        int rounds = Integer.parseInt(in.readLine().trim());
        for (int round = 0; round < rounds; round++) {
            StringTokenizer shape = new StringTokenizer(in.readLine());
            int rows = Integer.parseInt(shape.nextToken()), cols = Integer.parseInt(shape.nextToken());
            int size = rows * cols, missing = size * (size - 1) / 2;
            long board = 0;
            for (int i = 0; i < size - 1; i++) {
                out.printf("? %d %d%n", i / cols + 1, i % cols + 1);
                out.flush();
                int tile = Integer.parseInt(in.readLine().trim());
                board |= (long) tile << (4 * i);
                missing -= tile;
            }
            board |= (long) missing << (4 * (size - 1));
            Map<Long, Integer> dist = tables.computeIfAbsent(rows * 16 + cols, key -> distances(rows, cols));
            Integer found = dist.get(board);
            if (found == null) {
                out.println("! impossible");
                out.flush();
                continue;
            }
            for (int d = found; d > 0; d--) {
                int blank = blankOf(board, size), r = blank / cols, c = blank % cols;
                for (int k = 0; k < 4; k++) {
                    int nr = r + DR[k], nc = c + DC[k];
                    if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) {
                        continue;
                    }
                    long next = swapped(board, blank, nr * cols + nc);
                    Integer step = dist.get(next);
                    if (step != null && step == d - 1) {
                        out.println(NAME[k]);
                        board = next;
                        break;
                    }
                }
            }
            out.println("! done");
            out.flush();
        }
    }
}
