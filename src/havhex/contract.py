"""The contract every game's live board meets: :class:`Board`.

The match arbiter, the GTP engine, its players and the pictures use a board
only through these members, so that a game is any package whose
descriptor (:class:`havhex.descriptor.Descriptor`) makes such a board.
Havannah's and Hex's boards meet it (tests/contracts/test_board_contract.py checks
both against it, and against each other); so does the toy game of
tests/support/toy_game.py, in plain Python.

A move is a cell (a tuple of ints) or a word (the pie rule's swap); an
action is a move's integer id.  Imported by type checkers and tests, not at
run time: it imports typing.
"""
from typing import Any, Dict, List, Optional, Protocol, Sequence, Tuple, runtime_checkable

__all__ = ["Board", "members"]

Move = Any


@runtime_checkable
class Board(Protocol):
    """A game in play, move by move.

    ``play(move)`` plays ``move`` (a cell, its name, or a word such as the
    swap) for the player to move and returns the kinds of structure it
    completed (empty when it wins nothing); a move that cannot be played
    raises ValueError (``havhex.InputError``) and changes nothing.
    ``undo()`` takes the last move back and returns it.  ``to_move`` and
    ``winner`` are colour words of the game's descriptor's ``players``
    (``winner`` None until the game is won, and for a draw); ``is_over``
    is True once it is won or the board is full.  ``moves`` the moves
    played, as the board names them.  ``legal_moves()`` the moves that may
    be played now; ``legal_actions()`` their ids, ascending, and
    ``move_of(action)`` the move of an id.  ``cell_name(move)`` the name
    of a move in the game's records.  ``copy()`` an independent board in
    the same position.  ``draw(as_text=True)`` the position as text."""

    @property
    def swap(self) -> bool: ...
    @property
    def to_move(self) -> str: ...
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def moves(self) -> Tuple[Move, ...]: ...
    def __len__(self) -> int: ...
    def play(self, move: Move) -> Tuple[str, ...]: ...
    def undo(self) -> Move: ...
    def legal_moves(self) -> List[Move]: ...
    def legal_actions(self) -> Sequence[int]: ...
    def move_of(self, action: int) -> Move: ...
    def cell_name(self, move: Move) -> str: ...
    def copy(self) -> "Board": ...
    def draw(self, as_text: bool = ..., **options: Any) -> str: ...


def members() -> Dict[str, bool]:
    """The contract's members, each True when it is a method (False: a
    property): what a test checks a board for."""
    found: Dict[str, bool] = {}
    for name, value in vars(Board).items():
        if name.startswith("_") and name != "__len__":
            continue
        if isinstance(value, property):
            found[name] = False
        elif callable(value):
            found[name] = True
    return found
