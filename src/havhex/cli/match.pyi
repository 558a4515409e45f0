import argparse
from typing import List, Sequence

__all__ = ["main", "parse_arguments"]

PROGRAM: str

class UsageError(Exception): ...

def parse_arguments(argv: Sequence[str]) -> argparse.Namespace: ...
def main(argv: List[str]) -> int: ...
