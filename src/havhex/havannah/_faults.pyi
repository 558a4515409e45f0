from typing import Any, List

from ._result import Result

def _judge_parsed(parsed: Any, source: str) -> List[Result]: ...
