"""A bike named in a search's words ("mt07 brake pads", "2019 MT-07 chain", "yamaha mt 07").

The words are compared with the vehicles' models without case, spaces or dashes ("MT-07",
"mt07" and "MT 07" alike), a run of up to MAX_RUN words at a time; a model's make just before
it and a year of it anywhere in the words go with it (the year narrows the bike to that year).
The models are read once per version of the vehicles (selectors.VEHICLES), so a search costs
no query here and a bounded amount of work: at most MAX_WORDS words, runs of MAX_RUN.
"""

import re
from dataclasses import dataclass, replace

from core.caching import versions

from .models import Vehicle
from .search import PartQuery
from .selectors import VEHICLES, vehicle_rows

MAX_WORDS = 10  # words of a query looked at (PartQuery.words reads as many)
MAX_RUN = 4  # words one model may be typed in ("R 1250 GS")
LETTER = re.compile(r"[^\W\d_]")
NOT_IN_KEYS = re.compile(r"[\W_]+")
YEAR = re.compile(r"^(18|19|20|21)\d\d$")


@dataclass(frozen=True)
class BikeWords:
    """What a query's words say of a bike: the other words, the vehicles (every year of the
    model, or the year given) and the one named (the year given, else the newest)."""

    rest: str
    rows: tuple[tuple[int, int, str, str], ...]  # (year, id, make, model), newest first
    found: Vehicle

    @property
    def vehicle_ids(self) -> tuple[int, ...]:
        return tuple(row[1] for row in self.rows)


def key(text: str) -> str:
    """A model as the words are compared with it: no case, spaces, dashes or other marks."""
    return NOT_IN_KEYS.sub("", text.casefold())


def models() -> dict[str, list[tuple[int, int, str, str]]]:
    """Every model by its key: its vehicles as (year, id, make, model), newest first; kept
    until a vehicle is added."""
    return versions.get_or_set("catalog:bike-words", _read_models, names=[VEHICLES])


def _read_models() -> dict[str, list[tuple[int, int, str, str]]]:
    found: dict[str, list[tuple[int, int, str, str]]] = {}
    for pk, make, model, year in sorted(vehicle_rows(), key=lambda row: (-row[3], row[0])):
        model_key = key(model)
        if LETTER.search(model_key):  # a model of digits alone ("900") reads as a number
            found.setdefault(model_key, []).append((year, pk, make, model))
    return found


def bike_in(q: str) -> BikeWords | None:
    """The bike `q` names, with the words left; None when it names none."""
    words = q.split()[:MAX_WORDS]
    if not words:
        return None
    known = models()
    if not known:
        return None
    for start in range(len(words)):
        for length in range(min(MAX_RUN, len(words) - start), 0, -1):
            rows = known.get(key("".join(words[start : start + length])))
            if rows:
                return _named(words, start, start + length, rows)
    return None


def _named(words: list[str], start: int, stop: int, rows) -> BikeWords:
    """The bike of `rows` named by words[start:stop], with its make before and a year."""
    used = set(range(start, stop))
    makes = {key(make) for _, _, make, _ in rows}
    if start and key(words[start - 1]) in makes:  # "yamaha mt07": that make's only
        used.add(start - 1)
        rows = [row for row in rows if key(row[2]) == key(words[start - 1])]
    years = {row[0] for row in rows}
    for i, word in enumerate(words):
        if i not in used and YEAR.match(word) and int(word) in years:
            used.add(i)
            rows = [row for row in rows if row[0] == int(word)]
            break
    year, pk, make, model = rows[0]  # newest first
    rest = " ".join(word for i, word in enumerate(words) if i not in used)
    found = Vehicle(pk=pk, make=make, model=model, year=year)
    return BikeWords(rest=rest, rows=tuple(rows), found=found)


def with_bike(query: PartQuery) -> tuple[PartQuery, Vehicle | None]:
    """`query` with the bike its words name taken out of them and made a filter (the parts
    that fit any of its vehicles, or are universal), and that bike; else as it was, None."""
    named = bike_in(query.q)
    return narrowed(query, named), named.found if named is not None else None


def narrowed(query: PartQuery, named: BikeWords | None) -> PartQuery:
    """`query` for the bike `named` in its words (None: as it was)."""
    if named is None:
        return query
    return replace(query, q=named.rest, vehicles=named.vehicle_ids)
