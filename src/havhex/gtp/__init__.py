"""havhex.gtp: the engine side of the Go Text Protocol, over havhex's boards.

``protocol`` is the wire (commands and answers), shared with the arbiter of
``havhex match``; ``server`` answers commands over a live board; ``players``
chooses the engine's moves.  ``havhex gtp hex|havannah`` runs it on standard
input and output (docs/matches.md).
"""
from .protocol import Command, ProtocolError, Response, answer, parse_command, parse_response

__all__ = ["Command", "Response", "ProtocolError", "parse_command", "answer", "parse_response"]
