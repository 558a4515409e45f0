"""Imports flow one way through src/havhex, lazy ones inside functions included.

Every module is parsed (Python with ``ast``; Cython ``.pyx``/``.pxd``/``.pxi``
with a line parser that knows ``import``, ``cimport``, their ``from`` forms
and ``include``), and the graph of imports between havhex's own modules is
checked for three things: no cycle; no import from a layer to one above it
(leaves -> the games -> the registry of games -> the search -> records -> the adapters for Gymnasium and PettingZoo
-> draw -> the GTP engine -> the match arbiter -> the cluster layer -> cli); no
submodule importing its own package's ``__init__``.  Each fault names the
file and line of the import.

A fourth check keeps private names inside their package (a top-level
subpackage of havhex, or the root): a module or a name with one leading
underscore is imported, or reached as an attribute, only within the
package that defines it.  The root's own private leaf modules
(``havhex._threads``, ``havhex._native``...) are the house's shared
internals, imported from anywhere.
"""
import ast
import re
from pathlib import Path

import pytest

from layering import LAYERS, is_package as _is_package, layer_of as _layer
from layering import module_name as _module_name, resolve as _resolve

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "havhex"
CYTHON = (".pyx", ".pxd", ".pxi")

def _sources():
    return sorted(path for path in PACKAGE.rglob("*")
                  if path.suffix in (".py",) + CYTHON and "__pycache__" not in path.parts)


def _modules():
    names = {}
    for path in _sources():
        name = _module_name(path)
        if name is not None:
            names.setdefault(name, []).append(path)
    return names


def _from_targets(base, names, known):
    """What ``from base import names`` imports: each name that is a module
    of its own, else ``base`` itself (its ``__init__`` for a package)."""
    targets = []
    for name in names:
        if name != "*" and f"{base}.{name}" in known:
            targets.append(f"{base}.{name}")
        else:
            targets.append(base)
    return targets


# ---------------------------------------------------------------------------
# Python
# ---------------------------------------------------------------------------

def _python_imports(module, path, known):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node.level, node.module)
            names = [alias.name for alias in node.names]
            found.extend((target, node.lineno) for target in _from_targets(base, names, known))
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------------------
# Cython
# ---------------------------------------------------------------------------

_STRING = re.compile(r"""[rbufRBUF]{0,2}('''|\"\"\"|'|")""")


def _code_lines(text):
    """``(line number, code)`` of each logical line of Cython source: the
    comments and the text of strings (docstrings too) blanked out, lines
    continued by a backslash or an open bracket joined."""
    lines = text.splitlines()
    out = []
    quote = None                # the triple quote a string opened, while inside it
    pending, first = "", None
    depth = 0
    for number, raw in enumerate(lines, 1):
        code = []
        i = 0
        while i < len(raw):
            if quote is not None:
                end = raw.find(quote, i)
                if end < 0:
                    i = len(raw)
                    break
                i = end + len(quote)
                quote = None
                code.append('""')
                continue
            character = raw[i]
            if character == "#":
                break
            match = _STRING.match(raw, i)
            if match and (i == 0 or not (raw[i - 1].isalnum() or raw[i - 1] == "_")):
                opener = match.group(1)
                start = match.end()
                if len(opener) == 3:
                    end = raw.find(opener, start)
                    if end < 0:
                        quote = opener
                        i = len(raw)
                        break
                    i = end + 3
                else:
                    j = start
                    while j < len(raw) and raw[j] != opener:
                        j += 2 if raw[j] == "\\" else 1
                    # An include's file name is kept: it is what the line means.
                    code.append(raw[i:j + 1])
                    i = j + 1
                    continue
                code.append('""')
                continue
            if character in "([{":
                depth += 1
            elif character in ")]}":
                depth = max(0, depth - 1)
            code.append(character)
            i += 1
        line = "".join(code)
        if first is None:
            first = number
        continued = line.rstrip().endswith("\\")
        pending += " " + (line.rstrip()[:-1] if continued else line)
        if continued or depth > 0 or quote is not None:
            continue
        out.append((first, pending.strip()))
        pending, first = "", None
    if pending.strip():
        out.append((first, pending.strip()))
    return out


_IMPORT = re.compile(r"^c?import\s+(.+)$")
_FROM = re.compile(r"^from\s+(\.*)([\w.]*)\s+c?import\s+(.+)$")
_INCLUDE = re.compile(r"""^include\s+(["'])(.+)\1$""")


def _names(listing):
    listing = listing.strip()
    if listing.startswith("(") and listing.endswith(")"):
        listing = listing[1:-1]
    return [part.split()[0] for part in listing.split(",") if part.strip()]


def _include_path(includer, name):
    for base in (includer.parent, SRC):
        candidate = base / name
        if candidate.is_file():
            return candidate
    raise AssertionError(f"{includer}: include {name!r} names no file")


def _cython_imports(module, path, known, seen=()):
    """The imports of a Cython file, the included files' among them (at
    the line of their ``include``, in the includer)."""
    found = []
    for number, line in _code_lines(path.read_text(encoding="utf-8")):
        match = _IMPORT.match(line)
        if match:
            found.extend((name, number) for name in _names(match.group(1)))
            continue
        match = _FROM.match(line)
        if match:
            base = _resolve(module, len(match.group(1)), match.group(2))
            found.extend((target, number)
                         for target in _from_targets(base, _names(match.group(3)), known))
            continue
        match = _INCLUDE.match(line)
        if match:
            included = _include_path(path, match.group(2))
            assert included not in seen, f"{path}:{number}: include cycle through {included}"
            found.extend((target, number) for target, _ in
                         _cython_imports(module, included, known, seen + (path,)))
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------------------
# The graph
# ---------------------------------------------------------------------------

def _graph():
    """``{module: [(imported module, file, line), ...]}`` over havhex's own
    modules (an include file's imports are its includer's)."""
    modules = _modules()
    known = set(modules)
    graph = {}
    for module, paths in modules.items():
        edges = graph.setdefault(module, [])
        for path in paths:
            parse = _python_imports if path.suffix == ".py" else _cython_imports
            for target, line in parse(module, path, known):
                if target != "havhex" and not target.startswith("havhex."):
                    continue
                # ``import havhex.a.b``: the deepest module the name holds.
                while target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target != module:
                    edges.append((target, path.relative_to(SRC), line))
    return graph


def _where(edge):
    target, path, line = edge
    return f"{path}:{line}: imports {target}"


def _cycles(graph):
    """Each cycle of the graph once (the strongly connected components with
    more than one module, with one path round each)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []
    counter = [0]

    def visit(node):
        # Iterative Tarjan: the graph is small, but recursion would hide
        # the import that closes the cycle in a deep traceback.
        work = [(node, iter(graph[node]))]
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        while work:
            current, edges = work[-1]
            advanced = False
            for target, _, _ in edges:
                if target not in index:
                    index[target] = low[target] = counter[0]
                    counter[0] += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    advanced = True
                    break
                if target in on_stack:
                    low[current] = min(low[current], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[current])
            if low[current] == index[current]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == current:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def _cycle_path(graph, component):
    """One closed path through a component, as the imports that make it."""
    members = set(component)
    start = component[0]
    # Breadth-first from start back to start, within the component.
    paths = {start: []}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for edge in graph[node]:
            target = edge[0]
            if target not in members:
                continue
            if target == start:
                return paths[node] + [edge]
            if target not in paths:
                paths[target] = paths[node] + [edge]
                queue.append(target)
    return []


GRAPH = _graph()


def test_the_parser_sees_the_imports_it_must():
    """The graph holds imports of every kind the checks rest on, so that a
    parser that found nothing could not pass them."""
    edges = {(module, target) for module, listed in GRAPH.items() for target, _, _ in listed}
    # A Python import at the top of a file, a relative one and a lazy one.
    assert ("havhex.records.game", "havhex.errors") in edges
    assert ("havhex.havannah", "havhex.havannah._judge") in edges
    assert ("havhex.cli", "havhex.cli.arguments") in edges
    # A cimport, a Cython import, and an include file's cimport.
    assert ("havhex.havannah._judge", "havhex._native.unionfind") in edges
    assert ("havhex.records._reader", "havhex.errors") in edges
    assert ("havhex.hex._judge", "havhex._native.cancel") in edges
    # Nothing from inside a docstring (``>>> from havhex.hex import Board``).
    assert len(GRAPH) > 40


def test_every_module_has_a_layer():
    unplaced = sorted(module for module in GRAPH if _layer(module) is None)
    assert not unplaced, f"modules in no layer (add them to _layer): {unplaced}"


def test_no_import_cycle():
    cycles = _cycles(GRAPH)
    text = []
    for component in cycles:
        text.append(f"cycle through {len(component)} modules: {', '.join(component)}")
        text.extend("    " + _where(edge) for edge in _cycle_path(GRAPH, component))
    print("\n".join(text))
    assert not cycles, "\n".join(text)


def test_no_import_up_the_layers():
    faults = []
    for module, edges in sorted(GRAPH.items()):
        here = _layer(module)
        if here is None:
            continue
        for edge in edges:
            there = _layer(edge[0])
            if there is None:
                continue
            if LAYERS.index(there) > LAYERS.index(here):
                faults.append(f"{_where(edge)} ({here} -> {there})")
            elif here == there == "game" and module.split(".")[1] != edge[0].split(".")[1]:
                faults.append(f"{_where(edge)} (one game imports the other)")
    print("\n".join(faults))
    assert not faults, "\n".join(faults)


def test_no_submodule_imports_its_own_package():
    faults = []
    for module, edges in sorted(GRAPH.items()):
        for edge in edges:
            target = edge[0]
            if _is_package(target) and module.startswith(target + "."):
                faults.append(f"{_where(edge)} (its own package's __init__)")
    print("\n".join(faults))
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("source, expected", [
    ('from havhex._native.reader cimport (\n    a,\n    b)\n', ["havhex._native.reader"]),
    ('    from havhex._threads import Worker  # lazy\n', ["havhex._threads"]),
    ('x = 1  # from havhex.errors import InputError\n', []),
    ('"""\n>>> from havhex.hex import Board\n"""\n', []),
    ('cimport havhex._native.random as r, havhex._native.portable\n',
     ["havhex._native.random", "havhex._native.portable"]),
    ('from havhex import errors, \\\n    _version\n', ["havhex.errors", "havhex._version"]),
    ('cdef extern from "havhex/_native/lines.h":\n    pass\n', []),
])
def test_the_cython_line_parser(tmp_path, source, expected):
    path = tmp_path / "sample.pyx"
    path.write_text(source, encoding="utf-8")
    known = {"havhex.errors", "havhex._version", "havhex._native.reader",
             "havhex._native.random", "havhex._native.portable", "havhex._threads"}
    targets = [target for target, _ in _cython_imports("havhex.sample", path, known)]
    assert targets == expected


def test_an_included_files_imports_are_the_includers(tmp_path):
    (tmp_path / "part.pxi").write_text('"""A part."""\nfrom havhex._threads import Worker\n',
                                       encoding="utf-8")
    path = tmp_path / "sample.pyx"
    path.write_text('from havhex.errors import InputError\ninclude "part.pxi"\n', encoding="utf-8")
    found = _cython_imports("havhex.sample", path, {"havhex.errors", "havhex._threads"})
    # The included import is the includer's, at the line of its include.
    assert found == [("havhex.errors", 1), ("havhex._threads", 2)]


# ---------------------------------------------------------------------------
# Private names stay in their package
# ---------------------------------------------------------------------------

# The packages: the top-level subpackages of havhex, but for the root's
# leaf folders (``_native``, the compiled parts they share), and the root
# (""), whose modules are its own.
PACKAGES = frozenset(path.name for path in PACKAGE.iterdir()
                     if path.is_dir() and _layer(f"havhex.{path.name}") not in (None, "leaf")
                     and any(path.glob("__init__.*")))

# Private names reached across packages today, each while what replaces it
# is made: (file under src/havhex, the private name, why it is allowed).
CROSSING_ALLOWED = {
}


def _private(name):
    """One leading underscore: private (a dunder name is not)."""
    return name.startswith("_") and not name.startswith("__")


def _package_of(module):
    """The package a module of havhex belongs to ("" for the root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in PACKAGES else ""


def _owner_of_private(dotted):
    """For a dotted name under havhex (a module, or a module and a name in
    it), the package whose private name it reaches, or None when it reaches
    none but the root's shared leaf modules."""
    parts = dotted.split(".")
    if parts[0] != "havhex":
        return None
    for index in range(1, len(parts)):
        if not _private(parts[index]):
            continue
        if index == 1 and (parts[1] in PACKAGES or _layer(f"havhex.{parts[1]}") == "leaf"):
            continue        # a package's own name, or one of the root's shared leaves
        return _package_of(".".join(parts[:index + 1]))
    return None


def _imported_names(module, path):
    """``(dotted name, line)`` of everything a file imports: ``import a.b``
    gives ``a.b``, ``from a import b`` gives ``a.b`` (a module or a name in
    one); Cython's forms and an included file's imports too."""
    if path.suffix == ".py":
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield alias.name, node.lineno
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, node.level, node.module)
                for alias in node.names:
                    yield f"{base}.{alias.name}", node.lineno
        return
    for number, line in _code_lines(path.read_text(encoding="utf-8")):
        match = _IMPORT.match(line)
        if match:
            for name in _names(match.group(1)):
                yield name, number
            continue
        match = _FROM.match(line)
        if match:
            base = _resolve(module, len(match.group(1)), match.group(2))
            for name in _names(match.group(3)):
                yield f"{base}.{name}", number
            continue
        match = _INCLUDE.match(line)
        if match:
            included = _include_path(path, match.group(2))
            yield from ((name, number) for name, _ in _imported_names(module, included))


_CYTHON_DEFINITION = re.compile(r"^(?:cp?def|def|class|cdef\s+class)\b[^=(:]*?\b(_\w+)\s*[(:]")
_CYTHON_ANY_DEFINITION = re.compile(
    r"(?:^|\s)(?:cp?def|def|class)\b[^=(:]*?\b(_\w+)\s*[(:]|\.(_\w+)\s*=[^=]")
_CYTHON_ATTRIBUTE = re.compile(r"[\w)\]]\.(_\w+)")


def _cython_code(path):
    """``(line, code, at the top level)`` of each code line of a Cython
    file and of the files it includes (an included line at its include's
    line, its level its own file's)."""
    text = path.read_text(encoding="utf-8")
    raw = text.splitlines()
    found = []
    for number, line in _code_lines(text):
        match = _INCLUDE.match(line)
        if match:
            included = _cython_code(_include_path(path, match.group(2)))
            found.extend((number, code, top) for _, code, top in included)
        else:
            found.append((number, line, not raw[number - 1][:1].isspace()))
    return found


def _definitions(path):
    """``(top-level private functions and classes, every private name the
    file defines anywhere)``: the first may be reached only from within the
    package; the second are what the file's own ``x._name`` may mean (a
    method, an attribute it sets)."""
    top, anywhere = set(), set()
    if path.suffix == ".py":
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                top.add(node.name)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                anywhere.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                anywhere.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                anywhere.add(node.id)
    elif path.suffix != ".pxi":         # an include file's lines are its includer's
        for _, line, top_level in _cython_code(path):
            match = _CYTHON_DEFINITION.match(line)
            if match and top_level:
                top.add(match.group(1))
            for match in _CYTHON_ANY_DEFINITION.finditer(line):
                anywhere.add(match.group(1) or match.group(2))
    return {name for name in top if _private(name)}, {name for name in anywhere if _private(name)}


def _attributes(path):
    """``(private attribute name, line)`` of each ``x._name`` a file reads."""
    if path.suffix == ".py":
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                yield node.attr, node.lineno
        return
    for number, line, _ in _cython_code(path):
        if _IMPORT.match(line) or _FROM.match(line):
            continue            # a dotted module name, which the imports' check reads
        for match in _CYTHON_ATTRIBUTE.finditer(line):
            if _private(match.group(1)):
                yield match.group(1), number


def _private_crossings():
    """``(file, private name, line, what)`` of every import or attribute
    that reaches a private name of another package."""
    modules = _modules()
    tops = {}                   # package -> {private top-level name: defining module}
    defined = {}                # package -> every private name its files define
    for module, paths in modules.items():
        package = _package_of(module)
        for path in paths:
            top, anywhere = _definitions(path)
            for name in top:
                tops.setdefault(package, {}).setdefault(name, module)
            defined.setdefault(package, set()).update(anywhere | top)
    found = []
    for module, paths in sorted(modules.items()):
        here = _package_of(module)
        for path in paths:
            where = path.relative_to(PACKAGE).as_posix()
            for dotted, line in _imported_names(module, path):
                owner = _owner_of_private(dotted)
                if owner is not None and owner != here:
                    name = next(part for part in dotted.split(".")[1:] if _private(part)
                                and not (part in PACKAGES or _layer(f"havhex.{part}") == "leaf"))
                    found.append((where, name, line, f"imports {dotted} (private to "
                                                     f"{owner or 'the root'})"))
            for name, line in _attributes(path):
                if name in defined.get(here, ()):
                    continue        # its own method, attribute or function
                if _layer(f"havhex.{name}") == "leaf" and f"havhex.{name}" in modules:
                    continue        # one of the root's shared leaf modules
                for package, names in sorted(tops.items()):
                    if package != here and name in names:
                        found.append((where, name, line, f"reaches {name}, a private name of "
                                                         f"{names[name]}"))
    return found


def test_the_packages_are_the_top_level_subpackages():
    assert PACKAGES == {"havannah", "hex", "records", "draw", "gtp", "match", "cli", "_cluster",
                        "search"}


def test_no_private_name_crosses_a_package():
    crossings = _private_crossings()
    faults = [f"{where}:{line}: {what}" for where, name, line, what in crossings
              if (where, name) not in CROSSING_ALLOWED]
    print("\n".join(faults))
    assert not faults, "\n".join(faults)


def test_every_allowed_crossing_is_still_made():
    """An allowance whose crossing is gone is struck off, so that it cannot
    let a new one through."""
    made = {(where, name) for where, name, _, _ in _private_crossings()}
    stale = sorted(set(CROSSING_ALLOWED) - made)
    assert not stale, f"allowed crossings no longer made (remove them): {stale}"


@pytest.mark.parametrize("dotted, owner", [
    ("havhex.hex._board", "hex"),                   # a private module
    ("havhex.hex._board.Board", "hex"),             # a name in one
    ("havhex.records.units._run_unit", "records"),  # a private name in a public module
    ("havhex._threads", None),                      # the root's shared leaves
    ("havhex._threads.run_workers", None),
    ("havhex._native.reader.Reader", None),
    ("havhex._threads._Done", ""),                  # a private name in one: the root's
    ("havhex._cluster.run", None),                  # a package's own name
    ("havhex._cluster.run._wanted_here", "_cluster"),
    ("havhex.records.units.replay_task", None),
    ("havhex.__version__", None),                   # a dunder name is not private
    ("os._exit", None),                             # not havhex's
])
def test_the_owner_of_a_private_name(dotted, owner):
    assert _owner_of_private(dotted) == owner


def test_the_private_names_a_file_defines_and_reaches(tmp_path):
    path = tmp_path / "sample.py"
    path.write_text("import os\n"
                    "def _top():\n"
                    "    return os._exit\n"
                    "class Public:\n"
                    "    def _method(self):\n"
                    "        self._field = module._judge_files(self._other)\n", encoding="utf-8")
    top, anywhere = _definitions(path)
    assert top == {"_top"}
    assert {"_top", "_method", "_field"} <= anywhere
    assert sorted(_attributes(path)) == [("_exit", 3), ("_field", 6), ("_judge_files", 6),
                                         ("_other", 6)]
    cython = tmp_path / "sample.pyx"
    cython.write_text("from havhex._threads import run_shared\n"
                      "cdef class _Kernel:\n"
                      "    cdef int _step(self):\n"
                      "        return self.module._file_start(1)\n"
                      "def _entry(x):\n"
                      "    pass\n", encoding="utf-8")
    top, anywhere = _definitions(cython)
    assert top == {"_Kernel", "_entry"} and "_step" in anywhere
    # The import line's dotted name is not an attribute.
    assert list(_attributes(cython)) == [("_file_start", 4)]
