"""core.wording: a word after a number agrees with it."""

import pytest

from core.wording import counted

SENTENCE = ("Only {count} unit is left of {part}", "Only {count} units are left of {part}")


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (1, "Only 1 unit is left of Chain kit"),
        (0, "Only 0 units are left of Chain kit"),
        (2, "Only 2 units are left of Chain kit"),
        (120, "Only 120 units are left of Chain kit"),
    ],
)
def test_one_is_singular_every_other_count_plural(count, said):
    assert counted(count, *SENTENCE, part="Chain kit") == said
