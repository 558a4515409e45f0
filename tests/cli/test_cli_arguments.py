"""The CLI's own argument parser: forms argparse users expect, and usage
errors with exit status 2 and no traceback."""
import pytest

from havhex import cli


def parse(*words):
    return cli._parse_arguments(list(words))


def test_judge_options_in_every_form():
    a = parse("havannah", "-j2", "--output=out.txt", "--format", "json", "--quiet", "a.in", "-")
    assert (a.game, a.jobs, a.output, a.format, a.quiet, a.files) == (
        "havannah", 2, "out.txt", "json", True, ["a.in", "-"])
    a = parse("hex", "--jobs=0", "-o", "x", "--format=text")
    assert (a.game, a.jobs, a.output, a.format, a.files) == ("hex", 0, "x", "text", [])
    assert parse("hex", "--", "-odd-name.in").files == ["-odd-name.in"]


def test_draw_options():
    a = parse("draw", "hex", "in.txt", "--case", "3", "--text", "-o", "b.svg")
    assert (a.game, a.draw_game, a.file, a.case, a.text, a.output) == (
        "draw", "hex", "in.txt", 3, True, "b.svg")


@pytest.mark.parametrize("words, message", [
    ((), "required: GAME"),
    (("chess",), "invalid choice: 'chess'"),
    (("havannah", "--bogus"), "unrecognized arguments: --bogus"),
    (("havannah", "-j"), "expected one argument"),
    (("havannah", "-j", "two"), "invalid int value: 'two'"),
    (("hex", "--format", "xml"), "invalid choice: 'xml'"),
    (("draw", "hex"), "expected GAME and FILE"),
    (("draw", "go", "f.in"), "invalid choice: 'go'"),
    (("draw", "hex", "f.in", "--case", "x"), "invalid int value: 'x'"),
])
def test_usage_errors(words, message, capsys):
    assert cli.main(list(words)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0].startswith("usage: havhex") and message in lines[1], captured.err


def test_help_and_version_go_to_stdout(capsys):
    assert cli.main(["--help"]) == 0
    assert "havannah" in capsys.readouterr().out
    assert cli.main(["draw", "-h"]) == 0
    assert "--case N" in capsys.readouterr().out
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("havhex ")
