"""The CLI's argument parser: one table of options gives the parser and the
help; every option takes the forms argparse users expect; every usage error is
the usage line and one error line, exit status 2, no traceback."""
import re
from pathlib import Path

import pytest

from conftest import run_cli, write
from havhex import cli
from havhex.cli import arguments
from havhex.cli.arguments import COMMANDS, every_option, parse_arguments

# Every option of every command, the engine's and the arbiter's own too.
OPTIONS = every_option()

README = Path(__file__).resolve().parents[2] / "README.md"

# A value each option accepts, and what it becomes.
VALUES = {"output": ("out.txt", "out.txt"), "jobs": ("2", 2), "format": ("json", "json"),
          "case": ("3", 3), "rule": ("contest", "contest"), "record": ("2", 2),
          "move": ("0", 0), "record_game": ("havannah", "havannah"), "max_cells": ("50", 50),
          "scheduler": ("tcp://h:8786", "tcp://h:8786"), "cluster": ("local:02", "local:2"),
          "size": ("5", 5), "games": ("4", 4), "rounds": ("3", 3),
          "pairing": ("gauntlet", "gauntlet"), "st": ("0.5", 0.5), "tc": ("60+0.5", (60, 0.5)),
          "margin": ("0", 0), "openings": ("plies=3", ("random", 3, None)),
          "player": ("random", "random"), "simulations": ("50", 50), "seconds": ("2", 2),
          "max_nodes": ("1000", 1000), "threads": ("2", 2),
          "seed": ("7", 7), "colours": ("morat", "morat"), "concurrency": ("2", 2),
          "records": ("games", "games"), "dat": ("m.dat", "m.dat"),
          "jsonl": ("m.jsonl", "m.jsonl"), "threshold": ("0.25", 0.25),
          "before": ("6", 6), "memory": ("32", 32)}
# Where a command takes fewer values of an option than the others.
COMMAND_VALUES = {("solve", "openings"): ("all", ("all", 2, None))}
# What the engine and the arbiter need besides an option.
NEEDED = {"gtp": ["hex"], "match": ["hex", "--size", "5", "--engine", "cmd=x", "--engine", "cmd=y"]}


def positionals(command, option=None):
    """Positional arguments that ``option`` goes with (draw's record-only
    options with a record)."""
    if command in NEEDED:
        return NEEDED[command]
    if command == "solve":
        # --size goes with --openings, the other options with records.
        attribute = None if option is None else option.attribute
        return {"size": ["hex", "--openings", "all"],
                "openings": ["hex", "--size", "4"]}.get(attribute, ["hex", "games.sgf"])
    if command != "draw":
        return ["a.in"]
    if option is not None and option.attribute in arguments.RECORD_ONLY:
        return ["record", "game.sgf"]
    return ["hex", "in.txt"]


def forms(option, value):
    """Every spelling of ``option`` with ``value``: separate, glued, with '='."""
    for name in option.names:
        yield [name, value]
        yield [f"{name}={value}"]
        if not name.startswith("--"):
            yield [f"{name}{value}"]


# (--engine and --sprt take several words: test_options_of_several_words.)
VALUED = [(command, option) for option in OPTIONS if option.takes_value and option.words == 1
          for command in option.commands]


@pytest.mark.parametrize("command, option", VALUED,
                         ids=[f"{c}-{o.names[-1]}" for c, o in VALUED])
def test_every_option_in_every_form(command, option):
    given, expected = COMMAND_VALUES.get((command, option.attribute), VALUES[option.attribute])
    seen = 0
    for words in forms(option, given):
        for order in (words + positionals(command, option), positionals(command, option) + words):
            parsed = parse_arguments([command, *order])
            assert getattr(parsed, option.attribute) == expected, order
            seen += 1
    assert seen >= 4


def test_short_forms_of_jobs():
    # The forms named in the issue, one by one.
    for words in (["-j", "2"], ["-j2"], ["-j=2"], ["--jobs", "2"], ["--jobs=2"]):
        assert parse_arguments(["havannah", *words]).jobs == 2, words


def test_judge_options_together():
    a = parse_arguments(["havannah", "-j2", "--output=out.txt", "--format", "json", "--quiet",
                         "a.in", "-"])
    assert (a.command, a.jobs, a.output, a.format, a.quiet, a.files) == (
        "havannah", 2, "out.txt", "json", True, ["a.in", "-"])
    a = parse_arguments(["hex", "--jobs=0", "-o", "x", "--format=text"])
    assert (a.command, a.jobs, a.output, a.format, a.files) == ("hex", 0, "x", "text", [])
    assert parse_arguments(["hex", "--", "-odd-name.in"]).files == ["-odd-name.in"]
    # A value is the next word, whatever it looks like (as getopt takes it).
    assert parse_arguments(["hex", "-o", "-", "a.in"]).output == "-"


def test_defaults():
    a = parse_arguments(["hex"])
    assert (a.jobs, a.output, a.format, a.quiet, a.files) == (1, None, "text", False, [])
    a = parse_arguments(["draw", "hex", "in.txt"])
    assert (a.case, a.output, a.text) == (1, None, False)


def test_draw_options():
    a = parse_arguments(["draw", "hex", "in.txt", "--case", "3", "--text", "-o", "b.svg"])
    assert (a.command, a.game, a.file, a.case, a.text, a.output) == (
        "draw", "hex", "in.txt", 3, True, "b.svg")
    # No FILE reads standard input, as the judges do.
    assert parse_arguments(["draw", "hex"]).file == "-"


def test_draw_without_a_file_reads_standard_input(tmp_path):
    path = write(tmp_path, "in.txt", "1\n1\nR\n")
    process = run_cli("draw", "hex", "--text", stdin=path.read_bytes())
    assert (process.returncode, process.stderr) == (0, b"")
    assert process.stdout == run_cli("draw", "hex", "--text", "-", stdin=path.read_bytes()).stdout
    assert process.stdout.decode().startswith("<stdin>, case #1")


def given(option, command=None):
    """The words that give ``option`` a value it takes (in ``command``)."""
    if not option.takes_value:
        return [option.names[0]]
    if option.attribute == "engine":
        return [option.names[0], "cmd=z", "name=Z"]
    if option.attribute == "sprt":
        return [option.names[0], "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]
    return [option.names[0],
            COMMAND_VALUES.get((command, option.attribute), VALUES[option.attribute])[0]]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_and_usage_come_from_the_table(command):
    usage = arguments.usage_text(command)
    text = arguments.help_text(command)
    assert text.startswith(usage + "\n")
    for option in OPTIONS:
        taken = command in option.commands
        shown = re.search(rf"[\[ ]{re.escape(option.invocation())}[\] \n]", usage + "\n")
        assert (shown is not None) == taken, option.names
        for name in option.names:
            assert (re.search(rf"(^|[ ,])({re.escape(name)})([ ,\n=]|$)", text, re.M)
                    is not None) == taken, name
    # And the parser takes every option that the usage line shows.
    for option in arguments._options_of(command):
        if option.attribute == "help":
            continue  # leaves with the help (test_help_and_version_go_to_stdout)
        # --ship goes with a cluster (tests/dask/test_dask_options.py).
        # (And --resume with a --jsonl file to resume.)
        cluster = {"ship": ["--scheduler", "h:1"], "resume": ["--jsonl", "m.jsonl"]}.get(
            option.attribute, [])
        # (The positionals first: an engine's words run to the next option.)
        parse_arguments([command, *positionals(command, option), *given(option, command),
                         *cluster])


def test_options_of_several_words():
    match = ["match", "hex", "--size", "5"]
    parsed = parse_arguments([*match, "--engine", "cmd=a b", "name=A", "--engine=cmd=c",
                              "dialect=morat", "--sprt", "elo0=0", "elo1=5", "alpha=0.05",
                              "beta=0.1", "--quiet"])
    assert parsed.engine == [["cmd=a b", "name=A"], ["cmd=c", "dialect=morat"]]
    assert [list(spec.command) for spec in parsed.specs] == [["a", "b"], ["c"]]
    assert (parsed.sprt.elo1, parsed.sprt.beta, parsed.quiet) == (5, 0.1, True)
    # An engine's words end at the next option; GAME may come anywhere.
    parsed = parse_arguments(["match", "--engine", "cmd=a", "--engine", "cmd=b", "arg=-x",
                              "--size=3", "havannah"])
    assert (parsed.game, parsed.size, parsed.engine) == (
        "havannah", 3, [["cmd=a"], ["cmd=b", "arg=-x"]])


def test_help_lines_fit_a_terminal():
    # The usage lines too (issue 23: replay's ran to 164 characters).
    for command in (None, *COMMANDS):
        lines = arguments.help_text(command).splitlines()
        assert all(len(line) <= 79 for line in lines), command
        assert all(len(line) <= 79 for line in arguments.usage_text(command).splitlines())
        assert all(len(line) <= 79 for line in arguments.short_usage(command).splitlines())


# What one command's help may not speak of: the other commands' behaviour.
OTHERS = {"havannah": ("replay", "game record", "per game", "draw"),
          "hex": ("replay", "game record", "per game", "draw"),
          "replay": ("judge", "per case", "threads", "progress", "draw"),
          "draw": ("replay", "judged", "threads", "per game"),
          "gtp": ("replay", "judged", "per case", "draw", "engines", "summary"),
          "match": ("replay", "judged", "threads", "per case", "draw", "genmove"),
          "analyse": ("judged", "threads", "per case", "genmove", "engines", "seconds a move"),
          "solve": ("judged", "threads", "per case", "genmove", "engines", "seconds a move",
                    "played twice")}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_help_speaks_of_that_command(command):
    options = [option for option in OPTIONS if command in option.commands]
    text = "\n".join(option.help_for(command) for option in options).lower()
    for word in OTHERS[command]:
        assert word not in text, (command, word)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_usage_is_whole_in_the_help_and_short_in_an_error(command, capsys):
    usage = arguments.usage_text(command)
    first, *rest = usage.splitlines()
    assert first.startswith(f"usage: havhex {command} [-h]")
    indent = len(f"usage: havhex {command} ")
    assert all(line.startswith(" " * indent + "[") for line in rest)
    positionals = " ".join(shown for shown, _ in COMMANDS[command].positionals)
    assert usage.endswith(positionals)
    assert cli.main([command, "--bogus"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [arguments.short_usage(command),
                     "havhex: error: unrecognized arguments: --bogus"]


def synopses(block):
    """The options each command's synopsis in ``block`` shows."""
    synopsis = {}
    command = None
    for line in block.splitlines():
        assert len(line) <= 79, line
        words = line.split()
        if words[:1] == ["havhex"]:
            command = words[1]
        elif not line.startswith(" "):
            command = None
        if command is not None:
            # A command may take two lines (draw's judge inputs and records),
            # and an indented line goes on the command above; a required
            # option is shown bare, as in the usage line.
            synopsis.setdefault(command, set()).update(re.findall(r"[\[ ](-[-\w]+)", line))
    return synopsis


def table_options(command):
    # A deprecated spelling (its help says so) is left out of the synopses.
    return {option.names[0] for option in OPTIONS
            if command in option.commands and option.attribute != "help"
            and not option.help_for(command).startswith("deprecated:")}


def test_readme_synopsis_matches_the_table():
    # The README's synopsis names each command's options, as the table does,
    # in lines that fit a terminal.
    if not README.is_file():
        pytest.skip("README.md is not beside the tests (installed package)")
    block = re.search(r"## Command line\n\n```\n(.*?)```", README.read_text(), re.S)
    assert block, "the README has no command-line synopsis"
    synopsis = synopses(block.group(1))
    assert set(synopsis) == set(COMMANDS)
    for command, shown in synopsis.items():
        assert shown == table_options(command), command


def test_the_engine_pages_synopses_match_the_table():
    page = README.parent / "docs" / "matches.md"
    if not page.is_file():
        pytest.skip("the docs are not beside the tests (installed package)")
    for command in ("gtp", "match"):
        block = re.search(rf"```text\n(havhex {command} .*?)```", page.read_text(), re.S)
        assert block, command
        assert synopses(block.group(1)) == {command: table_options(command)}


USAGE_ERRORS = [
    ((), "the following arguments are required: COMMAND"),
    (("chess",), "invalid choice: 'chess'"),
    (("havannah", "--bogus"), "unrecognized arguments: --bogus"),
    (("havannah", "-x"), "unrecognized arguments: -x"),
    (("havannah", "-j"), "argument -j/--jobs: expected one argument"),
    (("havannah", "--output"), "argument -o/--output: expected one argument"),
    (("havannah", "-j", "two"), "argument -j/--jobs: invalid int value: 'two'"),
    (("havannah", "-j", "-1"), "argument -j/--jobs: must be at least 0, got -1"),
    (("hex", "--jobs=-100"), "argument -j/--jobs: must be at least 0, got -100"),
    (("hex", "-j", "2.5"), "invalid int value: '2.5'"),
    (("hex", "-j", " 2"), "invalid int value: ' 2'"),
    (("hex", "-j", "1_0"), "invalid int value: '1_0'"),
    (("hex", "-j", "+2"), "invalid int value: '+2'"),
    (("hex", "-j", "\u0663"), "invalid int value: '\u0663'"),
    (("hex", "-j", "9" * 5000), "invalid int value: '999"),
    (("hex", "--jobs="), "invalid int value: ''"),
    (("hex", "--format", "xml"), "argument --format: invalid choice: 'xml'"),
    (("hex", "--format=JSON"), "invalid choice: 'JSON'"),
    (("hex", "--quiet=yes"), "argument --quiet: takes no value"),
    (("hex", "-o", ""), "argument -o/--output: expected a file name, got ''"),
    (("hex", "a.in", ""), "argument FILE: expected a file name, got ''"),
    (("hex", "--case", "2"), "unrecognized arguments: --case"),
    (("hex", "--text"), "unrecognized arguments: --text"),
    (("draw",), "the following arguments are required: GAME"),
    (("draw", "--text"), "the following arguments are required: GAME"),
    (("draw", "hex", "a.in", "b.in"), "unrecognized arguments: b.in"),
    (("draw", "go", "f.in"), "argument GAME: invalid choice: 'go'"),
    (("draw", "hex", "f.in", "--case", "x"), "argument --case: invalid int value: 'x'"),
    (("draw", "hex", "f.in", "--case", "0"), "argument --case: must be at least 1, got 0"),
    (("draw", "hex", "f.in", "--case=-3"), "argument --case: must be at least 1, got -3"),
    (("draw", "hex", "f.in", "-j", "2"), "unrecognized arguments: -j"),
    (("draw", "hex", "f.in", "--format", "json"), "unrecognized arguments: --format"),
    (("draw", "hex", ""), "argument FILE: expected a file name, got ''"),
]


@pytest.mark.parametrize("words, message", USAGE_ERRORS)
def test_usage_errors(words, message, capsys):
    assert cli.main(list(words)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 2, captured.err
    assert lines[0].startswith("usage: havhex") and lines[1].startswith("havhex: error: ")
    assert message in lines[1], captured.err


def test_negative_jobs_is_a_usage_error(tmp_path):
    # Issue 12: ``-j -1`` exited 1 without a usage line, unlike every other
    # usage error; checked in a real run, with an input that exists.
    path = write(tmp_path, "a.in", "1\n2 0\n")
    for words in (["-j", "-1"], ["--jobs=-1"], ["-j-1"]):
        process = run_cli("havannah", *words, path)
        assert process.returncode == 2, words
        assert process.stdout == b""
        lines = process.stderr.decode().splitlines()
        assert len(lines) == 2 and lines[0].startswith("usage: havhex havannah "), lines
        assert lines[1] == "havhex: error: argument -j/--jobs: must be at least 0, got -1"


def test_case_zero_is_a_usage_error(tmp_path):
    path = write(tmp_path, "a.in", "1\n2 0\n")
    process = run_cli("draw", "havannah", path, "--case", "0")
    assert process.returncode == 2
    assert process.stderr.decode().splitlines()[0].startswith("usage: havhex draw ")


def test_empty_output_name_is_not_standard_output(tmp_path):
    # ``-o ''`` was taken as no -o at all: the output went to stdout.
    path = write(tmp_path, "a.in", "1\n2 0\n")
    for command in (["havannah", path], ["draw", "havannah", path]):
        process = run_cli(*command, "-o", "")
        assert (process.returncode, process.stdout) == (2, b""), command


def test_help_and_version_go_to_stdout(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(command in out for command in COMMANDS)
    assert cli.main(["draw", "-h"]) == 0
    assert "--case N" in capsys.readouterr().out
    assert cli.main(["hex", "-o", "x", "--help"]) == 0
    assert "--jobs N" in capsys.readouterr().out
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("havhex ")


def test_the_engine_options_agree_with_the_engine():
    # The table names gtp's colour words and sizes in its own text (so that
    # a judge run does not import the engine): they are the engine's.
    from havhex import games
    from havhex.gtp.server import COLOUR_FAMILIES

    options = {option.names[0]: option for option in OPTIONS}
    assert set(options["--colours"].convert.choices) == set(COLOUR_FAMILIES)
    text = options["--size"].help_for("gtp")
    hex_game, havannah_game = games.get("hex"), games.get("havannah")
    assert (f"Hex N x N (default {hex_game.default_size}, at most "
            f"{hex_game.max_size})") in text
    assert (f"Havannah base N (default {havannah_game.default_size}, "
            f"{havannah_game.min_size} to {havannah_game.max_size})") in text
