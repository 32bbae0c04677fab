// Tangram by trying every piece at every corner (right, but too slow).
//
// Any remaining piece, in any orientation, with any of its corners on any corner
// of the figure or of a piece already laid, in any order: a superset of the
// reference's moves, so it finds an arrangement whenever one exists; but without
// the rule "fill the lowest free point first" each arrangement is reached in
// every order, and a figure that has none is searched through all of them.
#include <algorithm>
#include <array>
#include <cstdint>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>
using namespace std;
typedef long long ll;
typedef __int128 big;

struct Pt {
    ll xa, xb, ya, yb;  // x = xa + xb*sqrt2, y = ya + yb*sqrt2 (scaled by D)
    bool operator==(const Pt& o) const { return xa == o.xa && xb == o.xb && ya == o.ya && yb == o.yb; }
    bool operator<(const Pt& o) const {
        return array<ll, 4>{xa, xb, ya, yb} < array<ll, 4>{o.xa, o.xb, o.ya, o.yb};
    }
};
typedef vector<Pt> Poly;

int sgn(big a, big b) {  // sign of a + b*sqrt2
    if (a >= 0 && b >= 0) return (a > 0 || b > 0) ? 1 : 0;
    if (a <= 0 && b <= 0) return -1;
    // opposite signs: |a| ~ |b|*sqrt2 decided by a^2 vs 2 b^2; |a|, |b| < 2^62 after the bounds, squares in 128 bits
    unsigned __int128 aa = (unsigned __int128)(a < 0 ? -a : a) * (unsigned __int128)(a < 0 ? -a : a);
    unsigned __int128 bb = (unsigned __int128)(b < 0 ? -b : b) * (unsigned __int128)(b < 0 ? -b : b) * 2;
    if (a > 0) return aa > bb ? 1 : -1;
    return bb > aa ? 1 : -1;
}

int cross(const Pt& o, const Pt& p, const Pt& q) {
    big ax = p.xa - o.xa, bx = p.xb - o.xb, ay = p.ya - o.ya, by = p.yb - o.yb;
    big cx = q.xa - o.xa, dx = q.xb - o.xb, cy = q.ya - o.ya, dy = q.yb - o.yb;
    return sgn(ax * cy + 2 * bx * dy - ay * cx - 2 * by * dx, ax * dy + bx * cy - ay * dx - by * cx);
}

bool before(const Pt& p, const Pt& q) {  // lower, then further left
    int s = sgn(p.ya - q.ya, p.yb - q.yb);
    if (s) return s < 0;
    return sgn(p.xa - q.xa, p.xb - q.xb) < 0;
}

int direction(const Pt& p, const Pt& q) {
    int sx = sgn(q.xa - p.xa, q.xb - p.xb), sy = sgn(q.ya - p.ya, q.yb - p.yb);
    static const int table[3][3] = {{5, 4, 3}, {6, -1, 2}, {7, 0, 1}};
    return table[sx + 1][sy + 1];
}

int sectors(int first, int last) {
    int mask = 0;
    for (int d = first; d != last; d = (d + 1) % 8) mask |= 1 << d;
    return mask;
}

vector<int> vertexMasks(const Poly& poly) {
    int n = poly.size();
    vector<int> out(n);
    for (int i = 0; i < n; i++) out[i] = sectors(direction(poly[i], poly[(i + 1) % n]), direction(poly[i], poly[(i + n - 1) % n]));
    return out;
}

bool strictlyBetween(const Pt& p, const Pt& a, const Pt& b) {
    if (p == a || p == b || cross(a, b, p) != 0) return false;
    int x1 = sgn(p.xa - a.xa, p.xb - a.xb), x2 = sgn(p.xa - b.xa, p.xb - b.xb);
    int y1 = sgn(p.ya - a.ya, p.yb - a.yb), y2 = sgn(p.ya - b.ya, p.yb - b.yb);
    return x1 * x2 <= 0 && y1 * y2 <= 0;
}

int winding(const Pt& p, const Poly& poly) {
    int total = 0, n = poly.size();
    for (int i = 0; i < n; i++) {
        const Pt &a = poly[i], &b = poly[(i + 1) % n];
        bool aLe = sgn(a.ya - p.ya, a.yb - p.yb) <= 0, bLe = sgn(b.ya - p.ya, b.yb - p.yb) <= 0;
        if (aLe && !bLe && cross(a, b, p) > 0) total++;
        else if (bLe && !aLe && cross(a, b, p) < 0) total--;
    }
    return total;
}

int pointMask(const Pt& p, const vector<const Poly*>& polys, const vector<const vector<int>*>& masks, bool interior) {
    int cover = 0;
    for (size_t k = 0; k < polys.size(); k++) {
        const Poly& poly = *polys[k];
        int n = poly.size();
        bool hit = false;
        for (int i = 0; i < n && !hit; i++)
            if (poly[i] == p) { cover |= (*masks[k])[i]; hit = true; }
        for (int i = 0; i < n && !hit; i++)
            if (strictlyBetween(p, poly[i], poly[(i + 1) % n])) {
                int d = direction(poly[i], poly[(i + 1) % n]);
                cover |= sectors(d, (d + 4) % 8);
                hit = true;
            }
        if (!hit && interior && winding(p, poly)) cover |= 255;
    }
    return cover;
}

bool overlap(const Poly& a, const Poly& b) {
    for (int pass = 0; pass < 2; pass++) {
        const Poly &f = pass ? b : a, &s = pass ? a : b;
        int n = f.size();
        for (int i = 0; i < n; i++) {
            bool out = true;
            for (const Pt& r : s) if (cross(f[i], f[(i + 1) % n], r) > 0) { out = false; break; }
            if (out) return false;
        }
    }
    return true;
}

bool enters(const Pt& a, const Pt& b, const Poly& poly) {
    int n = poly.size();
    for (int i = 0; i < n; i++)
        if (cross(poly[i], poly[(i + 1) % n], a) <= 0 && cross(poly[i], poly[(i + 1) % n], b) <= 0) return false;
    bool pos = false, neg = false;
    for (const Pt& r : poly) {
        int c = cross(a, b, r);
        pos |= c > 0;
        neg |= c < 0;
    }
    return pos && neg;
}

struct Orient { int rot, flip, low, mask; Poly shape; };
struct Placed { int kind, rot, flip; Poly verts; vector<int> masks; Pt t; };

const char* KINDS = "LMSQP";
const int COUNT[5] = {2, 1, 2, 1, 1};
const vector<vector<array<ll, 4>>> SHAPES = {
    {{0, 0, 0, 0}, {4, 0, 0, 0}, {2, 0, 2, 0}},
    {{0, 0, 0, 0}, {2, 0, 0, 0}, {0, 0, 2, 0}},
    {{0, 0, 0, 0}, {2, 0, 0, 0}, {1, 0, 1, 0}},
    {{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 1}, {0, 0, 0, 1}},
    {{0, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 1, 0}, {1, 0, 1, 0}},
};

Pt rotate(const Pt& p) { return {p.xb - p.yb, (p.xa - p.ya) / 2, p.xb + p.yb, (p.xa + p.ya) / 2}; }

vector<Orient> orientations(int kind, ll scale) {
    set<vector<Pt>> seen;
    vector<Orient> out;
    for (int flip = 0; flip < 2; flip++) {
        Poly pts;
        for (auto& c : SHAPES[kind]) pts.push_back({c[0], c[1], c[2], c[3]});
        if (flip) {
            reverse(pts.begin(), pts.end());
            for (Pt& p : pts) { p.xa = -p.xa; p.xb = -p.xb; }
        }
        for (int rot = 0; rot < 8; rot++) {
            int low = 0;
            for (int i = 1; i < (int)pts.size(); i++) if (before(pts[i], pts[low])) low = i;
            vector<Pt> key;
            for (const Pt& p : pts) key.push_back({p.xa - pts[low].xa, p.xb - pts[low].xb, p.ya - pts[low].ya, p.yb - pts[low].yb});
            sort(key.begin(), key.end());
            if (seen.insert(key).second) {
                Poly scaled;
                for (const Pt& p : pts) scaled.push_back({p.xa * scale, p.xb * scale, p.ya * scale, p.yb * scale});
                out.push_back({rot, flip, low, vertexMasks(scaled)[low], scaled});
            }
            for (Pt& p : pts) p = rotate(p);
        }
    }
    return out;
}

struct Solver {
    vector<Poly> figure;
    vector<vector<int>> fmasks;
    vector<const Poly*> fpolys;
    vector<const vector<int>*> fmaskp;
    vector<pair<Pt, Pt>> fedges;
    vector<Orient> kinds[5];
    int left[5];
    vector<Placed> placed;
    map<Pt, int> inside;

    Solver(const vector<Poly>& fig, ll scale) : figure(fig) {
        for (auto& poly : figure) fmasks.push_back(vertexMasks(poly));
        for (size_t i = 0; i < figure.size(); i++) { fpolys.push_back(&figure[i]); fmaskp.push_back(&fmasks[i]); }
        for (auto& poly : figure)
            for (size_t i = 0; i < poly.size(); i++) fedges.push_back({poly[i], poly[(i + 1) % poly.size()]});
        for (int k = 0; k < 5; k++) { kinds[k] = orientations(k, scale); left[k] = COUNT[k]; }
    }

    int figureMask(const Pt& p) {
        auto it = inside.find(p);
        if (it != inside.end()) return it->second;
        return inside[p] = pointMask(p, fpolys, fmaskp, true);
    }

    bool lowestFree(Pt& best, int& free) {
        vector<Pt> points;
        for (auto& poly : figure) points.insert(points.end(), poly.begin(), poly.end());
        for (auto& piece : placed) points.insert(points.end(), piece.verts.begin(), piece.verts.end());
        sort(points.begin(), points.end(), before);
        vector<const Poly*> polys;
        vector<const vector<int>*> masks;
        for (auto& piece : placed) { polys.push_back(&piece.verts); masks.push_back(&piece.masks); }
        for (const Pt& p : points) {
            int f = figureMask(p);
            if (f) f &= ~pointMask(p, polys, masks, false);
            if (f) { best = p; free = f; return true; }
        }
        return false;
    }

    bool fits(const Poly& verts) {
        for (auto& piece : placed) if (overlap(verts, piece.verts)) return false;
        for (auto& e : fedges) if (enters(e.first, e.second, verts)) return false;
        return true;
    }

    bool search() {
        if (placed.size() == 7) return true;
        vector<Pt> points;
        for (auto& poly : figure) points.insert(points.end(), poly.begin(), poly.end());
        for (auto& piece : placed) points.insert(points.end(), piece.verts.begin(), piece.verts.end());
        for (int k = 0; k < 5; k++) {
            if (!left[k]) continue;
            for (const Orient& o : kinds[k])
            for (size_t corner = 0; corner < o.shape.size(); corner++)
            for (const Pt& v : points) {
                if (vertexMasks(o.shape)[corner] & ~figureMask(v)) continue;
                const Pt& l = o.shape[corner];
                Pt t{v.xa - l.xa, v.xb - l.xb, v.ya - l.ya, v.yb - l.yb};
                Poly verts;
                for (const Pt& p : o.shape) verts.push_back({p.xa + t.xa, p.xb + t.xb, p.ya + t.ya, p.yb + t.yb});
                if (!fits(verts)) continue;
                placed.push_back({k, o.rot, o.flip, verts, vertexMasks(verts), t});
                left[k]--;
                if (search()) return true;
                left[k]++;
                placed.pop_back();
            }
        }
        return false;
    }
};

struct Rat { ll num, den; };

Rat parseRational(const string& s) {
    size_t slash = s.find('/');
    if (slash == string::npos) return {stoll(s), 1};
    return {stoll(s.substr(0, slash)), stoll(s.substr(slash + 1))};
}

pair<Rat, Rat> parseNumber(const string& text) {
    if (text.back() != 's') return {parseRational(text), {0, 1}};
    string body = text.substr(0, text.size() - 1);
    size_t plus = body.rfind('+'), minus = body.rfind('-');
    long cut = max(plus == string::npos ? -1L : (long)plus, minus == string::npos ? -1L : (long)minus);
    if (cut <= 0) {
        Rat b = parseRational(body[0] == '-' ? body.substr(1) : body);
        if (body[0] == '-') b.num = -b.num;
        return {{0, 1}, b};
    }
    Rat b = parseRational(body.substr(cut + 1));
    if (body[cut] == '-') b.num = -b.num;
    return {parseRational(body.substr(0, cut)), b};
}

string showRational(ll num, ll den) {
    ll g = gcd(num < 0 ? -num : num, den);
    num /= g, den /= g;
    return den == 1 ? to_string(num) : to_string(num) + "/" + to_string(den);
}

string show(ll a, ll b, ll scale) {
    if (b == 0) return showRational(a, scale);
    string coef = showRational(b < 0 ? -b : b, scale) + "s";
    if (a == 0) return (b < 0 ? "-" : "") + coef;
    return showRational(a, scale) + (b < 0 ? "-" : "+") + coef;
}

int main() {
    ios::sync_with_stdio(false);
    int figures;
    cin >> figures;
    string out;
    while (figures--) {
        int parts;
        cin >> parts;
        vector<vector<array<pair<Rat, Rat>, 2>>> raw(parts);
        ll scale = 1;
        for (auto& poly : raw) {
            int n;
            cin >> n;
            poly.resize(n);
            for (auto& point : poly)
                for (auto& coord : point) {
                    string token;
                    cin >> token;
                    coord = parseNumber(token);
                    scale = lcm(scale, coord.first.den);
                    scale = lcm(scale, coord.second.den);
                }
        }
        vector<Poly> figure;
        for (auto& poly : raw) {
            Poly scaled;
            for (auto& point : poly) {
                auto v = [&](const Rat& r) { return r.num * (scale / r.den); };
                scaled.push_back({v(point[0].first), v(point[0].second), v(point[1].first), v(point[1].second)});
            }
            figure.push_back(scaled);
        }
        big areaA = 0, areaB = 0;
        for (auto& poly : figure)
            for (size_t i = 0; i < poly.size(); i++) {
                const Pt &p = poly[i], &q = poly[(i + 1) % poly.size()];
                areaA += (big)p.xa * q.ya + (big)2 * p.xb * q.yb - (big)p.ya * q.xa - (big)2 * p.yb * q.xb;
                areaB += (big)p.xa * q.yb + (big)p.xb * q.ya - (big)p.ya * q.xb - (big)p.yb * q.xa;
            }
        Solver solver(figure, scale);
        if (areaB != 0 || areaA != (big)32 * scale * scale || !solver.search()) {
            out += "impossible\n";
            continue;
        }
        int used[5] = {0, 0, 0, 0, 0};
        for (auto& piece : solver.placed) {
            string name(1, KINDS[piece.kind]);
            if (COUNT[piece.kind] == 2) name += to_string(++used[piece.kind]);
            out += name + " " + to_string(piece.rot) + " " + to_string(piece.flip) + " " + show(piece.t.xa, piece.t.xb, scale) + " " +
                   show(piece.t.ya, piece.t.yb, scale) + "\n";
        }
    }
    cout << out;
}
