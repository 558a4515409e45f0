"""The one explanation type of both games: a verdict and the evidence for it.

Both games' ``explain*`` functions return :class:`Explanation`; what the
evidence is depends on the game, so it is named by the game's fields (read
as attributes), and :meth:`Explanation.to_dict` gives the record that
``--format json`` prints.
"""
from ._frozen import Frozen

__all__ = ["Explanation"]

# The evidence of each game, in the order a repr shows it.
EVIDENCE = {
    "havannah": ("bridge", "fork", "ring", "enclosed_runs"),
    "hex": ("red_stones", "blue_stones", "chains"),
}


def _frozen(value):
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

    def __init__(self, game, result, case=None, **evidence):
        if game not in EVIDENCE:
            raise ValueError(f"game must be one of {tuple(EVIDENCE)}, got {game!r}")
        if case is not None:
            from ._checks import integer

            case = integer(case, "case")
            if case < 1:
                raise ValueError(f"case must be >= 1 (or None), got {case}")
        names = EVIDENCE[game]
        if set(evidence) != set(names):
            raise TypeError(f"a {game} explanation takes the evidence {', '.join(names)}, "
                            f"got {', '.join(evidence) or 'none'}")
        self._set(game=game, case=case, result=result,
                  _evidence=tuple(_frozen(evidence[name]) for name in names))

    @classmethod
    def _of(cls, game, result, case, evidence):
        """An explanation from the judges, ``evidence`` already in the
        game's order and immutable, without :meth:`__init__`'s checks."""
        return cls._build(game=game, case=case, result=result, _evidence=evidence)

    def __getattr__(self, name):
        # Only reached for names that are not slots: the game's evidence.
        if not name.startswith("_"):
            names = EVIDENCE.get(object.__getattribute__(self, "game"), ())
            if name in names:
                return self._evidence[names.index(name)]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(EVIDENCE[self.game]))

    @property
    def answer(self):
        """The judge's wording of the verdict, ``str(result)``."""
        return str(self.result)

    def to_dict(self):
        """The record ``--format json`` prints: plain dicts, lists and
        numbers (cells as ``[x, y]`` or ``[row, column]`` lists)."""
        import gc

        # A big witness becomes millions of small lists, none in a cycle:
        # the cyclic collector would rescan them over and over.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return _RECORDS[self.game](self)
        finally:
            if collecting:
                gc.enable()

    def _fields(self):
        return ((("game", self.game), ("case", self.case), ("result", self.result))
                + tuple(zip(EVIDENCE[self.game], self._evidence)))

    def __repr__(self):
        fields = ", ".join(f"{name}={value!r}" for name, value in self._fields())
        return f"Explanation({fields})"

    def __eq__(self, other):
        if not isinstance(other, Explanation):
            return NotImplemented
        return (self.game == other.game and self.case == other.case
                and self.result == other.result and self._evidence == other._evidence)

    def __hash__(self):
        return hash((self.game, self.case, self.result, self._evidence))

    def __reduce__(self):
        return (_restore, (self.game, self.case, self.result, self._evidence))


def _restore(game, case, result, evidence):
    """An unpickled explanation."""
    return Explanation._of(game, result, case, evidence)


def _lists(cells):
    return [list(cell) for cell in cells]


def _sorted_cells(cells):
    """``sorted(cells)`` for (row, column) pairs, by rows: one pass in
    Python, where Ctrl-C is seen, where ``sorted`` of a million tuples
    compares for seconds in one call that signals wait for."""
    rows = {}
    for row, column in cells:
        found = rows.get(row)
        if found is None:
            rows[row] = [column]
        else:
            found.append(column)
    ordered = []
    for row in sorted(rows):
        columns = rows[row]
        columns.sort()
        ordered.extend([row, column] for column in columns)
    return ordered


def _havannah_record(explanation):
    result = explanation.result
    record = {} if explanation.case is None else {"case": explanation.case}
    record["answer"] = str(result)
    record["move"] = result.move
    record["kinds"] = list(result.kinds)
    bridge, fork, ring, enclosed_runs = explanation._evidence
    if bridge is not None:
        record["bridge"] = {"path": _lists(bridge)}
    if fork is not None:
        record["fork"] = {"cells": _lists(fork)}
    if ring is not None:
        record["ring"] = {"loop": _lists(ring), "enclosed_runs": _lists(enclosed_runs)}
    return record


def _hex_record(explanation):
    """Wins: ``winner`` ("red" or "blue"), one winning ``chain`` and every
    possible ``last_moves``; Impossible: the ``reason``, and for
    "no-single-last-move" the two stone-disjoint ``chains``; Nobody wins:
    the answer alone.  Cells are ``[row, column]``, 0-based."""
    result = explanation.result
    chains = explanation._evidence[2]
    record = {} if explanation.case is None else {"case": explanation.case}
    record["answer"] = str(result)
    if result.winner is not None:
        record["winner"] = result.winner
        record["chain"] = _lists(chains[0][1])
        record["last_moves"] = _sorted_cells(result.last_moves)
    elif result.reason is not None:
        record["reason"] = result.reason
        if result.reason == "no-single-last-move":
            record["chains"] = [_lists(cells) for _, cells in chains]
    return record


_RECORDS = {"havannah": _havannah_record, "hex": _hex_record}


def json_record(source, explanation, case_offset=0):
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


def _encode(value):
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
