import argparse
from typing import Optional, Sequence

__all__ = ["main", "build_parser"]

def build_parser() -> argparse.ArgumentParser: ...
def main(argv: Optional[Sequence[str]] = ...) -> int: ...
