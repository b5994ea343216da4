"""Props of the React islands: plain JSON data, shaped exactly as the API answers it."""

import json

from rest_framework.utils.encoders import JSONEncoder


def island_props(**props) -> dict:
    """`props` as DRF's JSON renderer writes them (Decimal → number), ready for json_script.

    Django's own encoder would turn prices into strings, so an island would get other shapes
    from its page than from the API.
    """
    return json.loads(json.dumps(props, cls=JSONEncoder))
