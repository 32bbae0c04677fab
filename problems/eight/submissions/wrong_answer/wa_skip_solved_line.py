"""WRONG: prints a line only when there are moves to print.

An already solved board needs an empty line; skipping it shifts every later
answer up by one line, so they are judged against the wrong boards. The
solver itself is right: a breadth-first search from the goal gives every
solvable board its next move towards the goal.
"""

import sys
from collections import deque

GOAL = "12345678x"
OPPOSITE = {"u": "d", "d": "u", "l": "r", "r": "l"}
STEPS = {"u": -3, "d": 3, "l": -1, "r": 1}


def legal(cell: int, letter: str) -> bool:
    """True if the blank on `cell` can move in direction `letter`."""
    row, col = divmod(cell, 3)
    return {"u": row > 0, "d": row < 2, "l": col > 0, "r": col < 2}[letter]


def moved(board: str, letter: str) -> str:
    """The board after the blank moves in direction `letter`."""
    blank = board.index("x")
    target = blank + STEPS[letter]
    cells = list(board)
    cells[blank], cells[target] = cells[target], "x"
    return "".join(cells)


def towards_goal() -> dict[str, str]:
    """For every solvable board, the blank's next move on a shortest path to the goal."""
    following = {GOAL: ""}
    queue = deque([GOAL])
    while queue:
        board = queue.popleft()
        blank = board.index("x")
        for letter in STEPS:
            if legal(blank, letter):
                before = moved(board, letter)
                if before not in following:
                    following[before] = OPPOSITE[letter]
                    queue.append(before)
    return following


def main() -> None:
    """Answer every board, but print nothing for a solved one."""
    following = towards_goal()
    for line in sys.stdin:
        board = "".join(line.split())
        if board not in following:
            print("unsolvable")
            continue
        path = []
        while board != GOAL:
            path.append(following[board])
            board = moved(board, following[board])
        if path:
            print("".join(path))


if __name__ == "__main__":
    main()
