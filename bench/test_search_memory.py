"""The search's memory bound: a search of 60 s (HAVHEX_SEARCH_MEMORY_SECONDS)
from the empty board holds its process's peak resident memory under what
the process held before the search plus the pool the user bounded
(``max_nodes`` nodes of 32 bytes) and a small allowance for the position's
copies; the tree's nodes never pass ``max_nodes``.

Run: python -m pytest bench/test_search_memory.py --benchmark-only -s
The peak is the kernel's (``ru_maxrss`` of a child process that runs only
the search), so nothing the test process did before counts.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

SECONDS = float(os.environ.get("HAVHEX_SEARCH_MEMORY_SECONDS", "60"))
MAX_NODES = 2_000_000
NODE_BYTES = 32
# The copies of the position and the walk, the node pool's rounding to
# pages, and the allocator's own: far below a megabyte a thread, bounded
# generously.
ALLOWANCE = 8 << 20

CHILD = textwrap.dedent("""
    import json, resource, sys
    from havhex.{game} import Board
    from havhex.search import Search
    board = Board({size})
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    search = Search(board, max_nodes={max_nodes}, seed=1, threads={threads})
    analysis = search.run(seconds={seconds})
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({{"before": before, "peak": peak, "nodes": analysis.nodes,
                      "simulations": analysis.simulations}}))
""")


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize("game, size, threads", [("hex", 11, 1), ("havannah", 8, 1),
                                                 ("hex", 11, 2)])
def test_a_long_search_stays_within_its_pool(benchmark, game, size, threads):
    code = CHILD.format(game=game, size=size, max_nodes=MAX_NODES, seconds=SECONDS,
                        threads=threads)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

    def run():
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, timeout=SECONDS * 4 + 120, check=True)
        return json.loads(done.stdout)

    found = benchmark.pedantic(run, rounds=1, iterations=1)
    grown = found["peak"] - found["before"]
    bound = MAX_NODES * NODE_BYTES + ALLOWANCE
    benchmark.extra_info.update({**found, "grown": grown, "bound": bound, "seconds": SECONDS})
    print(f"\n{game} {size}, {threads} thread(s), {SECONDS:g} s: {found['simulations']:,} "
          f"simulations, {found['nodes']:,} nodes, memory grew {grown / 2**20:.1f} MB "
          f"(bound {bound / 2**20:.1f} MB)")
    assert found["nodes"] <= MAX_NODES
    # The pool filled (else the bound was not put to the test).
    assert found["nodes"] > MAX_NODES * 0.9, found
    assert grown <= bound, found
