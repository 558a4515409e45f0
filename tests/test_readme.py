"""The README's Python examples run, and print what their comments say.

A line ``expression  # VALUE...`` (or an expression line followed by a line
``# VALUE...``) claims that ``repr(expression)`` starts the comment.
"""
import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _python_blocks():
    if not README.is_file():
        pytest.skip("README.md is not beside the tests (installed package)")
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def _claims(block):
    """(expression source, claimed text) pairs of one block."""
    lines = block.splitlines()
    for number, line in enumerate(lines):
        code, _, comment = line.partition("#")
        code = code.strip()
        if not code:
            continue
        if not comment.strip() and number + 1 < len(lines) and lines[number + 1].lstrip().startswith("#"):
            comment = lines[number + 1].lstrip()[1:]
        comment = comment.strip()
        if comment and isinstance(_parse(code), ast.Expr):
            yield code, comment


def _parse(code):
    try:
        return ast.parse(code).body[0]
    except SyntaxError:
        return None


def test_readme_examples_hold(monkeypatch):
    monkeypatch.chdir(ROOT)
    checked = 0
    for block in _python_blocks():
        namespace = {}
        exec(compile(block, str(README), "exec"), namespace)  # the block runs as written
        for code, claim in _claims(block):
            shown = repr(eval(code, namespace))
            assert claim.startswith(shown), f"README: {code} gives {shown}, the comment says {claim}"
            rest = claim[len(shown):]
            assert rest == "" or rest[0] in " :", (code, claim)
            checked += 1
    assert checked >= 6


def test_readme_commands_name_files_that_exist():
    text = README.read_text() if README.is_file() else pytest.skip("no README")
    for path in re.findall(r"\b((?:examples|docs)/[\w.-]+)", text):
        assert (ROOT / path).exists(), path
    assert os.path.exists(ROOT / ".ci" / "run")
