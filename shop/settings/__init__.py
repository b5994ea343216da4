"""Settings for the shop, read from the environment (names in docs/configuration.md), one
module per concern; a part that needs another's value imports it from there.
"""

# ruff: noqa: F403
from .api import *
from .auth import *
from .base import *
from .mail import *
from .orders import *
from .pricing import *
from .security import *
