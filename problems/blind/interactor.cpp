// Interactor for "Blindfold" (Kattis protocol).
//
//     interactor INPUT ANSWER FEEDBACK_DIR/ < submission's stdout > submission's stdin
//
// INPUT holds the hidden boards and the fewest moves of each (-1: cannot be
// solved); ANSWER is not read. The interactor plays every round as the
// statement says, simulating each move, and exits 42 when every board was
// solved in the fewest moves (or rightly called impossible) and nothing
// followed, else 43, with one line saying why in FEEDBACK_DIR/judgemessage.txt.
// A defective INPUT is the jury's fault: exit 1 (a judge error).
//
// The submission is untrusted: its output is read token by token with a
// bounded token length, so garbage, a missing newline or an endless line
// cannot make the interactor misbehave; its end of output (exit, crash,
// close) is a wrong answer unless every round is over; SIGPIPE is ignored
// and a failed write (the submission stopped reading) is a wrong answer
// too. Every reply is flushed at once: the submission waits for it.
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const int ACCEPTED = 42;
const int WRONG_ANSWER = 43;
const int JURY_ERROR = 1;
const size_t MAX_TOKEN = 24;

std::string feedback_path;

[[noreturn]] void finish(int code, const char* format, ...) {
    char line[512];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    FILE* out = fopen(feedback_path.c_str(), "w");
    if (out != nullptr) {
        fprintf(out, "%s\n", line);
        fclose(out);
    }
    if (code == JURY_ERROR) fprintf(stderr, "%s\n", line);
    exit(out == nullptr ? JURY_ERROR : code);
}

// A token of the submission as printable text for a message: at most MAX_TOKEN bytes, others as \xNN.
std::string shown(const std::string& token) {
    std::string out;
    for (unsigned char ch : token) {
        if (ch >= 0x20 && ch < 0x7f && ch != '\\') {
            out += static_cast<char>(ch);
        } else {
            char escape[8];
            snprintf(escape, sizeof escape, "\\x%02x", ch);
            out += escape;
        }
    }
    return out;
}

// The next whitespace-separated token of the submission's output; false at its end.
bool next_token(std::string& token) {
    token.clear();
    int ch;
    do {
        ch = getchar();
    } while (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t');
    if (ch == EOF) return false;
    while (ch != EOF && ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t') {
        if (token.size() == MAX_TOKEN) finish(WRONG_ANSWER, "garbage: a token longer than %zu bytes starting `%s`", MAX_TOKEN, shown(token).c_str());
        token += static_cast<char>(ch);
        ch = getchar();
    }
    return true;
}

struct Board {
    int rows = 0, cols = 0, fewest = 0;
    std::vector<int> cells;
};

std::vector<Board> read_input(const char* path) {
    FILE* in = fopen(path, "r");
    if (in == nullptr) finish(JURY_ERROR, "cannot open the input %s: %s", path, strerror(errno));
    int count = 0;
    if (fscanf(in, "%d", &count) != 1 || count < 1) finish(JURY_ERROR, "input: no number of boards");
    std::vector<Board> boards(count);
    for (Board& board : boards) {
        if (fscanf(in, "%d %d %d", &board.rows, &board.cols, &board.fewest) != 3 || board.rows < 1 || board.cols < 1 ||
            board.rows * board.cols > 64)
            finish(JURY_ERROR, "input: a bad board header");
        board.cells.resize(board.rows * board.cols);
        for (int& cell : board.cells)
            if (fscanf(in, "%d", &cell) != 1) finish(JURY_ERROR, "input: a board ends early");
    }
    fclose(in);
    return boards;
}

void say(int round, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int written = vprintf(format, args);
    va_end(args);
    if (written < 0 || fflush(stdout) != 0)
        finish(WRONG_ANSWER, "round %d: the submission stopped reading its input", round);
}

// A 1-based coordinate after `?`, as the submission wrote it.
int coordinate(int round, const char* what, int bound) {
    std::string token;
    if (!next_token(token)) finish(WRONG_ANSWER, "round %d: the output ends inside a query", round);
    if (token.empty() || token.size() > 3 || token.find_first_not_of("0123456789") != std::string::npos)
        finish(WRONG_ANSWER, "round %d: `%s` is not a %s number", round, shown(token).c_str(), what);
    int value = atoi(token.c_str());
    if (value < 1 || value > bound) finish(WRONG_ANSWER, "round %d: %s %d is outside 1..%d", round, what, value, bound);
    return value;
}

bool solved(const Board& board) {
    int size = static_cast<int>(board.cells.size());
    for (int i = 0; i < size - 1; ++i)
        if (board.cells[i] != i + 1) return false;
    return board.cells[size - 1] == 0;
}

// One round, its moves and queries added to the totals; a broken rule ends the program with a wrong answer.
void play(int round, Board board, long& total_moves, long& total_queries) {
    const int size = board.rows * board.cols;
    int blank = 0;
    while (board.cells[blank] != 0) ++blank;
    say(round, "%d %d\n", board.rows, board.cols);
    int queries = 0, moves = 0;
    std::string token;
    for (;;) {
        if (!next_token(token)) finish(WRONG_ANSWER, "round %d: the submission's output ended before `!` (after %d moves)", round, moves);
        if (token == "?") {
            int r = coordinate(round, "row", board.rows);
            int c = coordinate(round, "column", board.cols);
            if (++queries > size - 1) finish(WRONG_ANSWER, "round %d: query %d; a %dx%d board allows %d", round, queries, board.rows, board.cols, size - 1);
            say(round, "%d\n", board.cells[(r - 1) * board.cols + (c - 1)]);
        } else if (token == "U" || token == "D" || token == "L" || token == "R") {
            int r = blank / board.cols, c = blank % board.cols;
            if (board.fewest < 0) finish(WRONG_ANSWER, "round %d: move %s on a board that cannot be solved", round, token.c_str());
            if (++moves > board.fewest) finish(WRONG_ANSWER, "round %d: move %d; the board is solved in %d", round, moves, board.fewest);
            int nr = r + (token == "D") - (token == "U"), nc = c + (token == "R") - (token == "L");
            if (nr < 0 || nr >= board.rows || nc < 0 || nc >= board.cols)
                finish(WRONG_ANSWER, "round %d: move %d (%s) takes the blank off the board from row %d, column %d", round, moves, token.c_str(), r + 1, c + 1);
            int other = nr * board.cols + nc;
            board.cells[blank] = board.cells[other];
            board.cells[other] = 0;
            blank = other;
        } else if (token == "!") {
            if (!next_token(token)) finish(WRONG_ANSWER, "round %d: the output ends after `!`", round);
            if (token == "done") {
                if (board.fewest < 0) finish(WRONG_ANSWER, "round %d: `! done`, but this board cannot be solved", round);
                if (!solved(board)) finish(WRONG_ANSWER, "round %d: `! done` after %d moves, but the board is not solved", round, moves);
            } else if (token == "impossible") {
                if (board.fewest >= 0) finish(WRONG_ANSWER, "round %d: `! impossible`, but %d moves solve this board", round, board.fewest);
            } else {
                finish(WRONG_ANSWER, "round %d: `! %s`; expected `! done` or `! impossible`", round, shown(token).c_str());
            }
            total_moves += moves;
            total_queries += queries;
            return;
        } else {
            finish(WRONG_ANSWER, "round %d: unknown command `%s`", round, shown(token).c_str());
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc < 4) {
        fprintf(stderr, "usage: interactor INPUT ANSWER FEEDBACK_DIR/\n");
        return JURY_ERROR;
    }
    feedback_path = std::string(argv[3]);
    if (!feedback_path.empty() && feedback_path.back() != '/') feedback_path += '/';
    feedback_path += "judgemessage.txt";
    std::vector<Board> boards = read_input(argv[1]);
    long moves = 0, queries = 0;
    say(1, "%zu\n", boards.size());
    for (size_t i = 0; i < boards.size(); ++i) play(static_cast<int>(i + 1), boards[i], moves, queries);
    std::string token;
    if (next_token(token)) finish(WRONG_ANSWER, "output after the last round: `%s`", shown(token).c_str());
    finish(ACCEPTED, "%zu boards, %ld moves, %ld queries", boards.size(), moves, queries);
}
