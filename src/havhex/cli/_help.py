"""The usage lines and the help texts, made from the table of ``arguments``:
loaded only for help or a usage error, never by a run."""
from .table import COMMANDS, HELP_COLUMN, PROGRAM, TEXT_WIDTH, EarlyExit, _options_of

# The annotations are for type checkers only, in quotes: help and usage
# errors import nothing more than before.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional

__all__ = ["help_text", "short_usage", "usage_text", "usage_error"]


def _usage_words(command: str) -> "List[str]":
    """The usage line's words for ``command``'s options, as argparse shows
    them: ``[--jobs N]``; a required option bare, as many times as it is
    required (``[--engine SPEC ...]`` after, when it takes more); the
    options of a group that exclude each other, which the table lists
    together, as ``[--simulations N | --seconds SECONDS]``."""
    words: "List[str]" = []
    options = _options_of(command)
    index = 0
    while index < len(options):
        option = options[index]
        times = option.required.get(command, 0)
        if times:
            words += [option.invocation()] * times
            if option.append:
                words.append(f"[{option.invocation()} ...]")
        elif option.group is not None:
            group = [other for other in options[index:] if other.group == option.group]
            words.append("[" + " | ".join(other.invocation() for other in group) + "]")
            index += len(group)
            continue
        else:
            words.append(f"[{option.invocation()}]")
        index += 1
    return words


def usage_text(command: "Optional[str]" = None) -> str:
    """The usage of ``command`` (None: of ``havhex`` itself), in lines of at
    most TEXT_WIDTH characters, as argparse wraps it: every option, then the
    positional arguments, each line after the first under the first option."""
    if command is None:
        return f"usage: {PROGRAM} [-h] [--version] COMMAND ..."
    lead = f"usage: {PROGRAM} {command}"
    words = _usage_words(command) + [shown for shown, _ in COMMANDS[command].positionals]
    lines: "List[str]" = []
    line = lead
    for word in words:
        if line.strip() and len(line) + 1 + len(word) > TEXT_WIDTH:
            lines.append(line)
            line = " " * len(lead)
        line = f"{line} {word}"
    lines.append(line)
    return "\n".join(lines)


def short_usage(command: "Optional[str]" = None) -> str:
    """One usage line for a usage error (the whole usage is in ``--help``):
    the options required, then the others as ``[options]``."""
    if command is None:
        return usage_text()
    required = [word for word in _usage_words(command)
                if not word.startswith("[")]
    positionals = " ".join(shown for shown, _ in COMMANDS[command].positionals)
    return " ".join([f"usage: {PROGRAM} {command} [-h]", *required, "[options]", positionals])


def _wrap(text: str, indent: int, width: int = TEXT_WIDTH) -> "List[str]":
    """``text`` in lines of at most ``width`` characters after ``indent`` spaces."""
    lines: "List[str]" = []
    line = ""
    for word in text.split():
        if line and indent + len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def _entry(invocation: str, help: str) -> "List[str]":
    """An argparse-style help entry: the help beside the invocation, or on
    the next lines when the invocation is too long to leave room."""
    helps = _wrap(help, HELP_COLUMN)
    lead = f"  {invocation}"
    if len(lead) <= HELP_COLUMN - 2:
        first = f"{lead:<{HELP_COLUMN}}{helps[0]}"
        rest = helps[1:]
    else:
        first, rest = lead, helps
    return [first] + [" " * HELP_COLUMN + line for line in rest]


def help_text(command: "Optional[str]" = None) -> str:
    """The ``--help`` text of ``command`` (None: of ``havhex`` itself)."""
    lines = [usage_text(command), ""]
    if command is None:
        lines += ["Fast, explainable judges for the connection games Havannah and Hex.", "",
                  "commands:"]
        for name, entry in COMMANDS.items():
            lines += _entry(name, entry.summary)
        lines += ["", f'Run "{PROGRAM} COMMAND --help" for a command\'s options.']
        return "\n".join(lines) + "\n"
    entry = COMMANDS[command]
    lines += _wrap(entry.description, 0) + ["", "positional arguments:"]
    for shown, help in entry.positionals:
        lines += _entry(shown.strip("[]. "), help)
    lines += ["", "options:"]
    for option in _options_of(command):
        value = option.shown_value()
        invocation = ", ".join(option.names) + (f" {value}" if value else "")
        lines += _entry(invocation, option.help_for(command))
    return "\n".join(lines) + "\n"


def usage_error(command: "Optional[str]", message: str) -> EarlyExit:
    """The ``EarlyExit`` of a usage error in ``command`` (None: before one):
    one usage line and one error line."""
    return EarlyExit(2, f"{short_usage(command)}\n{PROGRAM}: error: {message}\n")
