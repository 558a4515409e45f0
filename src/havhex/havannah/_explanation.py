"""Havannah's explanation: its evidence (the structures' witnesses) and its
JSON record."""
from .._explanation import Explanation, cell_lists

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict


class HavannahExplanation(Explanation, game="havannah"):
    """``bridge``, a shortest corner-to-corner path of stones; ``fork``, a
    small tree of stones touching three edges; ``ring``, a closed loop of
    stones through the winning move; ``enclosed_runs``, the hexagons the
    ring cuts off as ``(x, first_y, last_y)`` runs.  Each is None when its
    structure was not built."""

    __slots__ = ()
    EVIDENCE = ("bridge", "fork", "ring", "enclosed_runs")

    def record(self) -> "Dict[str, Any]":
        result = self.result
        record: "Dict[str, Any]" = {} if self.case is None else {"case": self.case}
        record["answer"] = str(result)
        record["move"] = result.move
        record["kinds"] = list(result.kinds)
        bridge, fork, ring, enclosed_runs = self._evidence
        if bridge is not None:
            record["bridge"] = {"path": cell_lists(bridge)}
        if fork is not None:
            record["fork"] = {"cells": cell_lists(fork)}
        if ring is not None:
            record["ring"] = {"loop": cell_lists(ring),
                              "enclosed_runs": cell_lists(enclosed_runs)}
        return record
