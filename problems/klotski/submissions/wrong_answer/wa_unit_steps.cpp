// WRONG: another convention. Each step of one cell counts as a move (the
// rule under which the classic start is often quoted as 116 moves), so the
// search only tries single steps and prints each as a move of its own: legal
// moves, but more of them than the statement's minimum whenever a piece has
// to turn a corner or slide more than one cell.
#include <algorithm>
#include <cstdio>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

int H, W;

// A position is the board as a string of shape codes, so pieces of one shape
// are interchangeable: K (2x2), l r (1x2), t b (2x1), s (1x1), '.' and '#'.
struct Shape {
    char code[4];
    int cells;
    int dr[4], dc[4];
};
const Shape kShapes[4] = {
    {{'K', 'K', 'K', 'K'}, 4, {0, 0, 1, 1}, {0, 1, 0, 1}},
    {{'l', 'r'}, 2, {0, 0}, {0, 1}},
    {{'t', 'b'}, 2, {0, 1}, {0, 0}},
    {{'s'}, 1, {0}, {0}},
};
const int kDr[4] = {-1, 1, 0, 0};
const int kDc[4] = {0, 0, -1, 1};
const char kDir[4] = {'U', 'D', 'L', 'R'};

struct Step {
    std::string parent;
    int from;
    std::string path;
};

int shapeAt(const std::string& s, int cell) {
    switch (s[cell]) {
        case 'K': return (cell % W && s[cell - 1] == 'K') || (cell >= W && s[cell - W] == 'K') ? -1 : 0;
        case 'l': return 1;
        case 't': return 2;
        case 's': return 3;
        default: return -1;
    }
}

bool fits(const std::string& s, const Shape& shape, int r, int c) {
    for (int k = 0; k < shape.cells; ++k) {
        const int rr = r + shape.dr[k], cc = c + shape.dc[k];
        if (rr < 0 || rr >= H || cc < 0 || cc >= W || s[rr * W + cc] != '.') return false;
    }
    return true;
}

void paint(std::string& s, const Shape& shape, int cell, bool place) {
    for (int k = 0; k < shape.cells; ++k) {
        s[cell + shape.dr[k] * W + shape.dc[k]] = place ? shape.code[k] : '.';
    }
}

// Every (position, from, path) one move away.
std::vector<std::pair<std::string, Step>> moves(const std::string& s) {
    std::vector<std::pair<std::string, Step>> found;
    for (int cell = 0; cell < H * W; ++cell) {
        const int kind = shapeAt(s, cell);
        if (kind < 0) continue;
        const Shape& shape = kShapes[kind];
        std::string empty = s;
        paint(empty, shape, cell, false);
        std::vector<std::string> path(H * W);
        std::vector<char> seen(H * W, 0);
        std::queue<int> todo;
        todo.push(cell);
        seen[cell] = 1;
        while (!todo.empty()) {
            const int at = todo.front();
            todo.pop();
            for (int d = 0; d < 4 && at == cell; ++d) {
                const int r = at / W + kDr[d], c = at % W + kDc[d];
                if (!fits(empty, shape, r, c) || seen[r * W + c]) continue;
                seen[r * W + c] = 1;
                path[r * W + c] = path[at] + kDir[d];
                todo.push(r * W + c);
                std::string next = empty;
                paint(next, shape, r * W + c, true);
                found.push_back({next, Step{s, cell, path[r * W + c]}});
            }
        }
    }
    return found;
}

bool solved(const std::string& s) {
    const int goal = (H - 2) * W + W / 2 - 1;
    return s[goal] == 'K' && shapeAt(s, goal) == 0;
}

std::string solve(std::vector<std::string> grid) {
    std::string start;
    for (int r = 0; r < H; ++r) {
        for (int c = 0; c < W; ++c) {
            const char x = grid[r][c];
            if (x == '.' || x == '#') {
                start += x;
                continue;
            }
            const bool left = c && grid[r][c - 1] == x, right = c + 1 < W && grid[r][c + 1] == x;
            const bool up = r && grid[r - 1][c] == x, down = r + 1 < H && grid[r + 1][c] == x;
            if ((left || right) && (up || down)) start += 'K';
            else if (left || right) start += right ? 'l' : 'r';
            else if (up || down) start += down ? 't' : 'b';
            else start += 's';
        }
    }
    std::unordered_map<std::string, Step> parent{{start, Step{"", -1, ""}}};
    std::queue<std::string> queue;
    queue.push(start);
    std::string end = solved(start) ? start : "";
    while (!queue.empty() && end.empty()) {
        const std::string s = queue.front();
        queue.pop();
        for (auto& [next, step] : moves(s)) {
            if (parent.count(next)) continue;
            parent[next] = step;
            if (solved(next)) {
                end = next;
                break;
            }
            queue.push(next);
        }
    }
    if (end.empty()) return "impossible\n";
    std::vector<Step> steps;
    for (std::string s = end; parent[s].from >= 0; s = parent[s].parent) steps.push_back(parent[s]);
    std::reverse(steps.begin(), steps.end());
    std::string out = std::to_string(steps.size()) + "\n";
    for (const Step& step : steps) {
        const char letter = grid[step.from / W][step.from % W];
        std::vector<std::pair<int, int>> cells;
        for (int r = 0; r < H; ++r) {
            for (int c = 0; c < W; ++c) {
                if (grid[r][c] == letter) {
                    cells.push_back({r, c});
                    grid[r][c] = '.';
                }
            }
        }
        for (char move : step.path) {
            const int d = static_cast<int>(std::string("UDLR").find(move));
            for (auto& cell : cells) cell = {cell.first + kDr[d], cell.second + kDc[d]};
        }
        for (auto& cell : cells) grid[cell.first][cell.second] = letter;
        out += std::string(1, letter) + " " + step.path + "\n";
    }
    return out;
}

}  // namespace

int main() {
    int boards;
    if (std::scanf("%d", &boards) != 1) return 1;
    std::string out;
    for (int b = 0; b < boards; ++b) {
        std::scanf("%d %d", &H, &W);
        std::vector<std::string> grid(H);
        char row[16];
        for (auto& line : grid) {
            std::scanf("%15s", row);
            line = row;
        }
        out += solve(grid);
    }
    std::fputs(out.c_str(), stdout);
    return 0;
}
