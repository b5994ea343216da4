"""Words that name the same thing ("tire" and "tyre"): the groups of catalog/synonyms.txt, a
content file the owner extends (one group a line, its words separated by commas, "#" starts a
comment), read once per process: a restart (a deploy) picks a change up."""

import re
from functools import cache
from pathlib import Path

FILE = Path(__file__).with_name("synonyms.txt")
WORDS = re.compile(r"\w+")


def synonyms(*forms: str) -> tuple[str, ...]:
    """The other words of the groups of any of `forms` (a searched word, its stem)."""
    groups = _groups()
    found = [other for form in forms for other in groups.get(form, ())]
    return tuple(word for word in dict.fromkeys(found) if word not in forms)


@cache
def _groups() -> dict[str, tuple[str, ...]]:
    """Each word of the file, with the words of its groups (itself included)."""
    try:
        text = FILE.read_text(encoding="utf-8")
    except FileNotFoundError:  # the owner removed the list: no synonyms
        return {}
    groups: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        group = [_entry(entry) for entry in line.split("#", 1)[0].split(",")]
        group = [entry for entry in group if entry]
        for word in group:
            groups[word] = tuple(dict.fromkeys((*groups.get(word, ()), *group)))
    return groups


def _entry(text: str) -> str:
    """An entry as searched words are compared: lower case, words separated by one space."""
    return " ".join(WORDS.findall(text.lower()))
