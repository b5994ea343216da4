"""A slip forgiven in a searched word (catalog/typos.py): one letter missing, added or changed,
or two adjacent letters swapped, in a word of five letters or more; exact matches first.
PostgreSQL only: SQLite's search forgives no slip (docs/features.md)."""

import threading
import time
from decimal import Decimal

import psycopg
import pytest
from django.db import connection

from catalog import services, typos
from catalog.models import Category, Part, SearchWord
from catalog.search import PartQuery, part_search
from catalog.tests.factories import PartFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres(reason="edit distance (fuzzystrmatch): SQLite forgives no slip"),
]


@pytest.fixture
def catalog(db):
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    return {
        "disc": PartFactory(name="Floating Brake Disc", description="Rotor.", category=brakes),
        "pads": PartFactory(name="Sintered brake pads", description="Wet grip.", category=brakes),
        "lever": PartFactory(name="Clutch lever", description="Forged."),
        "brace": PartFactory(name="Fork brace", description="Stiffer front end."),
    }


def found(q: str) -> list[str]:
    return [part.name for part in part_search(PartQuery(q=q))[0:None]]


@pytest.mark.parametrize(
    ("q", "slip"),
    [
        ("brkae", "two letters swapped"),
        ("brakke", "a letter added"),
        ("sinterd", "a letter missing"),
        ("clutsh", "a letter changed"),
        ("Sinterde", "two letters swapped, capitals"),
        ("rbake", "the first two letters swapped"),
        ("xbrake", "a letter added first"),
        ("xlutch", "the first letter changed"),
        ("brakr", "the last letter changed"),
    ],
)
def test_one_slip_in_a_word_of_five_letters_or_more_is_forgiven(catalog, q, slip):
    assert found(q), slip


def test_brkae_pads_finds_brake_pads_first(anon, catalog):
    response = anon.get("/api/allparts?q=brkae%20pads")

    assert response.status_code == 200
    assert response.json()[0]["name"] == "Sintered brake pads"


def test_the_word_as_written_ranks_above_every_slip(client, catalog):
    """ "brake" lists the Fork brace too (brace: one letter changed), below every brake part."""
    PartFactory(name="Fork brace brace", description="Brace, brace, brace.")

    names = found("brake")

    assert set(names[:2]) == {"Sintered brake pads", "Floating Brake Disc"}
    assert set(names[2:]) == {"Fork brace", "Fork brace brace"}
    html = client.get("/allparts?q=brake").content.decode()
    assert html.index("Floating Brake Disc") < html.index("Fork brace")


def test_a_synonym_counts_as_the_word_as_written(catalog):
    PartFactory(name="Slip-on exhaust")
    PartFactory(name="Muffled horn")  # newer: first among equals

    assert found("muffler") == ["Slip-on exhaust", "Muffled horn"]


def test_a_word_under_five_letters_matches_as_written(catalog):
    PartFactory(name="Grip tape")

    assert found("tape") == ["Grip tape"]
    assert found("tpae") == []  # two letters swapped, but only four of them
    assert found("tapee") == ["Grip tape"]  # five letters: forgiven


def test_a_word_with_digits_matches_as_written(catalog):
    PartFactory(name="Oil filter HF204", part_number="HF-204")

    assert found("filtre") == ["Oil filter HF204"]
    assert found("filter1") == []  # a slip of "filter", but a part number
    assert found("hf204") == ["Oil filter HF204"]
    assert found("hf240") == []


def test_two_slips_are_not_forgiven(catalog):
    assert found("brkae")
    assert found("brkaee") == []
    assert found("bkrae") == []  # two swaps


def test_the_words_of_a_part_are_corrected_to_as_soon_as_it_is_written(catalog):
    assert found("sprockte") == []

    part = PartFactory(name="Rear sprocket", description="Steel.")
    assert found("sprockte") == ["Rear sprocket"]

    services.part_update(part=part, name="Rear cog", description="Hardened steel.")
    assert found("hardende") == ["Rear cog"]
    Part.objects.bulk_create([Part(name="Chain guide", price=Decimal("5"))])  # no service
    assert found("guidde") == ["Chain guide"]
    brakes = Category.objects.get(slug="brakes")
    brakes.name = "Stopping"
    services.category_save(category=brakes)
    assert "stopping" in set(SearchWord.objects.values_list("word", flat=True))


def test_corrections_are_kept_until_the_catalog_changes(catalog, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert typos.corrections(["brkae", "pads", "clutsh"]) == {
            "brkae": ("brake",),
            "clutsh": ("clutch",),
        }
    with django_assert_num_queries(0):
        assert typos.corrections(["clutsh", "brkae"]) == {
            "brkae": ("brake",),
            "clutsh": ("clutch",),
        }

    PartFactory(name="Clutsh cover")

    assert typos.corrections(["clutsh"]) == {"clutsh": ("clutch",)}  # as written now: exact
    assert found("clutsh")[0] == "Clutsh cover"


def test_the_lookup_is_bounded(catalog, django_assert_num_queries):
    letters = "abcdefghijklmnopqrstuvwxyz"
    SearchWord.objects.bulk_create(
        (SearchWord(word=f"brake{c}") for c in letters), ignore_conflicts=True
    )

    fixes = typos.corrections(["brake"])["brake"]
    assert len(fixes) == typos.CANDIDATES
    query = PartQuery(q=" ".join(f"brakes{c}" for c in letters[:15]))
    with django_assert_num_queries(1):
        assert len(query.spellings) == 10


@pytest.mark.django_db(transaction=True)
def test_writers_adding_the_same_new_words_in_other_orders_never_deadlock():
    """Two imports at once, each adding new words the other adds too, in the other order:
    they take turns (the words' advisory lock) instead of waiting on each other."""

    def connect():
        settings = connection.settings_dict
        return psycopg.connect(
            dbname=settings["NAME"],
            user=settings["USER"],
            password=settings["PASSWORD"],
            host=settings["HOST"],
            port=settings["PORT"] or None,
        )

    def add(conn, text):
        conn.execute("SELECT catalog_search_words_add(%s)", [text])

    first, second, failed = connect(), connect(), []

    def other_import():
        try:
            add(second, "yankee")
            add(second, "zulu")
            second.commit()
        except psycopg.Error as error:
            failed.append(error)
            second.rollback()

    try:
        add(first, "zulu")
        thread = threading.Thread(target=other_import)
        thread.start()
        time.sleep(0.3)
        add(first, "yankee")
        first.commit()
        thread.join(10)
    finally:
        first.close()
        second.close()

    assert failed == []
    assert {"yankee", "zulu"} <= set(SearchWord.objects.values_list("word", flat=True))
