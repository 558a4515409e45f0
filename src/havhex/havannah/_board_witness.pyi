from .._explanation import Explanation
from .board import Board

def explain_board(board: Board) -> Explanation: ...
