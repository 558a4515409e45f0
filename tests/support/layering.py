"""The layers of src/havhex and how a module's name and its relative imports
read: what tests/packaging/test_layers.py checks the imports by, and what
tests/packaging/test_game_names.py and tests/docs/test_docs.py read too."""
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

# The layers, lowest first: a module may import from its own layer or below.
LAYERS = ("leaf", "game", "registry", "search", "records", "adapters", "draw", "gtp", "match", "cluster", "cli",
          "top")


def layer_of(module):
    """The layer of a module of havhex (None: a module no layer names, a
    fault of its own, so that a new module is placed on purpose)."""
    parts = module.split(".")
    if parts == ["havhex"]:
        return "top"            # only re-exports downward; nothing imports it
    head = parts[1]
    if head in ("errors", "_checks", "_native", "_source", "_threads", "_files", "_buffers",
                "_frozen", "_explanation", "_version", "_boundaries", "_svg", "_units", "_pool",
                "_batch", "_batch_core", "_notation", "descriptor", "contract"):
        return "leaf"
    if head in ("havannah", "hex"):
        return "game"
    if head == "games":
        return "registry"
    if head == "search":
        return "search"
    if head == "records":
        return "records"
    if head in ("gymnasium", "pettingzoo"):
        return "adapters"
    if head == "draw":
        return "draw"
    if head == "gtp":
        return "gtp"
    if head == "match":
        return "match"
    if head in ("dask", "_cluster"):
        return "cluster"
    if head in ("cli", "__main__"):
        return "cli"
    return None


def module_name(path):
    """The dotted name of a source file, None for an include file (its
    imports are its includer's)."""
    relative = path.relative_to(SRC).with_suffix("")
    if path.suffix == ".pxi":
        return None
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(module):
    return (SRC / Path(*module.split("."))).is_dir()


def resolve(module, level, target):
    """The absolute name of ``from <level dots><target>`` in ``module``."""
    if level == 0:
        return target
    base = module.split(".")
    if not is_package(module):
        base = base[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))
