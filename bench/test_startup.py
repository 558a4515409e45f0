"""Start-up: what `import havhex` and a CLI run on an empty input add to the
interpreter's own start (which test_interpreter_start measures)."""
import re
import subprocess
import sys

from conftest import run_cli


def _import_microseconds(module):
    """Cumulative import time of ``module`` by ``python -X importtime``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          capture_output=True, text=True, check=True)
    for line in done.stderr.splitlines():
        fields = [field.strip() for field in line.split("|")]
        if len(fields) == 3 and fields[2] == module:
            return int(re.sub(r"\D", "", fields[1]))
    raise AssertionError(f"{module} not in the import-time report")


def test_import_havhex(benchmark):
    microseconds = benchmark.pedantic(_import_microseconds, ("havhex",), rounds=5, iterations=1)
    benchmark.extra_info["import havhex (ms, -X importtime)"] = microseconds / 1000
    assert microseconds > 0


def test_cli_on_an_empty_input(benchmark, tmp_path):
    """The CLI's fixed cost: arguments, imports, one empty input."""
    empty = tmp_path / "empty.in"
    empty.write_text("0\n")
    done = benchmark.pedantic(run_cli, ("hex", empty), rounds=10, iterations=1)
    assert done.stdout == b""
