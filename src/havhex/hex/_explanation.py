"""Hex's explanation: its evidence (the stone counts and the chains) and
its JSON record."""
from .._explanation import Explanation, cell_lists, sorted_cells

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict


class HexExplanation(Explanation, game="hex"):
    """``red_stones`` and ``blue_stones``, the counts; ``chains``,
    ``(colour, cells)`` pairs, each chain from its colour's first side to
    its second."""

    __slots__ = ()
    EVIDENCE = ("red_stones", "blue_stones", "chains")

    def record(self) -> "Dict[str, Any]":
        """Wins: ``winner`` ("red" or "blue"), one winning ``chain`` and
        every possible ``last_moves``; Impossible: the ``reason``, and for
        "no-single-last-move" the two stone-disjoint ``chains``; Nobody
        wins: the answer alone.  Cells are ``[row, column]``, 0-based."""
        result = self.result
        chains = self._evidence[2]
        record: "Dict[str, Any]" = {} if self.case is None else {"case": self.case}
        record["answer"] = str(result)
        if result.winner is not None:
            record["winner"] = result.winner
            record["chain"] = cell_lists(chains[0][1])
            record["last_moves"] = sorted_cells(result.last_moves)
        elif result.reason is not None:
            record["reason"] = result.reason
            if result.reason == "no-single-last-move":
                record["chains"] = [cell_lists(cells) for _, cells in chains]
        return record
