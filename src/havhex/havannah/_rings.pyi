from typing import List, Tuple

_Buffer = object  # collections.abc.Buffer from Python 3.12

# ``coords``: a contiguous int32 buffer of the stones' x, y interleaved.
def enclosed_runs(size: int, coords: _Buffer) -> List[Tuple[int, int, int]]: ...
