"""Part's own methods."""

import pytest
from django.urls import clear_script_prefix, set_script_prefix

from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


def test_a_parts_url_is_its_public_page_wherever_the_shop_is_mounted(client, user):
    part = PartFactory()
    client.force_login(user)
    assert client.get(part.get_absolute_url()).status_code == 200
    set_script_prefix("/shop/")  # served under a sub-path (SCRIPT_NAME), as behind a proxy
    try:
        assert part.get_absolute_url() == f"/shop/parts/{part.pk}"
    finally:
        clear_script_prefix()
