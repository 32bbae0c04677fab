"""An interactive pair's cost per round trip, relayed and joined directly, against a bare pipe pair.

The relay (``launcher --relay``) keeps the transcript, orders the two sides'
ends and counts the output limit; what it adds to every exchange is what a
problem with many queries pays in wall time. The direct path (``run_direct``)
joins the two programs' pipes and keeps the order of the ends by holding
copies of them, so it should cost what bare pipes cost plus the launchers'
start and end of two runs. Every contender runs the same C pair (``ping`` the
submission, ``pong`` the interactor), interleaved.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..run import Bind, Isolation, PairResult, RunLimits, RunSpec, SlotPool, run_direct, run_relayed
from ..text import table
from .bench_grading import Bench
from .bench_series import interleave, timed

LIMITS = RunLimits(cpu=60, wall=120, memory_mib=256, output_bytes=64 << 20)


def relay_cost(bench: Bench, compile_c: Callable[[str, Path], Path]) -> None:
    """µs per round trip through the relay and directly in each sandbox mode, and through a bare pipe pair."""
    trips = 5000 if bench.quick else 20000
    bench.work.chmod(0o711)  # the submission may run as a sandbox uid: it must reach its binary
    shared = bench.work / "interactive"
    shared.mkdir(mode=0o755)
    ping, pong = compile_c("ping", shared), compile_c("pong", shared)
    count = shared / "trips.in"
    count.write_text(f"{trips}\n")
    contenders: dict[str, Callable[[], float]] = {"bare pipe pair": lambda: timed(lambda: _bare(ping, pong, count))}
    pools = {mode: SlotPool(1, Isolation(mode)) for mode in bench.modes()}
    try:
        for mode, pool in pools.items():
            contenders[f"relay, {mode}"] = partial(timed, partial(_paired, run_relayed, pool, ping, pong, count))
            contenders[f"direct, {mode}"] = partial(timed, partial(_paired, run_direct, pool, ping, pong, count))
        series = interleave(contenders, max(3, bench.rounds))
    finally:
        for pool in pools.values():
            pool.close()
    floor = series["bare pipe pair"].median
    data: dict[str, Any] = {name: {**s.to_json(), "per_trip_us": s.median / trips * 1e6} for name, s in series.items()}
    bench.figures["interactive"] = {"round_trips": trips, "rows": data}
    rows = [[name, f"{s.median / trips * 1e6:.1f} µs", f"{s.median / floor:.2f}×"] for name, s in series.items()]
    bench.log(
        f"\ninteractive pair ({trips} round trips per run):\n"
        + table(rows, ["path", "per round trip (median)", "vs bare pipes"])
    )


def _bare(ping: Path, pong: Path, count: Path) -> None:
    to_pong, to_ping = os.pipe(), os.pipe()
    side = subprocess.Popen([str(pong), str(count)], stdin=to_pong[0], stdout=to_ping[1])
    sub = subprocess.Popen([str(ping)], stdin=to_ping[0], stdout=to_pong[1])
    for fd in (*to_pong, *to_ping):
        os.close(fd)
    sub.wait()
    if side.wait() != 42:
        raise RuntimeError("the bare pipe pair did not finish its round trips")


def _paired(join: Callable[..., PairResult], pool: SlotPool, ping: Path, pong: Path, count: Path) -> None:
    with pool.slot() as slot:
        out, err = slot.private / "out", slot.private / "err"
        pair = join(
            slot,
            RunSpec([str(ping)], LIMITS, stdout=out, stderr=err),
            [Bind(ping.parent)],
            RunSpec(
                [str(pong), str(count)],
                LIMITS,
                stdout=out,
                stderr=slot.private / "side.err",
                cwd=slot.private,
                env=slot.env,
            ),
        )
    if pair.peer.exit_code != 42:
        raise RuntimeError(
            f"the {pair.path} pair did not finish its round trips (interactor exit {pair.peer.exit_code})"
        )
