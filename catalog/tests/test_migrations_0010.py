"""catalog/migrations/0010_search_words, on a copy of the demo data, in a database of its own
through manage.py, back and forth: on PostgreSQL the words of the parts and categories there
already are known (a slip is corrected to them), and a part added after is too; going back
drops the table and the triggers. On SQLite the table stays empty."""

import json

import pytest

from scripts.servers import shop_env
from tests.test_data_safety import empty_database, shell

ROUND_TRIP = """
import io, json
from django.core.management import call_command
from django.db import connection

def migrate(*args):
    call_command("migrate", *args, verbosity=0, stdout=io.StringIO())

def words():
    with connection.cursor() as cursor:
        cursor.execute("SELECT word FROM catalog_searchword ORDER BY word")
        return [row[0] for row in cursor.fetchall()]

def triggers():
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE tgname LIKE 'catalog_%%words%%'")
        return [row[0] for row in cursor.fetchall()]

migrate()
call_command("seed_demo", verbosity=0, stdout=io.StringIO())
migrate("catalog", "0009")
back = {"table": "catalog_searchword" in connection.introspection.table_names(),
        "triggers": triggers()}
migrate("catalog")
filled = words()
from catalog.services import part_create
part_create(name="Quickshifter harness", price=1, minimum_order_quantity=1,
            available_quantity=1)
print(json.dumps({"vendor": connection.vendor, "back": back, "filled": filled,
                  "after": words(), "triggers": triggers()}))
"""


@pytest.mark.slow  # manage.py, the demo data and a database of its own
def test_the_catalog_words_there_already_are_known(tmp_path):
    with empty_database(tmp_path, "shop_words_migration") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)).strip().splitlines()[-1])

    assert result["back"] == {"table": False, "triggers": []}
    if result["vendor"] != "postgresql":
        assert result["filled"] == result["after"] == []
        return
    assert {"brake", "sprocket", "brakes", "chain"} <= set(result["filled"])  # names, categories
    assert all(word.isalpha() and 4 <= len(word) <= 40 for word in result["filled"])
    assert {"quickshifter", "harness"} <= set(result["after"]) - set(result["filled"])
    assert len(result["triggers"]) == 3
