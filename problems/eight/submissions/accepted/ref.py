"""Python reference for HDU 1043 "Eight": weighted A* with the Manhattan distance.

A board is solvable iff its eight tiles, read row by row, have an even number
of inversions (the width 3 is odd, so no move changes that parity). Solvable
boards are searched with A* on f = g + WEIGHT * h, h the Manhattan distance,
ties broken towards the smaller h. The weight trades optimality for speed: the
moves found are at most WEIGHT times the optimum (in practice at most 47 for
the hardest boards, whose optimum is 31), and a thousand of the hardest boards
take about a second instead of minutes for plain A* in Python.
"""

import heapq
import sys

WEIGHT = 3
GOAL = "12345678x"
# (cell the blank moves to, letter) for each cell of the blank.
MOVES = tuple(
    tuple(
        (target, letter)
        for target, letter, legal in (
            (cell - 3, "u", cell >= 3),
            (cell + 3, "d", cell < 6),
            (cell - 1, "l", cell % 3 > 0),
            (cell + 1, "r", cell % 3 < 2),
        )
        if legal
    )
    for cell in range(9)
)
# DISTANCE[tile][cell]: Manhattan distance of a tile ("1".."8") on a cell from its goal cell.
DISTANCE = {
    str(tile): tuple(abs(cell // 3 - (tile - 1) // 3) + abs(cell % 3 - (tile - 1) % 3) for cell in range(9))
    for tile in range(1, 9)
}


def solvable(board: str) -> bool:
    """Even number of inversions among the tiles."""
    tiles = board.replace("x", "")
    return sum(tiles[i] > tiles[j] for i in range(8) for j in range(i + 1, 8)) % 2 == 0


def manhattan(board: str) -> int:
    """Sum of the tiles' distances from their goal cells."""
    return sum(DISTANCE[tile][cell] for cell, tile in enumerate(board) if tile != "x")


def path_to(parent: dict[str, tuple[str, str]], board: str) -> str:
    """The letters that lead from the start (whose parent is empty) to `board`."""
    letters = []
    while parent[board][0]:
        board, letter = parent[board]
        letters.append(letter)
    return "".join(reversed(letters))


def solve(start: str) -> str:
    """Moves of the blank from a solvable `start` to the goal (not necessarily shortest)."""
    parent = {start: ("", "")}
    cost = {start: 0}
    heap = [(WEIGHT * manhattan(start), manhattan(start), 0, start)]
    while heap:
        _, heuristic, moves, board = heapq.heappop(heap)
        if heuristic == 0:
            return path_to(parent, board)
        if moves > cost[board]:
            continue
        blank = board.index("x")
        for target, letter in MOVES[blank]:
            tile = board[target]
            cells = list(board)
            cells[blank], cells[target] = tile, "x"
            following = "".join(cells)
            if following in cost and cost[following] <= moves + 1:
                continue
            cost[following] = moves + 1
            parent[following] = (board, letter)
            changed = heuristic - DISTANCE[tile][target] + DISTANCE[tile][blank]
            heapq.heappush(heap, (moves + 1 + WEIGHT * changed, changed, moves + 1, following))
    raise AssertionError("a solvable board always reaches the goal")


def main() -> None:
    """One answer line per input line."""
    answers = []
    for line in sys.stdin:
        board = "".join(line.split())
        if board:
            answers.append((solve(board) if solvable(board) else "unsolvable") + "\n")
    sys.stdout.write("".join(answers))


if __name__ == "__main__":
    main()
