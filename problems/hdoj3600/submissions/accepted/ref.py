"""Reference solution for HDOJ 3600 "Simple Puzzle" (Python).

Map every cell to the goal index of the value it holds (tile v belongs at
v - 1, the blank at N*N - 1).  That is a permutation of the cells; each move of
the blank is one transposition, so the board is solvable exactly when the
permutation's parity equals the parity of the blank's taxicab distance to the
bottom-right corner.  Parity comes from counting cycles, O(N*N) per board,
with no inversion count that could overflow anything.
"""

import sys


def permutation_parity(target: list[int]) -> int:
    """Return (len - #cycles) % 2, the parity of the permutation `target`."""
    size = len(target)
    seen = bytearray(size)
    cycles = 0
    for start in range(size):
        if seen[start]:
            continue
        cycles += 1
        j = start
        while not seen[j]:
            seen[j] = 1
            j = target[j]
    return (size - cycles) & 1


def solvable(n: int, cells: list[bytes]) -> bool:
    """Decide one n x n board given as its n*n row-major tokens."""
    size = n * n
    target = [(int(tok) - 1) % size for tok in cells]
    blank = target.index(size - 1)
    row, col = divmod(blank, n)
    distance = (n - 1 - row) + (n - 1 - col)
    return permutation_parity(target) == distance & 1


def main() -> None:
    """Read all boards up to the terminating 0 and answer each one."""
    tokens = sys.stdin.buffer.read().split()
    out = []
    pos = 0
    while True:
        n = int(tokens[pos])
        pos += 1
        if n == 0:
            break
        size = n * n
        out.append("YES" if solvable(n, tokens[pos : pos + size]) else "NO")
        pos += size
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main()
