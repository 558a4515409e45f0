"""What every command (havannah, hex, draw, text and JSON) does alike with
inputs it cannot read and outputs it cannot write: one line on stderr naming
the user's path, ``havhex: PATH: what is wrong``, exit status 1, nothing on
standard output and no file written."""
import os

import pytest

from conftest import one_error_line, run_cli, write

INPUTS = {"havannah": "1\n2 2\n1 1\n1 2\n", "hex": "1\n1\nR\n"}

COMMANDS = {
    "havannah": lambda path: ["havannah", path],
    "havannah-json": lambda path: ["havannah", "--format", "json", "-j", "2", path],
    "hex": lambda path: ["hex", path],
    "hex-json": lambda path: ["hex", "--format", "json", path],
    "draw-havannah": lambda path: ["draw", "havannah", path],
    "draw-hex-text": lambda path: ["draw", "hex", "--text", path],
}


def game_of(name):
    return "hex" if "hex" in name else "havannah"


@pytest.mark.parametrize("name", COMMANDS)
def test_a_directory_input_is_one_line_without_a_line_number(name, tmp_path):
    folder = tmp_path / "somedir"
    folder.mkdir()
    assert one_error_line(run_cli(*COMMANDS[name](folder))) == f"havhex: {folder}: is a directory\n"
    # Named as given, relative or with a trailing slash.
    assert one_error_line(run_cli(*COMMANDS[name]("somedir/"), cwd=tmp_path)) == \
        "havhex: somedir/: is a directory\n"
    # And with -o: nothing is written.
    out = tmp_path / "out.txt"
    one_error_line(run_cli(*COMMANDS[name](folder), "-o", out))
    assert not out.exists()


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_a_directory_after_good_inputs(game, tmp_path):
    # The inputs before it are printed whole, as before any other bad input.
    good = write(tmp_path, "good.in", INPUTS[game])
    alone = run_cli(game, good)
    process = run_cli(game, good, tmp_path, good)
    assert process.returncode == 1
    assert process.stdout == alone.stdout != b""
    assert process.stderr.decode() == f"havhex: {tmp_path}: is a directory\n"


@pytest.mark.parametrize("name", COMMANDS)
def test_a_missing_input(name, tmp_path):
    missing = tmp_path / "missing.in"
    assert one_error_line(run_cli(*COMMANDS[name](missing))) == (
        f"havhex: {missing}: cannot open: {os.strerror(2)}\n")


@pytest.mark.parametrize("name", COMMANDS)
def test_output_into_a_missing_folder_names_the_users_path(name, tmp_path):
    path = write(tmp_path, "in.txt", INPUTS[game_of(name)])
    for out in ("missing/out.txt", "missing/deeper/out.txt"):
        process = run_cli(*COMMANDS[name](path), "-o", out, cwd=tmp_path)
        assert one_error_line(process) == (
            f"havhex: {out}: cannot write the output: {os.strerror(2)}\n")
    assert sorted(os.listdir(tmp_path)) == ["in.txt"]


@pytest.mark.parametrize("name", COMMANDS)
def test_output_named_as_a_folder(name, tmp_path):
    # A trailing slash names a folder: said plainly, not as the ENOTDIR of a
    # temporary file's renaming.
    path = write(tmp_path, "in.txt", INPUTS[game_of(name)])
    process = run_cli(*COMMANDS[name](path), "-o", "new/", cwd=tmp_path)
    assert one_error_line(process) == (
        "havhex: new/: cannot write the output: a file name cannot end with '/'\n")
    process = run_cli(*COMMANDS[name](path), "-o", tmp_path, cwd=tmp_path)
    assert one_error_line(process) == (
        f"havhex: {tmp_path}: cannot write the output: it is a directory\n")
    assert sorted(os.listdir(tmp_path)) == ["in.txt"]


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_a_judge_run_imports_nothing_it_does_not_need(game, tmp_path):
    # Start-up is part of every run: the parser is hand-written (no argparse,
    # re or gettext), JSON and the progress line load only when used, the
    # drawing and the search never.  Without ``site`` (-S), whose .pth files
    # may import more.
    import subprocess
    import sys
    from pathlib import Path

    import havhex

    path = write(tmp_path, "in.txt", INPUTS[game])
    code = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from havhex.cli import main\n"
        "status = main([sys.argv[2], '-j', '2', sys.argv[3]])\n"
        "assert status == 0, status\n"
        "heavy = ('argparse', 're', 'gettext', 'json', 'tempfile', 'textwrap', 'enum',\n"
        "         'havhex.draw', 'havhex.cli.progress', 'havhex.search', 'havhex.cli.analyse',\n"
        "         'havhex.records.review')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    package_parent = str(Path(havhex.__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-S", "-c", code, package_parent, game, str(path)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
