import pytest

from core.routing import MAX_ID, IdConverter


@pytest.mark.parametrize("text", ["1", "42", str(MAX_ID)])
def test_an_id_in_range_is_its_number(text):
    assert IdConverter().to_python(text) == int(text)


@pytest.mark.parametrize("text", ["0", "00", str(MAX_ID + 1), "9" * 19])
def test_an_id_out_of_range_matches_no_route(text):
    with pytest.raises(ValueError):
        IdConverter().to_python(text)


def test_its_url_is_the_number():
    assert IdConverter().to_url(7) == "7"
