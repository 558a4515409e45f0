from . import havannah as havannah
from . import hex as hex
from .errors import InputError as InputError

__version__: str
