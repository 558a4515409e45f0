"""The README is the front door: at most 300 lines, its first screen naming
every capability and the two set-up commands (the test command is the one
.ci/run runs).  Its Python examples, and those of the documentation pages,
run and print what their comments say.

A line ``expression  # VALUE...`` (or an expression line followed by a line
``# VALUE...``) claims that ``repr(expression)`` starts the comment.
"""
import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
CI = ROOT / ".ci" / "run"

# The pages whose Python examples run here, with the fewest claims each holds
# (docs/dask.md's example needs a scheduler: it is not among them).
PAGES_WITH_EXAMPLES = {"judges.md": 10, "boards.md": 15, "records.md": 4, "getting-started.md": 3}

MAX_LINES = 300
# The first screen as GitHub shows it.
FIRST_SCREEN = 40
# What the first screen names: the capabilities, each with the words a reader
# looks for.
CAPABILITIES = {
    "the Havannah judge": ["Havannah", "ring", "bridge", "fork", "first move"],
    "the Hex judge": ["Hex", "position possible", "who has won"],
    "witnesses": ["--format json", "witness"],
    "live boards": ["Live boards", "havhex.havannah.Board", "havhex.hex.Board", "play", "undo",
                    "copy", "hash", "playouts in C", "official", "contest", "swap"],
    "game records": ["SGF", "Little Golem", ".hgf", "read", "replay", "written"],
    "pictures": ["SVG", "text", "havhex draw", "HTML page"],
    "cluster runs": ["Dask", "--scheduler", "--cluster", "-j N", "havhex.dask"],
    "engine matches": ["havhex gtp", "GTP engine", "havhex match", "refereed", "Elo", "SPRT"],
}


def _readme():
    if not README.is_file():
        pytest.skip("README.md is not beside the tests (installed package)")
    return README.read_text(encoding="utf-8")


def _python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


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


def _check_examples(path, text):
    """Runs every Python block of ``text`` and checks its claims; returns
    how many claims it checked."""
    checked = 0
    for block in _python_blocks(text):
        namespace = {}
        exec(compile(block, str(path), "exec"), namespace)  # the block runs as written
        for code, claim in _claims(block):
            shown = repr(eval(code, namespace))
            assert claim.startswith(shown), f"{path.name}: {code} gives {shown}, the comment says {claim}"
            rest = claim[len(shown):]
            assert rest == "" or rest[0] in " :", (code, claim)
            checked += 1
    return checked


def test_readme_examples_hold(monkeypatch):
    text = _readme()
    monkeypatch.chdir(ROOT)
    assert _check_examples(README, text) >= 6


@pytest.mark.parametrize("page, claims", sorted(PAGES_WITH_EXAMPLES.items()))
def test_documentation_examples_hold(monkeypatch, page, claims):
    _readme()
    path = DOCS / page
    monkeypatch.chdir(ROOT)
    assert _check_examples(path, path.read_text(encoding="utf-8")) >= claims


def test_readme_commands_name_files_that_exist():
    text = _readme()
    for path in [README, ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]:
        # A path that starts there (tests/docs/... is a folder of tests/).
        for name in re.findall(r"(?<![\w./-])((?:examples|docs)/[\w.-]+)",
                               path.read_text(encoding="utf-8")):
            assert (ROOT / name).exists(), f"{path.relative_to(ROOT)} names {name}"
    assert "CHANGELOG.md" in text and (ROOT / "CHANGELOG.md").is_file()
    assert os.path.exists(CI)


# A path of the repository as the pages name it: from one of its folders,
# up to a space, a quote or punctuation that ends it (a glob's * included).
REPOSITORY_PATH = re.compile(r"(?<![\w./-])((?:tests|bench|src|examples|\.ci)/[\w./*-]*[\w*])")


def test_pages_name_paths_that_exist():
    """Every path under tests/, bench/, src/, examples/ or .ci/ that the
    README or a page names (a test to run, a benchmark, a source file, a
    glob of them) is in the repository."""
    _readme()
    named = 0
    for path in [README, *sorted(DOCS.rglob("*.md"))]:
        for name in REPOSITORY_PATH.findall(path.read_text(encoding="utf-8")):
            assert any(ROOT.glob(name)), f"{path.relative_to(ROOT)} names {name}, which is missing"
            named += 1
    assert named >= 20


def test_getting_started_lists_every_extra():
    """The table of extras in docs/getting-started.md names each extra of
    pyproject.toml, and no other."""
    _readme()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = pyproject[pyproject.index("\n[project.optional-dependencies]\n"):]
    section = section[:section.index("\n[", 1)]
    extras = re.findall(r"^([\w-]+) = \[", section, re.M)
    assert "test" in extras and len(extras) >= 5, extras
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    table = page[page.index("| extra |"):]
    table = table[:table.index("\n\n")]
    listed = re.findall(r"^\| `([\w-]+)` \|", table, re.M)
    assert sorted(listed) == sorted(extras), (listed, extras)
    assert len(listed) == len(set(listed)), listed


def test_readme_is_at_most_300_lines():
    lines = _readme().splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines"


def test_readme_first_screen_names_every_capability():
    screen = "\n".join(_readme().splitlines()[:FIRST_SCREEN])
    missing = {capability: [word for word in words if word not in screen]
               for capability, words in CAPABILITIES.items()}
    assert not any(missing.values()), f"the README's first screen lacks {missing}"


def _sh_blocks(text):
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_readme_first_screen_gives_the_two_set_up_commands():
    screen = "\n".join(_readme().splitlines()[:FIRST_SCREEN])
    commands = _sh_blocks(screen)
    install = [c for c in commands if c.startswith("pip install . && havhex ")]
    tests = [c for c in commands if c.startswith('pip install ".[test]" && ')]
    assert len(install) == 1 and len(tests) == 1, commands
    # The judge runs on an example this repository ships.
    example = re.fullmatch(r"pip install \. && havhex (havannah|hex) (examples/\S+)", install[0])
    assert example and (ROOT / example.group(2)).is_file(), install[0]
    # .ci/run runs exactly the README's test command (then "|| exit 1"), under
    # a time limit: ``timeout ... bash -c 'COMMAND' || exit 1``.
    ci_commands = [line.split(" || ")[0] for line in CI.read_text(encoding="utf-8").splitlines()]
    ci_commands += re.findall(r"^\s*timeout [-\w ]+ bash -c '([^']*)' \|\| exit 1$",
                              CI.read_text(encoding="utf-8"), re.M)
    assert tests[0] in ci_commands, f".ci/run does not run the README's test command {tests[0]!r}"
