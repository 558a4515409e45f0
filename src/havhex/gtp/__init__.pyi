from .protocol import (Command as Command, ProtocolError as ProtocolError, Response as Response,
                       answer as answer, parse_command as parse_command,
                       parse_response as parse_response)

__all__ = ["Command", "Response", "ProtocolError", "parse_command", "answer", "parse_response"]
