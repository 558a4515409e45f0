"""The progress line: on a terminal for large inputs, never on a pipe, off with --quiet."""
import os
import subprocess
import sys

import pytest


def _big_input(path, cases=3, moves=20000):
    lines = [str(cases)]
    for _ in range(cases):
        lines.append(f"1000 {moves}")
        lines.extend(f"{1 + i // 999} {1 + i % 999}" for i in range(moves))
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(args, stderr_tty, env_extra):
    env = {**os.environ, **env_extra}
    if not stderr_tty:
        return subprocess.run([sys.executable, "-m", "havhex", *args], capture_output=True,
                              env=env).stderr.decode()
    from terminal import run_on_terminal

    return run_on_terminal(args, subprocess.DEVNULL, env)[1]


@pytest.fixture
def big(tmp_path):
    return _big_input(tmp_path / "big.in")


def test_progress_on_a_terminal(big):
    shown = _run(["havannah", str(big)], True, {"HAVHEX_PROGRESS_MIN_BYTES": "1"})
    assert "havhex: " in shown and "MB read" in shown and "cases" in shown


def test_no_progress_on_a_pipe(big):
    assert _run(["havannah", str(big)], False, {"HAVHEX_PROGRESS_MIN_BYTES": "1"}) == ""


def test_quiet_turns_it_off(big):
    assert "MB read" not in _run(["havannah", "--quiet", str(big)], True,
                                 {"HAVHEX_PROGRESS_MIN_BYTES": "1"})


def test_small_inputs_show_none(big):
    assert "MB read" not in _run(["havannah", str(big)], True, {})


def test_api_progress_callback(big):
    from havhex import havannah

    calls = []
    results = havannah.judge_file(big, progress=lambda *values: calls.append(values))
    assert len(results) == 3 and calls
    for bytes_read, cases_read, cases_judged in calls:
        assert 0 <= cases_judged <= cases_read <= 3 and 0 <= bytes_read <= big.stat().st_size


def test_hex_progress_callback(tmp_path):
    from havhex import hex as hex_judge

    boards = 40
    text = f"{boards}\n" + "".join("60\n" + "\n".join(("B" if i % 2 else "R") * 60 for i in range(60)) + "\n"
                                  for _ in range(boards))
    path = tmp_path / "hex.in"
    path.write_text(text)
    calls = []
    results = hex_judge.judge_file(path, progress=lambda *values: calls.append(values))
    assert len(results) == boards and calls
    assert calls[-1] == (len(text), boards, boards)  # the last call sees everything done
    for bytes_read, cases_read, cases_judged in calls:
        assert 0 <= cases_judged <= cases_read <= boards and 0 <= bytes_read <= len(text)


def test_hex_progress_on_a_terminal(tmp_path):
    path = tmp_path / "hex.in"
    path.write_text("3\n" + "2\nRB\nBR\n" * 3)
    shown = _run(["hex", str(path)], True, {"HAVHEX_PROGRESS_MIN_BYTES": "1"})
    assert "MB read" in shown


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_json_output_shows_progress_too(tmp_path, game):
    path = _big_input(tmp_path / "big.in") if game == "havannah" else tmp_path / "hex.in"
    if game == "hex":
        path.write_text("3\n" + "2\nRB\nBR\n" * 3)
    env = {"HAVHEX_PROGRESS_MIN_BYTES": "1"}
    assert "MB read" in _run([game, "--format", "json", str(path)], True, env)
    assert _run([game, "--format", "json", str(path)], False, env) == ""
    assert "MB read" not in _run([game, "--format", "json", "--quiet", str(path)], True, env)


def test_a_malformed_threshold_is_the_default(big):
    # HAVHEX_PROGRESS_MIN_BYTES is a knob for tests: a bad value falls back
    # to the default (64 MB, above this input) instead of a traceback.
    shown = _run(["havannah", str(big)], True, {"HAVHEX_PROGRESS_MIN_BYTES": "lots"})
    assert "Traceback" not in shown and "MB read" not in shown
