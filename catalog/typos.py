"""Forgiving a slip in a searched word, on PostgreSQL: a letter missing, added or changed, or
two adjacent letters swapped, in a word of SLIP_FROM letters or more (a word with digits is a
part number, matched as written).

The words a slip may have meant are the catalog's own (`SearchWord`, kept by the database:
migration 0010): those one letter shorter to one letter longer, at Levenshtein distance 1
(fuzzystrmatch's levenshtein_less_equal, which stops counting past 1), or the word with two
adjacent letters swapped (Levenshtein counts a swap as 2). At most CANDIDATES per word, and
search.py asks for at most 10 words: the lookup is one bounded query.

A word's corrections are kept in the cache under the catalog's version (they change only when
the catalog's words do). A part's description edited without a new name does not bump
CATALOG; its new words are corrected to all the same once the version is renewed, within
versions.STALENESS seconds. On SQLite (the embedded default) no slip is forgiven.
"""

from django.db import connection

from core.caching import versions

from .selectors import CATALOG

SLIP_FROM = 5  # letters: shorter words must be typed as written
LONGEST = 40  # letters of the longest word kept (SearchWord.word)
CANDIDATES = 20  # corrections of a word at most

# A slip changes a word at one place (two letters for a swap): a word of SLIP_FROM letters
# or more keeps its first two letters or its last two, which the candidates share (on the
# indexes of SearchWord), so edit distances are counted for a few words only.
_LOOKUP = """(
    SELECT %s::text, "word" FROM "catalog_searchword"
    WHERE (
        (left("word", 2) = %s AND length("word") BETWEEN %s AND %s)
        OR (right("word", 2) = %s AND length("word") BETWEEN %s AND %s)
      )
      AND "word" <> %s
      AND (levenshtein_less_equal("word", %s, 1) <= 1 OR "word" = ANY(%s))
    ORDER BY "word" LIMIT %s
)"""


def correctable(word: str) -> bool:
    """A word whose slip is forgiven: letters only, SLIP_FROM of them or more."""
    return SLIP_FROM <= len(word) <= LONGEST and word.isalpha()


def corrections(words: list[str]) -> dict[str, tuple[str, ...]]:
    """The catalog's words one slip away from each correctable word of `words` (lower case),
    the words without any left out."""
    asked = [word for word in dict.fromkeys(words) if correctable(word)]
    if not asked or connection.vendor != "postgresql":
        return {}
    version = versions.current(CATALOG)
    found = {word: versions.get(_key(word), version=version) for word in asked}
    missing = [word for word, fixes in found.items() if fixes is None]
    if missing:
        looked_up = _lookup(missing)
        for word in missing:
            found[word] = looked_up.get(word, ())
            versions.set(_key(word), found[word], version=version)
    return {word: fixes for word, fixes in found.items() if fixes}


def _lookup(words: list[str]) -> dict[str, tuple[str, ...]]:
    """One query: each word's corrections in the catalog's words."""
    sql, params = [], []
    for word in words:
        sql.append(_LOOKUP)
        shortest, longest = len(word) - 1, len(word) + 1
        params += [word, word[:2], shortest, longest, word[-2:], shortest, longest]
        params += [word, word, swaps(word), CANDIDATES]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(sql), params)
        rows = cursor.fetchall()
    found: dict[str, tuple[str, ...]] = {}
    for word, fix in rows:
        found[word] = (*found.get(word, ()), fix)
    return found


def swaps(word: str) -> list[str]:
    """`word` with two adjacent letters swapped, each way it can be."""
    return [
        word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        for i in range(len(word) - 1)
        if word[i] != word[i + 1]
    ]


def _key(word: str) -> str:
    return f"search:slips:{word}"
