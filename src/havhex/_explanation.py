"""The one explanation type of both games: a verdict and the evidence for it.

Both games' ``explain*`` functions return :class:`Explanation`; what the
evidence is depends on the game, so it is named by the game's fields (read
as attributes), and :meth:`Explanation.to_dict` gives the record that
``--format json`` prints.  Each game says its evidence and its record in a
subclass of its own, in its package (``class
HexExplanation(Explanation, game="hex")``); this leaf names no game.
"""
from ._frozen import Frozen

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Dict, Iterable, List, Optional, Tuple, Type

__all__ = ["Explanation", "json_record", "cell_lists", "sorted_cells"]


def _frozen(value: "Any") -> "Any":
    """``value`` with every list made a tuple, so that an explanation is hashable."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


class Explanation(Frozen):
    """A verdict with its evidence: immutable, hashable, comparable, picklable.

    ``game`` is ``"havannah"`` or ``"hex"``; ``result`` the game's ``Result``
    (``answer`` is ``str(result)``); ``case`` the case's number in its input,
    from 1, or ``None`` for an explanation of one sequence or board.  Cells
    are tuples, ``(x, y)`` for Havannah and ``(row, column)`` for Hex.  The
    evidence, by game (a field of the other game raises AttributeError):

    * Havannah: ``bridge``, a shortest corner-to-corner path of stones;
      ``fork``, a small tree of stones touching three edges; ``ring``, a
      closed loop of stones through the winning move; ``enclosed_runs``, the
      hexagons the ring cuts off as ``(x, first_y, last_y)`` runs.  Each is
      ``None`` when its structure was not built.
    * Hex: ``red_stones`` and ``blue_stones``, the counts; ``chains``,
      ``(colour, cells)`` pairs (colour ``"red"`` or ``"blue"``), each chain
      from its colour's first side to its second: a win's winning chain, the
      two stone-disjoint chains of ``"no-single-last-move"``, Red's then
      Blue's for ``"both-connected"``, the winner's for
      ``"loser-moved-last"``, else none.
    """

    __slots__ = ("game", "case", "result", "_evidence")
    # Set once, by _set (Frozen).
    game: str
    case: "Optional[int]"
    result: "Any"
    _evidence: "Tuple[Any, ...]"

    # The evidence's names, in the order a repr shows them: each game's
    # subclass gives its own: Havannah's bridge, fork, ring (tuples
    # of (x, y)) and enclosed_runs (tuple of (x, first_y, last_y)), each
    # None when not built; Hex's red_stones, blue_stones (int) and chains
    # (tuple of (colour, cells)).
    EVIDENCE: "ClassVar[Tuple[str, ...]]" = ()
    # The game's name, which each game's subclass sets.
    GAME: "ClassVar[str]"
    # Each game's subclass, by the game's name, as its package defines it.
    _by_game: "ClassVar[Dict[str, Type[Explanation]]]" = {}

    def __init_subclass__(cls, game: "Optional[str]" = None, **options: "Any") -> None:
        # A subclass without a game (a user's) keeps its base's.
        super().__init_subclass__(**options)
        if game is not None:
            cls.GAME = game
            Explanation._by_game[game] = cls

    def __new__(cls, game: str, *args: "Any", **kwargs: "Any") -> "Explanation":
        if cls is Explanation:
            found = Explanation._by_game.get(game)
            if found is None:
                raise ValueError(f"game must be one of {tuple(Explanation._by_game)}, "
                                 f"got {game!r}")
            cls = found
        return object.__new__(cls)

    def __init__(self, game: str, result: "Any", case: "Optional[int]" = None,
                 **evidence: "Any") -> None:
        if game != type(self).GAME:
            raise ValueError(f"a {type(self).GAME} explanation, not one of {game!r}")
        if case is not None:
            from ._checks import integer

            case = integer(case, "case")
            if case < 1:
                raise ValueError(f"case must be >= 1 (or None), got {case}")
        names = type(self).EVIDENCE
        if set(evidence) != set(names):
            raise TypeError(f"a {game} explanation takes the evidence {', '.join(names)}, "
                            f"got {', '.join(evidence) or 'none'}")
        self._set(game=game, case=case, result=result,
                  _evidence=tuple(_frozen(evidence[name]) for name in names))

    @classmethod
    def of(cls, result: "Any", case: "Optional[int]",
           evidence: "Tuple[Any, ...]") -> "Explanation":
        """An explanation of the game of ``cls`` (a game's subclass) from
        its judge, ``evidence`` already in the game's order and immutable,
        without :meth:`__init__`'s checks."""
        return cls._build(game=cls.GAME, case=case, result=result, _evidence=evidence)

    def __getattr__(self, name: str) -> "Any":
        # Only reached for names that are not slots: the game's evidence.
        if not name.startswith("_"):
            names = type(self).EVIDENCE
            if name in names:
                return self._evidence[names.index(name)]
        raise AttributeError(f"'Explanation' object has no attribute {name!r}")

    def __dir__(self) -> "List[str]":
        return sorted(set(super().__dir__()) | set(type(self).EVIDENCE))

    @property
    def answer(self) -> str:
        """The judge's wording of the verdict, ``str(result)``."""
        return str(self.result)

    def to_dict(self) -> "Dict[str, Any]":
        """The record ``--format json`` prints: plain dicts, lists and
        numbers (cells as ``[x, y]`` or ``[row, column]`` lists)."""
        import gc

        # A big witness becomes millions of small lists, none in a cycle:
        # the cyclic collector would rescan them over and over.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self.record()
        finally:
            if collecting:
                gc.enable()

    def record(self) -> "Dict[str, Any]":
        """The game's JSON record of this explanation (what :meth:`to_dict`
        returns): each game's subclass writes its own."""
        raise NotImplementedError

    def _fields(self) -> "Tuple[Tuple[str, Any], ...]":
        return ((("game", self.game), ("case", self.case), ("result", self.result))
                + tuple(zip(type(self).EVIDENCE, self._evidence)))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self._fields())
        return f"Explanation({fields})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Explanation):
            return NotImplemented
        return (self.game == other.game and self.case == other.case
                and self.result == other.result and self._evidence == other._evidence)

    def __hash__(self) -> int:
        return hash((self.game, self.case, self.result, self._evidence))

    def __reduce__(self) -> "Tuple[Any, Tuple[Any, ...]]":
        # By the game's subclass, which unpickling imports (and with it the
        # game's package).
        return (type(self).of, (self.result, self.case, self._evidence))


def _restore(game: str, case: "Optional[int]", result: "Any",
             evidence: "Tuple[Any, ...]") -> Explanation:
    """An explanation pickled by havhex 0.1 (whose game is imported by now)."""
    return Explanation._by_game[game].of(result, case, evidence)


def cell_lists(cells: "Iterable[Tuple[int, ...]]") -> "List[List[int]]":
    """Cells as lists, as JSON writes them."""
    return [list(cell) for cell in cells]


def sorted_cells(cells: "Iterable[Tuple[int, int]]") -> "List[List[int]]":
    """``sorted(cells)`` for (row, column) pairs, by rows: one pass in
    Python, where Ctrl-C is seen, where ``sorted`` of a million tuples
    compares for seconds in one call that signals wait for."""
    rows: "Dict[int, List[int]]" = {}
    for row, column in cells:
        found = rows.get(row)
        if found is None:
            rows[row] = [column]
        else:
            found.append(column)
    ordered: "List[List[int]]" = []
    for row in sorted(rows):
        columns = rows[row]
        columns.sort()
        ordered.extend([row, column] for column in columns)
    return ordered


def json_record(source: str, explanation: Explanation, case_offset: int = 0) -> str:
    """The one place where a JSON record is built: one JSON Lines line, the
    input's name (``source``) first, then the case's explanation, with the
    separators of the README.  ``case_offset`` is the number of cases before
    the explained input in its file (a cluster judges a large file in runs
    of cases).  The command line and the cluster's workers both write it."""
    record = {"file": source, **explanation.to_dict()}
    if case_offset:
        record["case"] += case_offset
    return _encode(record) + "\n"


# Items of a list json.dumps encodes in one call: a short step, after which
# Python runs again and sees Ctrl-C (a witness of millions of cells would
# otherwise be encoded in one long call).
_ENCODE_SLICE = 1 << 15


def _encode(value: "Any") -> str:
    """``json.dumps(value, separators=(", ", ": "))``, the same text, with
    long lists encoded a slice at a time."""
    import json

    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)}: {_encode(item)}"
                               for key, item in value.items()) + "}"
    if isinstance(value, list):
        if any(isinstance(item, (list, dict)) and len(item) > _ENCODE_SLICE
               for item in value[:8]):
            return "[" + ", ".join(_encode(item) for item in value) + "]"
        if len(value) > _ENCODE_SLICE:
            return "[" + ", ".join(
                json.dumps(value[start:start + _ENCODE_SLICE], separators=(", ", ": "))[1:-1]
                for start in range(0, len(value), _ENCODE_SLICE)) + "]"
    return json.dumps(value, separators=(", ", ": "))
