"""Words that name the same thing find each other (catalog/synonyms.txt), on both databases;
and whatever q is, a search answers."""

from decimal import Decimal

import pytest

from catalog import synonyms
from catalog.search import PartQuery, part_search
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalog(db):
    return {
        name: PartFactory(name=name, description="A part.", price=Decimal("10"))
        for name in ["Road tyre", "Slip-on muffler", "Rear sprockets", "Chain lube"]
    }


def found(q: str) -> list[str]:
    return [part.name for part in part_search(PartQuery(q=q))[0:None]]


@pytest.mark.parametrize(
    ("q", "name"),
    [
        ("tire", "Road tyre"),
        ("TIRES", "Road tyre"),
        ("exhaust", "Slip-on muffler"),
        ("cog", "Rear sprockets"),
        ("cogs", "Rear sprockets"),
    ],
)
def test_a_synonym_finds_the_part(catalog, q, name):
    assert found(q) == [name]


def test_synonyms_find_each_other_both_ways(catalog):
    PartFactory(name="Front tire")
    PartFactory(name="Stainless exhaust")
    PartFactory(name="Drive cog")

    assert set(found("tyre")) == set(found("tire")) == {"Road tyre", "Front tire"}
    assert (
        set(found("muffler")) == set(found("exhaust")) == {"Slip-on muffler", "Stainless exhaust"}
    )
    assert set(found("sprocket")) == set(found("cog")) == {"Rear sprockets", "Drive cog"}


def test_the_synonyms_file_one_group_a_line_with_comments(tmp_path, monkeypatch):
    listed = tmp_path / "synonyms.txt"
    listed.write_text(
        "# the owner's list\n\nTire, tyre  # spelling\n exhaust ,Muffler,\ncog, sprocket\n"
        "cog, pinion\nspark-plug, plug\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(synonyms, "FILE", listed)
    synonyms._groups.cache_clear()
    try:
        assert synonyms.synonyms("tire") == ("tyre",)
        assert synonyms.synonyms("muffler") == ("exhaust",)
        assert synonyms.synonyms("cog") == ("sprocket", "pinion")
        assert synonyms.synonyms("plug") == ("spark plug",)
        assert synonyms.synonyms("the", "owner") == ()
        listed.write_text("tire, wheel\n", encoding="utf-8")
        assert synonyms.synonyms("tire") == ("tyre",)  # read once per process
    finally:
        synonyms._groups.cache_clear()


def test_a_long_q_is_cut_to_200_characters_before_anything_else(catalog):
    query = PartQuery(q="x" * 195 + " chain lube")

    assert query.words == ["x" * 195, "chai"]
    assert len(query.part_number) <= 100
    assert found("lube " * 400) == ["Chain lube"]
    assert found("x" * 300 + " lube") == []


def test_any_q_is_a_200_or_a_400_never_a_500(anon, client, catalog):
    """Any length, any alphabet: the API's q is 200 characters at most (a 400 beyond)."""
    for q in [
        "a" * 200,
        "ñandú brëaks 日本語パーツ ﷽ 🙂",
        "tire " * 40,
        "brkae " * 33,
        "_" * 200,
        "İstanbul",
        "%",
    ]:
        assert anon.get("/api/allparts", {"q": q}).status_code == 200, q
        assert client.get("/allparts", {"q": q}).status_code == 200, q
    assert anon.get("/api/allparts", {"q": "x" * 5000}).status_code == 400
    assert anon.get("/api/allparts", {"q": "brake\x00"}).status_code == 400
    assert client.get("/allparts", {"q": "brkae " * 2000}).status_code in (200, 400)
