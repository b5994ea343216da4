from decimal import Decimal

import pytest

from core.templatetags.money import money


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("1249"), "$1,249.00"),
        (Decimal("25.5"), "$25.50"),
        ("12.499", "$12.50"),
        (0, "$0.00"),
        (Decimal("-3.2"), "-$3.20"),
        (Decimal("99999999.99"), "$99,999,999.99"),
        ("not money", ""),
    ],
)
def test_money_is_written_like_the_islands_write_it(value, text):
    assert money(value) == text
