from . import havannah as havannah
from . import hex as hex
from ._explanation import Explanation as Explanation
from .errors import InputError as InputError

__all__ = ["Explanation", "InputError", "__version__", "havannah", "hex"]

__version__: str
