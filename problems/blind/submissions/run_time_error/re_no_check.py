"""Run-time error: the reference without the check for boards that cannot be solved: the lookup of
such a board's distance raises KeyError."""

import sys
from collections import deque

MOVES = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))


def distances(rows, cols):
    goal = bytes(list(range(1, rows * cols)) + [0])
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        blank = board.index(0)
        r, c = divmod(blank, cols)
        d = dist[board] + 1
        for _, dr, dc in MOVES:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols:
                cells = bytearray(board)
                other = nr * cols + nc
                cells[blank], cells[other] = cells[other], 0
                nxt = bytes(cells)
                if nxt not in dist:
                    dist[nxt] = d
                    queue.append(nxt)
    return dist


def main():
    stdin, stdout = sys.stdin, sys.stdout
    tables = {}
    rounds = int(stdin.readline())
    for _ in range(rounds):
        rows, cols = map(int, stdin.readline().split())
        size = rows * cols
        cells = []
        for i in range(size - 1):
            stdout.write(f"? {i // cols + 1} {i % cols + 1}\n")
            stdout.flush()
            cells.append(int(stdin.readline()))
        cells.append(size * (size - 1) // 2 - sum(cells))
        if (rows, cols) not in tables:
            tables[(rows, cols)] = distances(rows, cols)
        dist = tables[(rows, cols)]
        board = bytes(cells)
        out = []
        while dist[board]:
            blank = board.index(0)
            r, c = divmod(blank, cols)
            for name, dr, dc in MOVES:
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols:
                    cells = bytearray(board)
                    other = nr * cols + nc
                    cells[blank], cells[other] = cells[other], 0
                    if dist.get(bytes(cells), -1) == dist[board] - 1:
                        out.append(name)
                        board = bytes(cells)
                        break
        stdout.write("".join(f"{name}\n" for name in out) + "! done\n")
        stdout.flush()


main()
