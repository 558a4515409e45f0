"""What a user reads is true and their own: the README's and the pages'
examples and the README's limits match the code, docs/conventions.md matches
the reference judges, and nothing in the package, the docs or the README cites
files the user does not have, paths of the machine it was built on, or
measurement history in comments.  The documentation site lists every page and
is built strictly by .ci/run; the changelog and docs/performance.md keep their
forms.
"""
import re
import sys
from pathlib import Path

import pytest

import needs
import ref_havannah
import ref_hex

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
CONVENTIONS = DOCS / "conventions.md"
PERFORMANCE = DOCS / "performance.md"
PACKAGE = ROOT / "src" / "havhex"
CHANGELOG = ROOT / "CHANGELOG.md"
MKDOCS = ROOT / "mkdocs.yml"
SOURCE_SUFFIXES = {".py", ".pyi", ".pyx", ".pxi", ".pxd", ".h"}


def _text(path):
    """A file of the repository; skips where the tests run without the
    repository around them (no README), fails where only ``path`` is missing."""
    if not README.is_file():
        pytest.skip("README.md is not beside the tests (installed package)")
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text(encoding="utf-8")


def _sources():
    if not PACKAGE.is_dir():
        pytest.skip("the package source is not beside the tests")
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in SOURCE_SUFFIXES)


def _user_files():
    """Every text file a user of the package or the repository's docs reads."""
    return _sources() + [README, CHANGELOG, MKDOCS] + sorted(DOCS.rglob("*.md"))


def _flat(text):
    """Comment text with the line breaks, comment leaders and indentation
    between its lines removed, so that a citation split over lines reads
    as one."""
    return re.sub(r"\s*\n\s*(?:#|\*(?!/))?\s*", " ", text)


# ---------------------------------------------------------------------------
# Nothing a user cannot follow
# ---------------------------------------------------------------------------

# Written in pieces so that this file does not hold the strings it forbids.
MACHINE_PATHS = ["/" + "work/", "/" + "root/", "/" + "home/", "/" + "Users/"]
NOT_THE_USERS = ["NOTES" + ".md", "../" + "shared", "." + "pth", "sand" + "box"]


def test_user_files_cite_nothing_the_user_lacks():
    for path in _user_files():
        text = path.read_text(encoding="utf-8")
        for word in NOT_THE_USERS + MACHINE_PATHS:
            assert word not in text, f"{path.relative_to(ROOT)} mentions {word!r}"


def test_no_path_of_the_build_machine_in_the_repository():
    folders = [ROOT / name for name in ("src", "tests", "bench", ".ci", "docs")]
    paths = [README, CHANGELOG, MKDOCS, ROOT / "pyproject.toml", ROOT / "setup.py",
             ROOT / "MANIFEST.in"]
    for folder in folders:
        if folder.is_dir():
            # (Build outputs aside: the extensions, the C that Cython writes,
            # the metadata an sdist's build writes beside the package.)
            paths += [p for p in folder.rglob("*") if p.is_file()
                      and p.suffix not in {".so", ".pyd", ".pyc", ".o"}
                      and not (p.suffix == ".c" and folder.name == "src")
                      and "__pycache__" not in p.parts
                      and not any(part.endswith(".egg-info") for part in p.parts)]
    checked = 0
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        checked += 1
        for word in MACHINE_PATHS:
            assert word not in text, f"{path.relative_to(ROOT)} names {word!r}"
    assert checked >= 10


# Figures of a measurement: milliseconds and the like, percentages, "3x faster",
# "medians of 12 runs".  A reason in a comment says why, in the present tense;
# the figures behind it live in docs/performance.md.
MEASUREMENT = re.compile(
    r"\b\d+(?:\.\d+)?\s*(?:ms|µs|us|ns|seconds?)\b"
    r"|\b\d+(?:\.\d+)?\s*%\s*(?:more|less|faster|slower)"
    r"|\b\d+(?:\.\d+)?\s*x\s+(?:faster|slower)"
    r"|\bmedians?\b"
    r"|\b\d+\s+runs\b"
    r"|\b(?:was|were)\s+(?:faster|slower)\b"
    r"|\bbench/\s+inputs\b",
    re.IGNORECASE)


def test_code_comments_carry_no_measurement_history():
    found = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = MEASUREMENT.search(line)
            if match:
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert not found, "measurement history in the code (it belongs in docs/performance.md):\n" + \
        "\n".join(found)


def test_the_code_cites_sections_that_exist():
    conventions = _text(CONVENTIONS)
    performance = _text(PERFORMANCE)
    headings = {
        "conventions": re.findall(r"^#+ (.+)$", conventions, re.M),
        "performance": re.findall(r"^#+ (.+)$", performance, re.M),
    }
    cited = 0
    for path in _sources() + sorted((ROOT / "bench").glob("*.py")):
        text = _flat(path.read_text(encoding="utf-8"))
        for page in re.findall(r"\bdocs/([\w-]+\.md)\b", text):
            assert (DOCS / page).is_file(), f"{path.relative_to(ROOT)} cites docs/{page}, which is missing"
        for game, sections in re.findall(r"docs/conventions\.md, (Havannah|Hex): ([a-z ]+)", text):
            assert f"{game}" in headings["conventions"], (path, game)
            for section in sections.strip().split(" and "):
                assert any(h.lower() == section.strip() for h in headings["conventions"]), \
                    f"{path.relative_to(ROOT)} cites the missing section {game}: {section}"
            cited += 1
        for section in re.findall(r'docs/performance\.md, "([^"]+)"', text):
            assert section in headings["performance"], \
                f"{path.relative_to(ROOT)} cites the missing section {section!r}"
            cited += 1
    assert cited >= 4


# ---------------------------------------------------------------------------
# docs/conventions.md states what the statements and the code say
# ---------------------------------------------------------------------------

def _section(text, start, end):
    return text[text.index(start):text.index(end, text.index(start))]


def _value(expression, **names):
    """The value of a small formula of the docs (``2S-1``, ``x+1``, ``y - x``)."""
    assert re.fullmatch(r"[\w +-]+", expression), expression
    return eval(re.sub(r"(\d)([A-Za-z])", r"\1*\2", expression), {"__builtins__": {}}, names)


def _table_cells(text, size):
    """The ``(a, b)`` pairs of a table's rows, with S standing for ``size``."""
    rows = [line for line in text.splitlines() if re.match(r"\| \d \|", line)]
    return [(_value(a, S=size), _value(b, S=size))
            for line in rows for a, b in re.findall(r"`\(([^,`]+), ([^)`]+)\)`", line)]


def test_conventions_state_the_havannah_geometry():
    text = _text(CONVENTIONS)
    havannah = _section(text, "## Havannah", "## Hex")
    # The neighbour table at (0, 0): the offsets, in their order.
    neighbours = _section(havannah, "### Neighbours", "### Corners")
    assert [line.split("|")[1].strip() for line in neighbours.splitlines()
            if re.match(r"\| \d \|", line)] == [str(k) for k in range(6)]
    offsets = []
    for line in neighbours.splitlines():
        if re.match(r"\| \d \|", line):
            (a, b), = re.findall(r"`\(([^,`]+), ([^)`]+)\)`", line)
            offsets.append((_value(a, x=0, y=0), _value(b, x=0, y=0)))
    assert tuple(offsets) == ref_havannah.NEIGHBOURS
    corners = _section(havannah, "### Corners", "### Edges")
    for size in (2, 3, 7):
        assert _table_cells(corners, size) == list(ref_havannah.corners(size))
    # Each edge condition picks, among the hexagons that are not corners, the
    # S - 2 hexagons of one edge of the reference judge.
    edges = _section(havannah, "### Edges", "### Winning structures")
    conditions = re.findall(r"^\| (\d) \| `([^`]+)` \|", edges, re.M)
    assert [int(k) for k, _ in conditions] == list(range(6))
    size = 6
    seen = set()
    for _, condition in conditions:
        left, right = condition.split(" = ")
        members = {cell for cell in ref_havannah.board_cells(size)
                   if cell not in ref_havannah.corners(size)
                   and _value(left, x=cell[0], y=cell[1], S=size) == _value(right, S=size)}
        edge_ids = {ref_havannah.edge_of(size, cell) for cell in members}
        assert len(members) == size - 2 and len(edge_ids) == 1, condition
        seen |= edge_ids
    assert len(seen) == 6


def test_conventions_state_the_hex_neighbours():
    text = _text(CONVENTIONS)
    hex_part = text[text.index("## Hex"):]
    neighbours = _section(hex_part, "### Neighbours", "### Sides")
    block = re.search(r"\n\n((?:    .*\n)+)", neighbours).group(1)
    offsets = set()
    for i, j in re.findall(r"\(i([-+]\d)?, j([-+]\d)?\)", block):
        offsets.add((int(i or 0), int(j or 0)))
    assert offsets == set(ref_hex.NEIGHBOURS)


# ---------------------------------------------------------------------------
# The README: limits from the code, examples that are the output
# ---------------------------------------------------------------------------

def test_readme_states_the_real_limits():
    from havhex import draw, havannah, hex
    from havhex.hex import _judge as hex_engine

    text = _text(README)
    assert "any size" not in text.lower()
    assert havannah.MAX_SIZE & (havannah.MAX_SIZE - 1) == 0
    assert f"2^{havannah.MAX_SIZE.bit_length() - 1}" in text
    for limit in (hex.MAX_SIZE, draw.HEX_SVG_MAX, draw.HEX_TEXT_MAX, draw.HAVANNAH_TEXT_MAX,
                  draw.HAVANNAH_SVG_STONES_MAX):
        assert f"{limit:,}" in text, limit
    assert f"at most {hex_engine.MAX_NUMBER_DIGITS} digits" in text
    # The Havannah ring rule is named as the contest's, beside the official one.
    assert "The ring rule is the contest's, not the official game's." in _flat(text).replace("**", "")


def _included_links():
    """docs/included_links.py, the site's hook that reads the README's links
    from docs/."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("included_links", DOCS / "included_links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# An address (a scheme) or an absolute path: neither is a file of the site.
NOT_RELATIVE = re.compile(r"[a-z][a-z0-9+.-]*:|/", re.I)


def _pictures(text):
    return (re.findall(r"!\[[^\]]*\]\(([^)\s]+)", text)
            + re.findall(r"<img[^>]*\ssrc=\"([^\"]+)\"", text))


def test_pictures_are_files_of_the_site():
    """The site opened from its files, the network off, shows every picture:
    each is a relative path to a file of docs/, which the site holds (the
    README's written from the top of the repository, a page's from its
    folder), never an address."""
    found = 0
    for path in [README, *sorted(DOCS.rglob("*.md"))]:
        for target in _pictures(_text(path)):
            assert not NOT_RELATIVE.match(target), f"{path.relative_to(ROOT)} loads {target}"
            picture = (path.parent / target).resolve()
            assert picture.is_file(), f"{path.relative_to(ROOT)} shows {target}, which is missing"
            assert DOCS in picture.parents, f"{path.relative_to(ROOT)} shows {target}, not in docs/"
            found += 1
    assert found >= 6


def test_readme_links_work_in_the_repository_and_in_the_site():
    """The README's relative links name files of the repository, and the
    site's hook (docs/included_links.py) turns each into a file of docs/ for
    the home page; an address names no repository of this project, which
    has no public one."""
    text = _text(README)
    hook = _included_links()
    pages = hook.whole_file_pages(DOCS)
    assert pages == {"README.md": "index.md", "CHANGELOG.md": "changelog.md"}, pages
    targets = [target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)", text)]
    relative = [target for target in targets if not NOT_RELATIVE.match(target)]
    assert len(relative) >= 10
    for target in relative:
        assert (ROOT / target).is_file(), f"README.md links to {target}, which is missing"
        in_site = hook.from_docs(target, pages)
        assert (DOCS / in_site).is_file(), f"the site reads README's {target} as {in_site}"
    for target in targets:
        assert not re.match(r"https?://(raw\.githubusercontent\.com|github\.com)/havhex/", target), \
            f"README.md links to {target}, a repository this project does not have"


def test_the_site_checks_its_links():
    """Every kind of link mkdocs checks warns, so that ``--strict`` fails on
    a link to a page, file or anchor not in the site, or an absolute one;
    and the site names no repository (the project has no public one)."""
    config = _text(MKDOCS)
    validation = config[config.index("\nvalidation:\n"):]
    validation = validation[:re.search(r"\n\S", validation[1:]).start() + 1]
    for section, names in {"nav": ("omitted_files", "not_found", "absolute_links"),
                           "links": ("not_found", "absolute_links", "unrecognized_links",
                                     "anchors")}.items():
        block = re.search(rf"^  {section}:\n((?:    .*\n)+)", validation + "\n", re.M)
        assert block, f"mkdocs.yml: validation has no {section} section"
        for name in names:
            assert re.search(rf"^    {name}: warn$", block.group(1), re.M), f"validation.{section}.{name}"
    assert re.search(r"^hooks:\n  - docs/included_links\.py$", config, re.M)
    for key in ("repo_url", "repo_name", "edit_uri"):
        assert not re.search(rf"^{key}:", config, re.M), key


def test_readme_pictures_are_what_their_commands_draw(cli, tmp_path):
    """The README's table of pictures names above each the command that
    draws it; drawn again with that command, each is the file shown, byte
    for byte (after a change to the drawing: run the commands with -o)."""
    lines = _text(README).splitlines()
    pairs = []
    for number, line in enumerate(lines):
        # A table's heading row of commands, its rule, then its pictures.
        below = lines[number + 2] if number + 2 < len(lines) else ""
        pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)", below)
        if line.startswith("| `havhex draw ") and pictures:
            commands = re.findall(r"`(havhex draw [^`]+)`", line)
            assert len(pictures) == len(commands), (line, below)
            pairs += zip(commands, pictures)
    assert len(pairs) >= 2, pairs
    for command, picture in pairs:
        drawn = tmp_path / Path(picture).name
        result = cli(*command.split()[1:], "-o", drawn, cwd=ROOT)
        assert result.returncode == 0, result.stderr
        assert drawn.read_bytes() == (ROOT / picture).read_bytes(), \
            f"{picture} is not what `{command}` draws today: {command} -o {picture}"


def _plain_blocks(text):
    """The fenced blocks of a Markdown text that name no language."""
    blocks, current, language = [], None, None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current, language = [], line[3:].strip()
            else:
                if not language:
                    blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return blocks


# Where the command-line examples are (``$ havhex ...`` lines and their
# output, in fenced blocks with no language), with the fewest output lines
# each shows.
EXAMPLE_PAGES = {"README.md": 4, "docs/judges.md": 3, "docs/records.md": 3,
                 "docs/getting-started.md": 5, "docs/pictures.md": 0}


@pytest.mark.parametrize("page, shown_lines", sorted(EXAMPLE_PAGES.items()))
def test_readme_json_examples_are_the_output(cli, tmp_path, page, shown_lines):
    # The commands run in a folder of their own that sees the repository's
    # examples, so that what they write (-o game.svg) lands there.
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    commands = examples = 0
    for block in _plain_blocks(_text(ROOT / page)):
        command, shown = None, []
        for line in block + ["$"]:
            if line.startswith("$"):
                if command is not None:
                    examples += _check_example(cli, command, shown, tmp_path)
                    commands += 1
                command, shown = line[1:].split(), []
            elif command is not None:
                shown.append(line)
    assert commands >= 1 and examples >= shown_lines


def _check_example(cli, command, shown, folder):
    assert command[0] == "havhex", command
    result = cli(*command[1:], cwd=folder)
    assert result.returncode == 0, result.stderr
    # What the terminal shows: the output, then the summary on stderr.
    output = result.stdout.decode().splitlines() + result.stderr.decode().splitlines()
    checked = 0
    for line in shown:
        if line.strip() == "...":
            continue
        head = line.split("...")[0]
        assert any(out.startswith(head) if "..." in line else out == line for out in output), \
            f"README shows {line!r} for {' '.join(command)}; the output is:\n" + "\n".join(output)
        checked += 1
    return checked


# ---------------------------------------------------------------------------
# The documentation site, the changelog, docs/performance.md
# ---------------------------------------------------------------------------

def test_the_site_lists_every_page():
    config = _text(MKDOCS)
    nav = config[config.index("\nnav:\n"):]
    listed = re.findall(r"^\s+- (?:[^:\n]+: )?(\S+\.md)$", nav, re.M)
    assert len(listed) == len(set(listed)), "a page is listed twice"
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert set(listed) == pages, (sorted(pages - set(listed)), sorted(set(listed) - pages))
    # The home page and the changelog include the files themselves, written once.
    assert _text(DOCS / "index.md").strip() == '--8<-- "README.md"'
    assert _text(DOCS / "changelog.md").strip() == '--8<-- "CHANGELOG.md"'


def test_the_api_reference_covers_the_public_modules():
    reference = "\n".join(_text(p) for p in sorted((DOCS / "api").glob("*.md")))
    for module in ("havhex", "havhex.havannah", "havhex.hex", "havhex.records", "havhex.draw",
                   "havhex.dask", "havhex.gymnasium", "havhex.pettingzoo"):
        assert re.search(rf"^::: {re.escape(module)}$", reference, re.M), module
    # Both live boards and the exception are in it too.
    assert re.search(r"^::: havhex\.havannah\.board(\.Board)?$", reference, re.M)
    assert re.search(r"^::: havhex\.hex\.board(\.Board)?$", reference, re.M)
    assert "InputError" in reference


def _reference_directives():
    """``(target, members)`` of each ``::: target`` of docs/api/*.md:
    ``members`` is the list its ``members:`` option names, None when it
    names none (mkdocstrings then leaves out the constants, which have no
    docstrings: only a list shows them)."""
    for path in sorted((DOCS / "api").glob("*.md")):
        text = _text(path)
        for match in re.finditer(r"^::: (\S+)\n((?:    .*\n)*)", text, re.M):
            members = re.search(r"^ +members: \[(.*)\]$", match.group(2), re.M)
            yield match.group(1), ([m.strip() for m in members.group(1).split(",")]
                                   if members else None)


def _public_modules(package):
    """A game's package and its submodules whose names do not start with
    an underscore."""
    import importlib
    import pkgutil

    top = importlib.import_module(package)
    return [top] + [importlib.import_module(f"{package}.{info.name}")
                    for info in pkgutil.iter_modules(top.__path__)
                    if not info.name.startswith("_")]


def test_the_api_reference_documents_every_public_name_of_both_games():
    import importlib
    import inspect

    needs.module("numpy")           # the batches' modules import it
    named, objects = set(), []
    for target, members in _reference_directives():
        if not (target == "havhex" or target.startswith(("havhex.havannah", "havhex.hex"))):
            continue
        try:
            module, names = importlib.import_module(target), members or []
        except ImportError:             # an object of a module: module.Name
            parent, _, name = target.rpartition(".")
            module, names = importlib.import_module(parent), [name]
        for name in names:
            named.add((module.__name__, name))
            objects.append(getattr(module, name))
    missing = []
    for package in ("havhex.havannah", "havhex.hex"):
        modules = _public_modules(package)
        assert {"batch", "board"} <= {m.__name__.rpartition(".")[2] for m in modules}
        for module in modules:
            for name in module.__all__:
                value = getattr(module, name)
                # A class or function re-exported (havhex.hex.Board) is
                # documented where it is defined; a constant by its own name.
                shown = (module.__name__, name) in named or (
                    (inspect.isclass(value) or inspect.isroutine(value))
                    and any(value is other for other in objects))
                if not shown:
                    missing.append(f"{module.__name__}.{name}")
    assert not missing, "docs/api/*.md leaves out " + ", ".join(missing)


DEVELOPMENT = DOCS / "development.md"


def test_development_names_every_need_havhex_require_takes():
    text = _flat(_text(DEVELOPMENT))
    sentence = re.search(r"The names are ((?:`\w+`,? )+and `\w+`); an unknown name is an error",
                         text)
    assert sentence, "docs/development.md does not list HAVHEX_REQUIRE's names"
    listed = re.findall(r"`(\w+)`", sentence.group(1))
    assert len(listed) == len(set(listed)), listed
    assert set(listed) == set(needs.NAMES), (sorted(set(needs.NAMES) - set(listed)),
                                             sorted(set(listed) - set(needs.NAMES)))


def test_development_layout_is_the_layers_test_layers_checks():
    """The Layout of docs/development.md has one numbered item per layer of
    tests/packaging/test_layers.py, in its order, and names each module and package
    at the top of src/havhex in the item of its layer."""
    from layering import LAYERS, layer_of

    layout = _section(_text(DEVELOPMENT), "## Layout\n", "\n## ")
    parts = re.split(r"^(\d+)\. ", layout, flags=re.M)
    numbers, items = [int(n) for n in parts[1::2]], parts[2::2]
    layers = [layer for layer in LAYERS if layer != "top"]
    assert numbers == list(range(1, len(layers) + 1)), (numbers, layers)
    tops = sorted({path.name.split(".")[0] for path in PACKAGE.iterdir()
                   if (path.is_dir() and path.name != "__pycache__")
                   or path.suffix in (".py", ".pyx")} - {"__init__"})
    assert len(tops) >= 20, tops
    for top in tops:
        layer = layer_of(f"havhex.{top}")
        assert layer in layers, (top, layer)
        item = items[layers.index(layer)]
        assert re.search(rf"`(?:havhex/)?{re.escape(top)}(?:/|\.pyx?)?`", item), \
            f"docs/development.md, Layout: item {layers.index(layer) + 1} does not name {top}"


def test_ci_builds_the_site_strictly_outside_the_repository():
    ci = _text(ROOT / ".ci" / "run")
    build = re.search(r'^pip install --quiet "havhex\[docs\]" && .*mkdocs build (.*?) \|\| exit 1$',
                      ci, re.M)
    assert build, ".ci/run does not build the documentation site"
    options = build.group(1).split()
    assert "--strict" in options
    assert options[options.index("--site-dir") + 1].startswith('"$work/')
    # Right after the README's test command.
    assert ci.index("python -m pytest tests' || exit 1") < build.start() < ci.index("OpenSpiel")
    pyproject = _text(ROOT / "pyproject.toml")
    extra = re.search(r"^docs = \[(.*)\]$", pyproject, re.M)
    assert extra, "pyproject.toml has no docs extra"
    for package in ("mkdocs", "mkdocs-material", "mkdocstrings[python]"):
        assert re.search(rf'"{re.escape(package)}>=[\d.]+"', extra.group(1)), package
    manifest = _text(ROOT / "MANIFEST.in")
    for name in ("mkdocs.yml", "CHANGELOG.md"):
        assert re.search(rf"^include .*\b{re.escape(name)}\b", manifest, re.M), name
    assert re.search(r"^(recursive-include docs .*\*\.md|graft docs)$", manifest, re.M)
    assert re.search(r"^site/$", _text(ROOT / ".gitignore"), re.M)


def test_changelog_keeps_a_changelog():
    from havhex import __version__

    text = _text(CHANGELOG)
    releases = re.findall(r"^## \[([^\]]+)\](.*)$", text, re.M)
    assert releases and releases[0] == ("Unreleased", ""), releases[:1]
    for version, date in releases[1:]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
        assert re.fullmatch(r" - \d{4}-\d{2}-\d{2}", date), (version, date)
    assert __version__ in [version for version, _ in releases[1:]], \
        f"CHANGELOG.md has no entry for the version {__version__}"
    kinds = set(re.findall(r"^### (\w+)", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds


def test_performance_gives_todays_figures_then_one_history():
    text = _text(PERFORMANCE)
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert sections[0] == "Today's figures", sections
    assert sections.count("History") == 1 and sections[-1] == "History", sections
    history = text.index("\n## History\n")
    # Every dated heading is a log of the history; today's figures are dated
    # in their text.
    for match in re.finditer(r"^#+ .*\b\d{4}-\d{2}-\d{2}\b.*$", text, re.M):
        assert match.start() > history, f"a dated section before the history: {match.group(0)}"
    assert re.findall(r"^### .*\(\d{4}-\d{2}-\d{2}\)$", text[history:], re.M)



def test_benchmark_commands_write_their_json_outside_the_checkout():
    # The whole suite's JSON is some 25 MB: a command run from the checkout
    # must not leave it there.
    texts = {path: _text(path) for path in [README, *sorted(DOCS.glob("*.md")),
                                            ROOT / "bench" / "report.py"] if path.is_file()}
    # (The history records the commands as they were run.)
    texts[PERFORMANCE] = texts[PERFORMANCE].split("\n## History\n")[0]
    found = 0
    for path, text in texts.items():
        for target in re.findall(r"--benchmark-json=(\S+)", text):
            found += 1
            assert target.startswith('"${TMPDIR:-/tmp}/'), f"{path.name}: --benchmark-json={target}"
    assert found >= 3


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
