// Tangram: lay the seven pieces on each figure, or say it cannot be done (reference, Java).
//
// The same search as ref.cpp: exact arithmetic in Z[sqrt2] after scaling a
// figure by the least common multiple D of its denominators (a number is a
// pair of longs (a, b) standing for (a + b*sqrt2) / D); the sign of a + b*sqrt2
// compares a^2 with 2 b^2 in 128 bits (Math.multiplyHigh). At each step the
// lowest free point of the figure is filled by a piece whose own lowest
// vertex and first 45-degree sector are there; complete, so "impossible" is
// proven. A figure whose area is not 16 is impossible at once.
import java.io.*;
import java.math.BigInteger;
import java.util.*;

public class Main {
    static final String KINDS = "LMSQP";
    static final int[] COUNT = {2, 1, 2, 1, 1};
    static final long[][][] SHAPES = {
        {{0, 0, 0, 0}, {4, 0, 0, 0}, {2, 0, 2, 0}},
        {{0, 0, 0, 0}, {2, 0, 0, 0}, {0, 0, 2, 0}},
        {{0, 0, 0, 0}, {2, 0, 0, 0}, {1, 0, 1, 0}},
        {{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 1}, {0, 0, 0, 1}},
        {{0, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 1, 0}, {1, 0, 1, 0}},
    };

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        for (String line; (line = in.readLine()) != null; ) all.append(line).append(' ');
        String[] tokens = all.toString().trim().split("\\s+");
        int at = 0;
        int figures = Integer.parseInt(tokens[at++]);
        StringBuilder out = new StringBuilder();
        while (figures-- > 0) {
            int parts = Integer.parseInt(tokens[at++]);
            List<long[][][]> raw = new ArrayList<>();
            long scale = 1;
            for (int k = 0; k < parts; k++) {
                int n = Integer.parseInt(tokens[at++]);
                long[][][] poly = new long[n * 2][][];
                for (int i = 0; i < 2 * n; i++) {
                    poly[i] = parseNumber(tokens[at++]);
                    for (long[] r : poly[i]) scale = scale / gcd(scale, r[1]) * r[1];
                }
                raw.add(poly);
            }
            List<Pt[]> figure = new ArrayList<>();
            for (long[][][] poly : raw) {
                Pt[] scaled = new Pt[poly.length / 2];
                for (int i = 0; i < scaled.length; i++) {
                    long[][] x = poly[2 * i], y = poly[2 * i + 1];
                    scaled[i] = new Pt(x[0][0] * (scale / x[0][1]), x[1][0] * (scale / x[1][1]), y[0][0] * (scale / y[0][1]), y[1][0] * (scale / y[1][1]));
                }
                figure.add(scaled);
            }
            BigInteger areaA = BigInteger.ZERO, areaB = BigInteger.ZERO;
            for (Pt[] poly : figure)
                for (int i = 0; i < poly.length; i++) {
                    Pt p = poly[i], q = poly[(i + 1) % poly.length];
                    areaA = areaA.add(mul(p.xa, q.ya)).add(mul(2 * p.xb, q.yb)).subtract(mul(p.ya, q.xa)).subtract(mul(2 * p.yb, q.xb));
                    areaB = areaB.add(mul(p.xa, q.yb)).add(mul(p.xb, q.ya)).subtract(mul(p.ya, q.xb)).subtract(mul(p.yb, q.xa));
                }
            Solver solver = new Solver(figure, scale);
            if (areaB.signum() != 0 || !areaA.equals(mul(32 * scale, scale)) || !solver.search()) {
                out.append("impossible\n");
                continue;
            }
            int[] used = new int[5];
            for (Placed piece : solver.placed) {
                String name = String.valueOf(KINDS.charAt(piece.kind)) + (COUNT[piece.kind] == 2 ? String.valueOf(++used[piece.kind]) : "");
                out.append(name).append(' ').append(piece.rot).append(' ').append(piece.flip).append(' ')
                   .append(show(piece.t.xa, piece.t.xb, scale)).append(' ').append(show(piece.t.ya, piece.t.yb, scale)).append('\n');
            }
        }
        System.out.print(out);
    }

    /** A point: x = xa + xb*sqrt2, y = ya + yb*sqrt2 (scaled by D). */
    record Pt(long xa, long xb, long ya, long yb) {
        Pt plus(Pt o) { return new Pt(xa + o.xa, xb + o.xb, ya + o.ya, yb + o.yb); }
        Pt minus(Pt o) { return new Pt(xa - o.xa, xb - o.xb, ya - o.ya, yb - o.yb); }
    }

    /** a^2 > 2 b^2 for a, b >= 0, exactly. */
    static boolean squareGreater(long a, long b) {
        long hiA = Math.multiplyHigh(a, a), loA = a * a;
        long hiB = Math.multiplyHigh(b, b), loB = b * b;
        long hiB2 = (hiB << 1) | (loB >>> 63), loB2 = loB << 1;
        if (hiA != hiB2) return hiA > hiB2;
        return Long.compareUnsigned(loA, loB2) > 0;
    }

    static int sign(long a, long b) {
        if (a >= 0 && b >= 0) return (a > 0 || b > 0) ? 1 : 0;
        if (a <= 0 && b <= 0) return -1;
        if (a > 0) return squareGreater(a, -b) ? 1 : -1;
        return squareGreater(-a, b) ? -1 : 1;
    }

    static int cross(Pt o, Pt p, Pt q) {
        long ax = p.xa - o.xa, bx = p.xb - o.xb, ay = p.ya - o.ya, by = p.yb - o.yb;
        long cx = q.xa - o.xa, dx = q.xb - o.xb, cy = q.ya - o.ya, dy = q.yb - o.yb;
        return sign(ax * cy + 2 * bx * dy - ay * cx - 2 * by * dx, ax * dy + bx * cy - ay * dx - by * cx);
    }

    static int compare(Pt p, Pt q) {
        int s = sign(p.ya - q.ya, p.yb - q.yb);
        return s != 0 ? s : sign(p.xa - q.xa, p.xb - q.xb);
    }

    static final int[][] TABLE = {{5, 4, 3}, {6, -1, 2}, {7, 0, 1}};

    static int direction(Pt p, Pt q) {
        return TABLE[sign(q.xa - p.xa, q.xb - p.xb) + 1][sign(q.ya - p.ya, q.yb - p.yb) + 1];
    }

    static int sectors(int first, int last) {
        int mask = 0;
        for (int d = first; d != last; d = (d + 1) % 8) mask |= 1 << d;
        return mask;
    }

    static int[] vertexMasks(Pt[] poly) {
        int n = poly.length;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) out[i] = sectors(direction(poly[i], poly[(i + 1) % n]), direction(poly[i], poly[(i + n - 1) % n]));
        return out;
    }

    static boolean strictlyBetween(Pt p, Pt a, Pt b) {
        if (p.equals(a) || p.equals(b) || cross(a, b, p) != 0) return false;
        int x1 = sign(p.xa - a.xa, p.xb - a.xb), x2 = sign(p.xa - b.xa, p.xb - b.xb);
        int y1 = sign(p.ya - a.ya, p.yb - a.yb), y2 = sign(p.ya - b.ya, p.yb - b.yb);
        return x1 * x2 <= 0 && y1 * y2 <= 0;
    }

    static int winding(Pt p, Pt[] poly) {
        int total = 0, n = poly.length;
        for (int i = 0; i < n; i++) {
            Pt a = poly[i], b = poly[(i + 1) % n];
            boolean aLe = sign(a.ya - p.ya, a.yb - p.yb) <= 0, bLe = sign(b.ya - p.ya, b.yb - p.yb) <= 0;
            if (aLe && !bLe && cross(a, b, p) > 0) total++;
            else if (bLe && !aLe && cross(a, b, p) < 0) total--;
        }
        return total;
    }

    static int pointMask(Pt p, List<Pt[]> polys, List<int[]> masks, boolean interior) {
        int cover = 0;
        for (int k = 0; k < polys.size(); k++) {
            Pt[] poly = polys.get(k);
            int n = poly.length;
            boolean hit = false;
            for (int i = 0; i < n && !hit; i++) if (poly[i].equals(p)) { cover |= masks.get(k)[i]; hit = true; }
            for (int i = 0; i < n && !hit; i++)
                if (strictlyBetween(p, poly[i], poly[(i + 1) % n])) {
                    int d = direction(poly[i], poly[(i + 1) % n]);
                    cover |= sectors(d, (d + 4) % 8);
                    hit = true;
                }
            if (!hit && interior && winding(p, poly) != 0) cover |= 255;
        }
        return cover;
    }

    static boolean overlap(Pt[] a, Pt[] b) {
        for (int pass = 0; pass < 2; pass++) {
            Pt[] f = pass == 0 ? a : b, s = pass == 0 ? b : a;
            for (int i = 0; i < f.length; i++) {
                boolean out = true;
                for (Pt r : s) if (cross(f[i], f[(i + 1) % f.length], r) > 0) { out = false; break; }
                if (out) return false;
            }
        }
        return true;
    }

    static boolean enters(Pt a, Pt b, Pt[] poly) {
        int n = poly.length;
        for (int i = 0; i < n; i++)
            if (cross(poly[i], poly[(i + 1) % n], a) <= 0 && cross(poly[i], poly[(i + 1) % n], b) <= 0) return false;
        boolean pos = false, neg = false;
        for (Pt r : poly) {
            int c = cross(a, b, r);
            pos |= c > 0;
            neg |= c < 0;
        }
        return pos && neg;
    }

    record Orient(int rot, int flip, int low, int mask, Pt[] shape) {}

    record Placed(int kind, int rot, int flip, Pt[] verts, int[] masks, Pt t) {}

    static Pt rotate(Pt p) {
        return new Pt(p.xb - p.yb, (p.xa - p.ya) / 2, p.xb + p.yb, (p.xa + p.ya) / 2);
    }

    static List<Orient> orientations(int kind, long scale) {
        Set<List<Pt>> seen = new HashSet<>();
        List<Orient> out = new ArrayList<>();
        for (int flip = 0; flip < 2; flip++) {
            int n = SHAPES[kind].length;
            Pt[] pts = new Pt[n];
            for (int i = 0; i < n; i++) {
                long[] c = SHAPES[kind][flip == 1 ? n - 1 - i : i];
                pts[i] = flip == 1 ? new Pt(-c[0], -c[1], c[2], c[3]) : new Pt(c[0], c[1], c[2], c[3]);
            }
            for (int rot = 0; rot < 8; rot++) {
                int low = 0;
                for (int i = 1; i < n; i++) if (compare(pts[i], pts[low]) < 0) low = i;
                List<Pt> key = new ArrayList<>();
                for (Pt p : pts) key.add(p.minus(pts[low]));
                key.sort(Comparator.comparingLong(Pt::xa).thenComparingLong(Pt::xb).thenComparingLong(Pt::ya).thenComparingLong(Pt::yb));
                if (seen.add(key)) {
                    Pt[] scaled = new Pt[n];
                    for (int i = 0; i < n; i++) scaled[i] = new Pt(pts[i].xa * scale, pts[i].xb * scale, pts[i].ya * scale, pts[i].yb * scale);
                    out.add(new Orient(rot, flip, low, vertexMasks(scaled)[low], scaled));
                }
                for (int i = 0; i < n; i++) pts[i] = rotate(pts[i]);
            }
        }
        return out;
    }

    static final class Solver {
        final List<Pt[]> figure;
        final List<int[]> fmasks = new ArrayList<>();
        final List<Pt[]> fedges = new ArrayList<>();
        final List<List<Orient>> kinds = new ArrayList<>();
        final int[] left = COUNT.clone();
        final List<Placed> placed = new ArrayList<>();
        final Map<Pt, Integer> inside = new HashMap<>();

        Solver(List<Pt[]> figure, long scale) {
            this.figure = figure;
            for (Pt[] poly : figure) {
                fmasks.add(vertexMasks(poly));
                for (int i = 0; i < poly.length; i++) fedges.add(new Pt[] {poly[i], poly[(i + 1) % poly.length]});
            }
            for (int k = 0; k < 5; k++) kinds.add(orientations(k, scale));
        }

        int figureMask(Pt p) {
            return inside.computeIfAbsent(p, q -> pointMask(q, figure, fmasks, true));
        }

        boolean fits(Pt[] verts) {
            for (Placed piece : placed) if (overlap(verts, piece.verts)) return false;
            for (Pt[] e : fedges) if (enters(e[0], e[1], verts)) return false;
            return true;
        }

        boolean search() {
            if (placed.size() == 7) return true;
            List<Pt> points = new ArrayList<>();
            for (Pt[] poly : figure) points.addAll(Arrays.asList(poly));
            for (Placed piece : placed) points.addAll(Arrays.asList(piece.verts));
            points.sort(Main::compare);
            List<Pt[]> polys = new ArrayList<>();
            List<int[]> masks = new ArrayList<>();
            for (Placed piece : placed) { polys.add(piece.verts); masks.add(piece.masks); }
            Pt v = null;
            int free = 0;
            for (Pt p : points) {
                int f = figureMask(p);
                if (f != 0) f &= ~pointMask(p, polys, masks, false);
                if (f != 0) { v = p; free = f; break; }
            }
            if (v == null) return false;
            int first = Integer.numberOfTrailingZeros(free);
            for (int k = 0; k < 5; k++) {
                if (left[k] == 0) continue;
                for (Orient o : kinds.get(k)) {
                    if ((o.mask & ~free) != 0 || ((o.mask >> first) & 1) == 0 || ((o.mask >> ((first + 7) % 8)) & 1) != 0) continue;
                    Pt t = v.minus(o.shape[o.low]);
                    Pt[] verts = new Pt[o.shape.length];
                    for (int i = 0; i < verts.length; i++) verts[i] = o.shape[i].plus(t);
                    if (!fits(verts)) continue;
                    placed.add(new Placed(k, o.rot, o.flip, verts, vertexMasks(verts), t));
                    left[k]--;
                    if (search()) return true;
                    left[k]++;
                    placed.remove(placed.size() - 1);
                }
            }
            return false;
        }
    }

    /** A rational p/q as {p, q}. */
    static long[] parseRational(String s) {
        int slash = s.indexOf('/');
        if (slash < 0) return new long[] {Long.parseLong(s), 1};
        return new long[] {Long.parseLong(s.substring(0, slash)), Long.parseLong(s.substring(slash + 1))};
    }

    /** {a, b} of a + b*sqrt2 from `A`, `A+Bs`, `A-Bs` or `Bs`. */
    static long[][] parseNumber(String text) {
        if (!text.endsWith("s")) return new long[][] {parseRational(text), {0, 1}};
        String body = text.substring(0, text.length() - 1);
        int cut = Math.max(body.lastIndexOf('+'), body.lastIndexOf('-'));
        if (cut <= 0) {
            long[] b = parseRational(body.startsWith("-") ? body.substring(1) : body);
            if (body.startsWith("-")) b[0] = -b[0];
            return new long[][] {{0, 1}, b};
        }
        long[] b = parseRational(body.substring(cut + 1));
        if (body.charAt(cut) == '-') b[0] = -b[0];
        return new long[][] {parseRational(body.substring(0, cut)), b};
    }

    static long gcd(long a, long b) { return b == 0 ? Math.abs(a) : gcd(b, a % b); }

    static String showRational(long num, long den) {
        long g = gcd(num, den);
        num /= g;
        den /= g;
        return den == 1 ? Long.toString(num) : num + "/" + den;
    }

    static String show(long a, long b, long scale) {
        if (b == 0) return showRational(a, scale);
        String coef = showRational(Math.abs(b), scale) + "s";
        if (a == 0) return (b < 0 ? "-" : "") + coef;
        return showRational(a, scale) + (b < 0 ? "-" : "+") + coef;
    }

    static BigInteger mul(long a, long b) { return BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)); }
}
