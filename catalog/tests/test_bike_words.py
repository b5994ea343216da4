"""A bike named in a search's words (API.md, "Finding parts": Bike words)."""

import pytest

from catalog import services
from catalog.bike_words import bike_in
from catalog.search import PartQuery, part_queryset, part_search

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    return [part["name"] for part in response.json()]


@pytest.mark.parametrize("q", ["mt07 pads", "MT-07 pads", "MT 07 pads", "pads mt-07", "Mt07 Pads"])
def test_any_spelling_of_the_model_names_the_bike(garage_shelf, q):
    named = bike_in(q)
    assert named is not None
    assert named.rest.casefold() == "pads"
    assert named.found == garage_shelf["mt07_2019"]  # the newest year
    assert set(named.vehicle_ids) == {garage_shelf["mt07_2018"].pk, garage_shelf["mt07_2019"].pk}


def test_a_year_narrows_the_bike_to_that_year(garage_shelf):
    named = bike_in("2018 mt-07 chain")
    assert named.found == garage_shelf["mt07_2018"]
    assert named.vehicle_ids == (garage_shelf["mt07_2018"].pk,)
    assert named.rest == "chain"


def test_the_make_before_the_model_goes_with_it(garage_shelf):
    named = bike_in("yamaha mt07 chain")
    assert named.rest == "chain"


@pytest.mark.parametrize("q", ["2019", "2019 pads", "brake pads", "mt08 pads", "07", ""])
def test_words_without_a_known_model_name_no_bike(garage_shelf, q):
    assert bike_in(q) is None


def test_a_year_the_model_was_not_made_stays_a_word(garage_shelf):
    named = bike_in("1999 mt07 chain")
    assert named.rest == "1999 chain"
    assert named.found == garage_shelf["mt07_2019"]


def test_the_api_lists_the_rest_of_the_words_fitting_the_model(anon, garage_shelf):
    response = anon.get("/api/allparts", {"q": "mt07 pads"})
    assert names(response) == ["Brake pads front"]  # not the Z900's pads
    assert response["X-Bike-Found"] == str(garage_shelf["mt07_2019"].pk)


def test_fitting_means_listed_for_any_year_or_universal(anon, garage_shelf):
    response = anon.get("/api/allparts", {"q": "MT-07 chain"})
    assert sorted(names(response)) == ["Chain lube", "Drive chain 525"]


def test_the_year_narrows_the_list_and_the_header(anon, garage_shelf):
    response = anon.get("/api/allparts", {"q": "2018 mt-07 pads"})
    assert names(response) == []  # the pads fit the 2019 only
    assert response["X-Bike-Found"] == str(garage_shelf["mt07_2018"].pk)
    assert names(anon.get("/api/allparts", {"q": "2019 mt-07 pads"})) == ["Brake pads front"]


def test_the_model_alone_lists_its_parts(anon, garage_shelf):
    response = anon.get("/api/allparts", {"q": "mt07"})
    assert sorted(names(response)) == ["Brake pads front", "Chain lube", "Drive chain 525"]


def test_no_bike_no_header(anon, garage_shelf):
    response = anon.get("/api/allparts", {"q": "mt08 pads"})
    assert "X-Bike-Found" not in response
    response = anon.get("/api/allparts", {"q": "2019"})
    assert "X-Bike-Found" not in response


def test_a_vehicle_added_is_known_at_once(anon, garage_shelf):
    assert bike_in("cb500f chain") is None
    services.vehicle_get_or_create(make="Honda", model="CB500F", year=2021)
    assert bike_in("cb500f chain") is not None


def test_the_queryset_and_the_sql_agree_on_vehicles(garage_shelf):
    query = PartQuery(q="chain", vehicles=(garage_shelf["mt07_2018"].pk,))
    expected = [p.pk for p in part_queryset(query)]
    assert sorted(expected) == sorted([garage_shelf["chain"].pk, garage_shelf["lube"].pk])
    assert sorted(p.pk for p in part_search(query)[0:10]) == sorted(expected)
