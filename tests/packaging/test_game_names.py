"""Outside the game packages and the registry, no module knows which games
there are: none names a game by its string or imports a game package.

What depends on the game comes from its descriptor, found by name through
:mod:`havhex.games` (so a third game plugs in with one package and one
registry line: tests/contracts/test_a_third_game.py).  Every Python module of
src/havhex is parsed: a string constant that is a built-in game's name
(docstrings aside) is a fault, and so is an import of ``havhex.havannah``
or ``havhex.hex`` (lazy ones inside functions included); Cython sources are
read for the same strings and imports.  Each fault names the file and line.
"""
import ast
import re
from pathlib import Path

from layering import module_name, resolve

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "havhex"
GAME_PACKAGES = ("havannah", "hex")
GAME_NAMES = set(GAME_PACKAGES)
# The registry, which says where each built-in game lives; and the top
# package, which re-exports its own subpackages, the built-in games among
# them, by their module names (importing the registry there would cost
# every ``import havhex`` a millisecond and a half).
REGISTRY = PACKAGE / "games.py"
TOP = PACKAGE / "__init__.py"

def _outside():
    """The sources outside the game packages and the registry."""
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd", ".pxi") or "__pycache__" in path.parts:
            continue
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in GAME_PACKAGES or path in (REGISTRY, TOP):
            continue
        yield path


def _docstrings(tree):
    """The ids of the docstring nodes of a module and its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _python_faults(path, text=None):
    """The faults of the module at ``path`` (of ``text`` as if it were there)."""
    module = module_name(path)
    if text is None:
        text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    docstrings = _docstrings(tree)
    faults = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and node.value in GAME_NAMES and id(node) not in docstrings):
            faults.append((node.lineno, f"names the game {node.value!r}"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _is_game_module(alias.name):
                    faults.append((node.lineno, f"imports {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            base = resolve(module, node.level, node.module)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            if any(_is_game_module(target) for target in targets):
                faults.append((node.lineno, f"imports from {base}"))
    return sorted(faults)


def _is_game_module(name):
    parts = name.split(".")
    return len(parts) >= 2 and parts[0] == "havhex" and parts[1] in GAME_PACKAGES


_GAME_STRING = re.compile(r"""(['"])(%s)\1""" % "|".join(sorted(GAME_NAMES)))
_GAME_IMPORT = re.compile(r"\b(c?import|from)\s+(havhex\.|\.\.?)(%s)\b"
                          % "|".join(GAME_PACKAGES))


def _cython_faults(path):
    faults = []
    text = path.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0]
        if _GAME_STRING.search(code):
            faults.append((number, "names a game by its string"))
        if _GAME_IMPORT.search(code):
            faults.append((number, "imports a game package"))
    return faults


def _faults(path):
    return _python_faults(path) if path.suffix == ".py" else _cython_faults(path)


def test_no_module_outside_the_games_names_a_game_or_imports_one():
    faults = []
    for path in _outside():
        relative = path.relative_to(SRC).as_posix()
        faults.extend(f"{relative}:{line}: {what}" for line, what in _faults(path))
    assert not faults, "\n".join(faults)


def test_the_check_finds_a_game_named_or_imported(tmp_path):
    """The check itself: a module naming a game, or importing one, lazily
    too, is caught; a docstring is not."""
    text = ('"""A docstring may say hex."""\n'
            'def board(game):\n'
            '    if game == "hex":\n'
            '        from ..havannah import board\n'
            '    import havhex.hex\n')
    faults = _python_faults(PACKAGE / "match" / "made_up.py", text)
    assert [line for line, _ in faults] == [3, 4, 5], faults
    cython = tmp_path / "made_up.pyx"
    cython.write_text('from havhex.hex cimport _cells\nx = "havannah"\n')
    assert [line for line, _ in _cython_faults(cython)] == [1, 2]
