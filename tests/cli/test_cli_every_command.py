"""Every command of the command line, taken from the parser's own table (a
new command is covered as soon as it is in it): its ``--help`` fits 80
columns and gives every option of the table a help text, and each kind of
usage error (an unknown option, a bad value, a missing value, an unknown
game) is one usage line and one ``havhex: error:`` line on stderr, status 2.

The checks are functions, each tried on texts made wrong on purpose, so
that a check that cannot fail is caught too."""
import re
import subprocess
import sys

import pytest

from havhex import cli
from havhex.cli import arguments
from havhex.cli.arguments import COMMANDS, GAMES

WIDTH = 80
COMMAND_NAMES = list(COMMANDS)
UNKNOWN_GAME = "chess"
assert UNKNOWN_GAME not in GAMES


def options_of(command):
    # The table as it is now (a check's own test adds an option to it).
    return [option for option in arguments.every_option() if command in option.commands]


def help_problems(command, text):
    """What is wrong with ``text`` as ``command``'s help: lines wider than
    WIDTH, an option of the table without its entry (its spellings and its
    value's placeholder) or without a help text, a required option not said
    to be required."""
    problems = [f"{len(line)} columns: {line!r}" for line in text.splitlines()
                if len(line) > WIDTH]
    entries = {}
    current = None
    for line in text.split("options:\n", 1)[-1].splitlines():
        if line.startswith("  -"):
            invocation, _, rest = line[2:].partition("  ")
            current = invocation.strip()
            entries[current] = rest.strip()
        elif current is not None and line.startswith(" " * 4):
            entries[current] = f"{entries[current]} {line.strip()}".strip()
        else:
            current = None
    for option in options_of(command):
        shown = option.shown_value()
        invocation = ", ".join(option.names) + (f" {shown}" if shown else "")
        if invocation not in entries:
            problems.append(f"no entry {invocation!r}")
            continue
        if not entries[invocation]:
            problems.append(f"{invocation!r} has no help text")
        if option.required.get(command) and "(required" not in entries[invocation]:
            problems.append(f"{invocation!r} does not say it is required")
    return problems


def usage_error_problems(command, status, out, err):
    """What is wrong with a run's result as a usage error of ``command``."""
    problems = []
    if status != 2:
        problems.append(f"status {status}")
    if out:
        problems.append(f"stdout {out!r}")
    lines = err.splitlines()
    if len(lines) != 2:
        return problems + [f"{len(lines)} lines on stderr: {err!r}"]
    lead = "usage: havhex " + (f"{command} " if command else "")
    if not lines[0].startswith(lead) or len(lines[0]) > WIDTH:
        problems.append(f"not a usage line of {command}: {lines[0]!r}")
    if not re.fullmatch(r"havhex: error: \S.*", lines[1]):
        problems.append(f"not an error line: {lines[1]!r}")
    return problems


def needed(command):
    """Words that make a command line of ``command`` whole: its GAME and
    its required options."""
    words = []
    positionals = [shown for shown, _ in COMMANDS[command].positionals]
    if "GAME" in positionals:
        words.append(GAMES[0])
    for option in options_of(command):
        for _ in range(option.required.get(command, 0)):
            words += [option.names[0], _accepted(option)]
    return words


def _accepted(option):
    for value in ("5", "cmd=x", "1", "x"):
        try:
            option.convert(value if option.words == 1 else [value])
        except ValueError:
            continue
        return value
    raise AssertionError(f"no value found for {option.label}")


def bad_value(command):
    """An option of ``command`` and a value its converter refuses."""
    for option in options_of(command):
        if not option.takes_value or option.words != 1:
            continue
        for value in ("x", "-1", "0", ""):
            try:
                option.convert(value)
            except ValueError:
                return option, value
    raise AssertionError(f"{command}: no option refuses a value")


def run(capsys, words):
    status = cli.main(words)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("command", COMMAND_NAMES)
def test_help_fits_and_documents_every_option(command, capsys):
    status, out, err = run(capsys, [command, "--help"])
    assert (status, err) == (0, "")
    assert help_problems(command, out) == []
    assert out.startswith(arguments.usage_text(command) + "\n")


def test_the_help_of_the_whole_program_names_every_command(capsys):
    status, out, _ = run(capsys, ["--help"])
    assert status == 0
    assert all(len(line) <= WIDTH for line in out.splitlines())
    for command in COMMAND_NAMES:
        assert re.search(rf"^  {re.escape(command)} ", out, re.M), command


def usage_errors(command):
    """``(what, words)``: a command line of ``command`` for each kind of
    usage error."""
    whole = needed(command)
    option, value = bad_value(command)
    valued = next(option for option in options_of(command)
                  if option.takes_value and option.words == 1)
    yield "unknown option", [command, *whole, "--no-such-option"]
    yield "bad value", [command, *whole, f"{option.names[-1]}={value}"]
    yield "missing value", [command, *whole, valued.names[-1]]
    if "GAME" in [shown for shown, _ in COMMANDS[command].positionals]:
        yield "unknown game", [command, UNKNOWN_GAME, *whole[1:]]
    else:
        # A judge's game is its command: an unknown one is the program's error.
        yield "unknown game", [UNKNOWN_GAME, *whole]


CASES = [(command, what, words) for command in COMMAND_NAMES
         for what, words in usage_errors(command)]


@pytest.mark.parametrize("command, what, words", CASES,
                         ids=[f"{command}-{what}" for command, what, _ in CASES])
def test_usage_errors_are_a_usage_line_and_an_error_line(command, what, words, capsys):
    status, out, err = run(capsys, words)
    # A command line that starts with an unknown word is the program's error.
    said = command if words[0] == command else None
    assert usage_error_problems(said, status, out, err) == []


@pytest.mark.parametrize("command", COMMAND_NAMES)
def test_a_usage_error_as_a_process(command):
    # The exit status and the streams of a real run, not only main's.
    process = subprocess.run([sys.executable, "-m", "havhex", command, "--no-such-option"],
                             capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert usage_error_problems(command, process.returncode, process.stdout,
                                process.stderr) == []


# The checks themselves, on texts made wrong on purpose.

def test_help_problems_finds_what_is_wrong(capsys):
    cli.main(["match", "--help"])
    text = capsys.readouterr().out
    assert help_problems("match", text) == []
    assert help_problems("match", text + "x" * (WIDTH + 1) + "\n")
    # An option's entry gone, its help text gone, its "required" gone.
    assert help_problems("match", re.sub(r"\n  --games N .*", "", text))
    assert help_problems("match", re.sub(r"(\n  --dat FILE) .*", r"\1", text))
    assert help_problems("match", text.replace("(required)", ""))
    # An option added to the table and not to the help.
    option = arguments.Option(("--new",), "new", False, "new", ("match",))
    original = arguments.OPTIONS
    try:
        arguments.OPTIONS = original + (option,)
        assert help_problems("match", text) == ["no entry '--new'"]
    finally:
        arguments.OPTIONS = original


def test_usage_error_problems_finds_what_is_wrong():
    usage = "usage: havhex hex [-h] [options] [FILE ...]\n"
    error = "havhex: error: unrecognized arguments: -x\n"
    assert usage_error_problems("hex", 2, "", usage + error) == []
    assert usage_error_problems("hex", 1, "", usage + error)
    assert usage_error_problems("hex", 2, "x", usage + error)
    assert usage_error_problems("hex", 2, "", usage + usage + error)
    assert usage_error_problems("hex", 2, "", error)
    assert usage_error_problems("hex", 2, "", usage + "havhex hex: bad\n")
    assert usage_error_problems("gtp", 2, "", usage + error)
