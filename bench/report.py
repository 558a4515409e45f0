"""Turn a pytest-benchmark JSON file into the benchmark suite's table
(docs/performance.md, "The benchmark suite").

    python -m pytest bench --benchmark-only --benchmark-json="${TMPDIR:-/tmp}/bench.json"
    python bench/report.py "${TMPDIR:-/tmp}/bench.json"
"""
import json
import platform
import sys


def main(path):
    with open(path) as handle:
        data = json.load(handle)
    median = {b["name"]: b["stats"]["median"] for b in data["benchmarks"]}
    extra = {b["name"]: b.get("extra_info", {}) for b in data["benchmarks"]}
    start = median.get("test_interpreter_start", 0.0)

    def ms(name):
        return f"{median[name] * 1e3:.1f}" if name in median else "-"

    def ratio(slow, fast, scale=1.0):
        if slow in median and fast in median:
            return f"{median[slow] * scale / median[fast]:.0f}x"
        return "-"

    rows = []
    for kind in ("havannah-random", "havannah-chains", "havannah-loop"):
        rows.append((
            f"Havannah {kind.split('-')[1]} (T=20, S=3000, M=10^4)",
            ms(f"test_parse[{kind}]"), ms(f"test_kernel[{kind}]"), ms(f"test_api[{kind}]"),
            f"{median[f'test_cli[{kind}]'] * 1e3 - start * 1e3:.1f}" if f"test_cli[{kind}]" in median else "-",
            ms(f"test_baseline[{kind}]"),
            ratio(f"test_baseline[{kind}]", f"test_kernel[{kind}]"),
            ratio(f"test_baseline[{kind}]", f"test_api[{kind}]"),
        ))
    for kind, label in (("hex-games", "Hex, 100 games of 100x100"), ("hex-rows", "Hex, 100 boards of alternating rows"),
                        ("hex-big", "Hex, one 2000x2000 game")):
        rows.append((
            label, ms(f"test_hex_parse[{kind}]"), ms(f"test_hex_kernel[{kind}]"),
            ms(f"test_hex_api[{kind}]"),
            f"{median[f'test_hex_cli[{kind}]'] * 1e3 - start * 1e3:.1f}" if f"test_hex_cli[{kind}]" in median else "-",
            ms(f"test_hex_baseline[{kind}]"),
            ratio(f"test_hex_baseline[{kind}]", f"test_hex_kernel[{kind}]"),
            ratio(f"test_hex_baseline[{kind}]", f"test_hex_api[{kind}]"),
        ))
    print(f"Machine: {data['machine_info'].get('cpu', {}).get('brand_raw', platform.processor())}, "
          f"{data['machine_info'].get('cpu', {}).get('count', '?')} cores, "
          f"Python {data['machine_info'].get('python_version')}; medians in ms; "
          f"interpreter start {start * 1e3:.1f} ms.\n")
    print("| input | parse | kernel | API | CLI beyond start | plain Python | kernel ratio | API ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    for name in ("test_scale_parse", "test_scale_kernel[1]", "test_scale_kernel[2]",
                 "test_scale_api[1]", "test_scale_api[2]",
                 "test_scale_cli[1]", "test_scale_cli[2]", "test_scale_cli_alternating",
                 "test_scale_baseline_slice", "test_scale_cli_peak_memory", "test_hex_big_cli_peak_memory",
                 "test_hex_cli_official_test_set_2", "test_cli_on_an_empty_input",
                 "test_import_havhex", "test_hex_snake_cli_beside_c[hex-snake-4999]",
                 "test_hex_snake_cli_beside_c[hex-snake-10000]",
                 "test_hex_snake_cli_beside_c[hex-snakes-100mb]"):
        if name in median:
            info = ", ".join(f"{k} {v}" for k, v in extra[name].items())
            print(f"- `{name}`: {median[name] * 1e3:.1f} ms" + (f" ({info})" if info else ""))


if __name__ == "__main__":
    main(sys.argv[1])
