"""Compare two checkouts' speed in one sitting: their benchmarks run in turn.

    python bench/compare_trees.py BEFORE AFTER [--rounds 3] [-k EXPR] [FILES...]

BEFORE and AFTER are source trees with their extensions built in place
(``python setup.py build_ext --inplace``).  Each round runs the benchmark
files of BEFORE against BEFORE's ``src``, then AFTER's against AFTER's, so a
drift of the machine's speed during the sitting falls on both alike.  Prints,
per benchmark, the median over rounds of each run's median, and the ratio
AFTER / BEFORE.  The default files are the kernel, API, CLI and start-up
benchmarks of both games.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_FILES = ["bench/test_havannah_speed.py", "bench/test_hex_speed.py",
                 "bench/test_startup.py"]


def run_once(tree, files, expression, json_path):
    """One pytest-benchmark run of ``files`` in ``tree``; medians by name."""
    command = [sys.executable, "-m", "pytest", *files, "--benchmark-only", "-q",
               "-p", "no:cacheprovider", f"--benchmark-json={json_path}"]
    if expression:
        command += ["-k", expression]
    environment = {**os.environ, "PYTHONPATH": str(Path(tree, "src"))}
    subprocess.run(command, cwd=tree, env=environment, check=True,
                   stdout=subprocess.DEVNULL)
    with open(json_path) as handle:
        data = json.load(handle)
    return {b["name"]: b["stats"]["median"] for b in data["benchmarks"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("files", nargs="*", default=DEFAULT_FILES)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-k", dest="expression", default="")
    args = parser.parse_args(argv)
    medians = {"before": {}, "after": {}}
    with tempfile.TemporaryDirectory() as scratch:
        for round_number in range(args.rounds):
            for label, tree in (("before", args.before), ("after", args.after)):
                json_path = os.path.join(scratch, f"{label}-{round_number}.json")
                for name, seconds in run_once(tree, args.files, args.expression,
                                              json_path).items():
                    medians[label].setdefault(name, []).append(seconds)
                print(f"round {round_number + 1}: {label} done", file=sys.stderr)
    names = sorted(set(medians["before"]) & set(medians["after"]))
    width = max(map(len, names), default=10)
    print(f"{'benchmark':{width}}  {'before ms':>10}  {'after ms':>10}  {'after/before':>12}")
    for name in names:
        before = statistics.median(medians["before"][name])
        after = statistics.median(medians["after"][name])
        print(f"{name:{width}}  {before * 1e3:10.2f}  {after * 1e3:10.2f}  {after / before:12.3f}")
    for label in ("before", "after"):
        alone = sorted(set(medians[label]) - set(names))
        if alone:
            print(f"only {label}: {', '.join(alone)}", file=sys.stderr)


if __name__ == "__main__":
    main()
