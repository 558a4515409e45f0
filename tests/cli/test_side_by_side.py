"""Several files judged side by side (``havhex havannah|hex -j N FILE ...``).

With ``-j 2`` and more than one file, each file is read and judged on a
thread of its own (havhex._files); the output must be what ``-j 1`` gives,
byte for byte, and a fault must end the run as it does with ``-j 1``: the
files before it printed, one line on stderr naming the file (and line),
exit status 1, and with ``-o`` nothing written.
"""
import os
import random

import pytest

import ref_havannah
import ref_hex
from conftest import write

# Hand-made Havannah inputs: two wins, a fork, and a game nobody wins.
WINS = "2\n2 2\n1 1\n1 2\n4 6\n5 5\n4 5\n3 4\n3 3\n4 3\n5 4\n"
FORK = "1\n3 5\n1 2\n2 1\n4 2\n2 2\n3 2\n"
NO_WIN = "1\n3 2\n1 1\n1 3\n"

FAULTS = {
    # (game, file name, content, what stderr names)
    "havannah": ("bad.in", "1\n3 2\n1 2\nx 1\n", "bad.in:4: "),
    "hex": ("bad.in", "2\n3\nR.X\n...\n...\n1\nR\n", "bad.in:3: "),
}

# (game, extra arguments): the forms judged side by side.
FORMS = [("havannah", ()), ("havannah", ("--format", "json")), ("hex", ())]
FORM_IDS = ["havannah-text", "havannah-json", "hex-text"]


def _havannah_text(cases):
    parts = [str(len(cases))]
    for size, moves in cases:
        parts.append(f"{size} {len(moves)}")
        parts.extend(f"{x} {y}" for x, y in moves)
    return "\n".join(parts) + "\n"


def _havannah_files(folder):
    """Four inputs: hand-made ones, and random games on boards of a few
    sizes (wandering games win often, uniform short ones seldom)."""
    rng = random.Random(26)
    wandering = [(size, ref_havannah.wandering_game(rng, size, 3 * size * size))
                 for size in (3, 4, 5, 6)]
    sparse = [(size, ref_havannah.random_game(rng, size, size)) for size in (5, 7, 9)]
    return [write(folder, "wins.in", WINS),
            write(folder, "none.in", NO_WIN),
            write(folder, "wandering.in", _havannah_text(wandering)),
            write(folder, "mixed.in", _havannah_text(ref_havannah.parse_input(FORK) + sparse))]


def _hex_text(boards):
    parts = [str(len(boards))]
    for rows in boards:
        parts.append(str(len(rows)))
        parts.extend(rows)
    return "\n".join(parts) + "\n"


def _hex_files(folder):
    """Four inputs on boards of sizes 1 to 11: won positions, positions
    nobody has won yet, and random fills (often impossible)."""
    rng = random.Random(26)
    won = [ref_hex.random_game_position(rng, n, stop="win").rows for n in (1, 2, 5, 8)]
    open_ = [ref_hex.random_game_position(rng, n, stop="any").rows for n in (3, 4, 6, 11)]
    filled = [ref_hex.random_fill(rng, n) for n in (2, 3, 7)]
    nobody = [["." * n for _ in range(n)] for n in (1, 4)]
    return [write(folder, "won.in", _hex_text(won)),
            write(folder, "open.in", _hex_text(open_)),
            write(folder, "filled.in", _hex_text(filled)),
            write(folder, "nobody.in", _hex_text(nobody))]


def _files(game, folder):
    return _havannah_files(folder) if game == "havannah" else _hex_files(folder)


def _expected_text(game, paths):
    """The text output worked out by the reference judge."""
    reference = ref_havannah if game == "havannah" else ref_hex
    return "".join(line + "\n" for path in paths
                   for line in reference.judge_text(path.read_text())).encode()


def _run(cli, game, jobs, extra, args, folder, stdin=None):
    return cli(game, "-j", jobs, *extra, *args, stdin=stdin, cwd=str(folder))


def _names(paths):
    return [path.name for path in paths]


def test_the_inputs_have_wins_and_games_nobody_won(tmp_path):
    # The comparisons below mean something only if the files differ in kind.
    havannah = _expected_text("havannah", _havannah_files(tmp_path)).decode()
    assert "none" in havannah and "ring" in havannah and "bridge" in havannah
    assert "fork" in havannah
    hex_lines = _expected_text("hex", _hex_files(tmp_path)).decode()
    for answer in ("Red wins", "Blue wins", "Nobody wins", "Impossible"):
        assert answer in hex_lines, answer


@pytest.mark.parametrize("game, extra", FORMS, ids=FORM_IDS)
def test_two_threads_print_what_one_prints(cli, tmp_path, game, extra):
    paths = _files(game, tmp_path)
    one = _run(cli, game, 1, extra, _names(paths), tmp_path)
    assert (one.returncode, one.stderr) == (0, b"")
    if not extra:
        assert one.stdout == _expected_text(game, paths)
    else:
        assert one.stdout.count(b"\n") == sum(
            len(ref_havannah.parse_input(path.read_text())) for path in paths)
    for jobs in (2, 3):
        side = _run(cli, game, jobs, extra, _names(paths), tmp_path)
        assert (side.returncode, side.stdout, side.stderr) == (0, one.stdout, b"")


@pytest.mark.parametrize("game, extra", FORMS, ids=FORM_IDS)
def test_two_threads_write_to_a_file_what_one_prints(cli, tmp_path, game, extra):
    paths = _files(game, tmp_path)
    one = _run(cli, game, 1, extra, _names(paths), tmp_path)
    side = _run(cli, game, 2, extra, [*_names(paths), "-o", "out.txt"], tmp_path)
    assert (side.returncode, side.stdout, side.stderr) == (0, b"", b"")
    assert (tmp_path / "out.txt").read_bytes() == one.stdout
    assert one.returncode == 0 and one.stdout


@pytest.mark.parametrize("game, extra", FORMS, ids=FORM_IDS)
def test_the_same_files_twice_and_standard_input(cli, tmp_path, game, extra):
    paths = _files(game, tmp_path)
    names = _names(paths)
    piped = paths[2].read_bytes()
    args = [names[0], names[1], "-", names[0], names[3], names[1]]
    one = _run(cli, game, 1, extra, args, tmp_path, stdin=piped)
    assert (one.returncode, one.stderr) == (0, b"")
    if not extra:
        order = [paths[0], paths[1], paths[2], paths[0], paths[3], paths[1]]
        assert one.stdout == _expected_text(game, order)
    side = _run(cli, game, 2, extra, args, tmp_path, stdin=piped)
    assert (side.returncode, side.stdout, side.stderr) == (0, one.stdout, b"")
    side = _run(cli, game, 2, extra, [*args, "-o", "out.txt"], tmp_path, stdin=piped)
    assert (side.returncode, side.stdout, side.stderr) == (0, b"", b"")
    assert (tmp_path / "out.txt").read_bytes() == one.stdout


def _fault(game, kind, folder):
    """The argument that fails, and the start of the one line on stderr."""
    if kind == "bad token":
        name, text, named = FAULTS[game]
        write(folder, name, text)
        return name, f"havhex: {named}"
    if kind == "missing":
        return "missing.in", "havhex: missing.in: "
    os.mkdir(folder / "folder.in")
    return "folder.in", "havhex: folder.in: "


@pytest.mark.parametrize("kind", ["bad token", "missing", "directory"])
@pytest.mark.parametrize("game, extra", FORMS, ids=FORM_IDS)
def test_a_fault_in_the_middle_ends_the_run_as_with_one_thread(cli, tmp_path, game, extra, kind):
    paths = _files(game, tmp_path)
    names = _names(paths)
    fault, message = _fault(game, kind, tmp_path)
    args = [names[0], names[1], fault, names[2]]
    before = _run(cli, game, 1, extra, names[:2], tmp_path)
    assert before.returncode == 0 and before.stdout
    one = _run(cli, game, 1, extra, args, tmp_path)
    side = _run(cli, game, 2, extra, args, tmp_path)
    for run in (one, side):
        err = run.stderr.decode()
        assert run.returncode == 1, err
        assert err.count("\n") == 1 and err.endswith("\n"), err
        assert err.startswith(message), err
        assert "Traceback" not in err
        # Exactly the files before the fault.
        assert run.stdout == before.stdout
    assert side.stderr == one.stderr
    listing = sorted(os.listdir(tmp_path))
    written = _run(cli, game, 2, extra, [*args, "-o", "out.txt"], tmp_path)
    assert (written.returncode, written.stdout, written.stderr) == (1, b"", one.stderr)
    assert sorted(os.listdir(tmp_path)) == listing


@pytest.mark.parametrize("position", [0, 3])
def test_a_fault_in_the_first_or_last_file(cli, tmp_path, position):
    paths = _havannah_files(tmp_path)
    names = _names(paths)
    fault, message = _fault("havannah", "bad token", tmp_path)
    args = names[:position] + [fault] + names[position:]
    before = _run(cli, "havannah", 1, (), names[:position], tmp_path) if position else None
    one = _run(cli, "havannah", 1, (), args, tmp_path)
    side = _run(cli, "havannah", 2, (), args, tmp_path)
    assert (side.returncode, side.stdout, side.stderr) == \
        (one.returncode, one.stdout, one.stderr)
    assert side.returncode == 1 and side.stderr.decode().startswith(message)
    assert side.stdout == (before.stdout if before is not None else b"")


def _large_input(game, folder):
    """An input of about a megabyte: big enough that a pipe hands it over in
    many reads, which two readers at once would share between them."""
    text = _files(game, folder)[2 if game == "havannah" else 0].read_text()
    count, body = text.split("\n", 1)
    copies = 1_000_000 // len(body) + 1
    return f"{int(count) * copies}\n{body * copies}".encode()


# Standard input by a second name, where the system has one.
STDIN_NAMES = ["-"] + [name for name in ("/dev/stdin",) if os.path.exists(name)]


@pytest.mark.parametrize("second", STDIN_NAMES)
@pytest.mark.parametrize("game, extra", FORMS, ids=FORM_IDS)
def test_standard_input_named_twice_is_read_in_turn(cli, tmp_path, game, extra, second):
    # One thread reads the pipe to its end for the first name; the second
    # finds it at its end.  Side by side, the two must not read at once.
    piped = _large_input(game, tmp_path)
    names = _names(_files(game, tmp_path))
    for args in (["-", second], [names[0], "-", names[1], second, names[3]]):
        one = _run(cli, game, 1, extra, args, tmp_path, stdin=piped)
        assert one.returncode == 1 and one.stderr.count(b"\n") == 1, one.stderr
        assert b"input ends before" in one.stderr
        assert one.stdout.count(b"\n") > 1000
        side = _run(cli, game, 2, extra, args, tmp_path, stdin=piped)
        assert (side.returncode, side.stdout, side.stderr) == \
            (one.returncode, one.stdout, one.stderr)


def _on_a_terminal(args, folder, out):
    """Run with stderr on a pseudo-terminal and stdout to ``out``; (status,
    what the terminal showed)."""
    from terminal import run_on_terminal

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HAVHEX_PROGRESS_MIN_BYTES": "1"}
    with open(out, "wb") as stdout:
        return run_on_terminal(args, stdout, env, cwd=str(folder))


@pytest.mark.parametrize("game, extra", FORMS, ids=FORM_IDS)
def test_progress_lines_side_by_side(cli, tmp_path, game, extra):
    # Each file's progress line is shown while it is awaited and cleared
    # before its output; the output is the same as without a terminal.
    names = _names(_files(game, tmp_path))
    one = _run(cli, game, 1, extra, names, tmp_path)
    status, shown = _on_a_terminal([game, "-j", 2, *extra, *names], tmp_path,
                                   tmp_path / "out.txt")
    assert status == 0, shown
    assert (tmp_path / "out.txt").read_bytes() == one.stdout
    assert "Traceback" not in shown
    for name in names:
        assert f"havhex: {name}: " in shown, shown
    assert shown.endswith("\r\033[K"), shown
    # The lines follow the files' order.
    firsts = [shown.index(f"havhex: {name}: ") for name in names]
    assert firsts == sorted(firsts)


@pytest.mark.parametrize("game, extra", FORMS, ids=FORM_IDS)
def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path, game, extra):
    # ``| head -1``: more output than a pipe holds, its reader gone after
    # the first line; the run ends with status 1 and says nothing, as with
    # one thread, its workers cancelled.
    import subprocess
    import sys

    large = write(tmp_path, "large.in", _large_input(game, tmp_path))
    statuses = []
    for jobs in (1, 2):
        process = subprocess.Popen(
            [sys.executable, "-m", "havhex", game, "-j", str(jobs), *extra,
             *[large.name] * 4], cwd=str(tmp_path), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        assert process.stdout.readline()
        process.stdout.close()
        err = process.stderr.read()
        statuses.append((process.wait(timeout=60), err))
    assert statuses == [(1, b""), (1, b"")]
