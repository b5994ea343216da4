"""The API's JSON parser: DRF's, refusing hostile bodies before they are decoded.

Python's json module recurses once per nesting level, so a body of a few thousand `[`
exhausts the stack (a 500); and a body of many megabytes ties up memory. Both are refused
here with a 400 `{"detail": …}`, as every unreadable body is: bodies over MAX_JSON_BYTES, and
nesting deeper than MAX_JSON_DEPTH, measured without recursion.
"""

import io
import re

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_JSON_BYTES = 2 * 1024 * 1024
MAX_JSON_DEPTH = 50
TOO_BIG = "The request body is too large (at most 2 MB)."
TOO_DEEP = f"The JSON body is nested too deeply (at most {MAX_JSON_DEPTH} levels)."

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def json_depth(raw: bytes) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings don't
    count); a loop over the brackets, so any depth is measured without recursion."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub(b'""', raw)):
        if bracket in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class ShopJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read(MAX_JSON_BYTES + 1)
        if len(raw) > MAX_JSON_BYTES:
            raise ParseError(TOO_BIG)
        if json_depth(raw) > MAX_JSON_DEPTH:
            raise ParseError(TOO_DEEP)
        return super().parse(io.BytesIO(raw), media_type, parser_context)
