"""The catalog's words, that a searched word with a slip is corrected to (catalog/typos.py).

On PostgreSQL: the fuzzystrmatch extension (levenshtein_less_equal); AFTER triggers that add
the words of every part written (name, description, brand) and of every category written
(name), whatever writes them (services, bulk_create, admin, raw SQL), as migration 0005 keeps
the search vector; then the words of the existing parts and categories, once. A word is a run
of letters, 4 to 40 of them (a searched word of 5 or more is corrected to one a letter shorter
at least; words with digits are part numbers, matched as written).

Words are only ever added: a word no part uses any more stays, and is harmless (a slip
corrected to it finds only parts that say it, or its stem, as ever).

New words are added under one transaction-scoped advisory lock: two imports adding the same
new words in other orders would otherwise wait on each other's uncommitted words (a
deadlock). Words already known take no lock, so once the catalog's vocabulary is known
writing a part waits on nothing. On SQLite none of this exists (its search forgives no
slips): the table stays empty.
"""

import django.db.models.functions.text
from django.db import migrations, models

# What a word is, in the triggers and the filling alike.
WORDS = """
SELECT DISTINCT w FROM regexp_split_to_table(lower({text}), '[^[:alpha:]]+') AS w
WHERE length(w) BETWEEN 4 AND 40
"""

CREATE = f"""
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

CREATE FUNCTION catalog_search_words_add(body text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    new_words text[];
BEGIN
    new_words := ARRAY(
        SELECT w FROM ({WORDS.format(text="body")}) AS found(w)
        WHERE NOT EXISTS (SELECT 1 FROM catalog_searchword s WHERE s.word = found.w)
        ORDER BY w
    );
    IF cardinality(new_words) > 0 THEN
        PERFORM pg_advisory_xact_lock(7262010);  -- catalog_searchword's writers, one at a time
        INSERT INTO catalog_searchword (word) SELECT unnest(new_words) ON CONFLICT DO NOTHING;
    END IF;
END
$$;

CREATE FUNCTION catalog_part_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM catalog_search_words_add(concat_ws(' ', NEW.name, NEW.description, NEW.brand));
    RETURN NULL;
END
$$;

CREATE TRIGGER catalog_part_words_inserted AFTER INSERT ON catalog_part
    FOR EACH ROW EXECUTE FUNCTION catalog_part_words_add();

CREATE TRIGGER catalog_part_words_updated AFTER UPDATE OF name, description, brand ON catalog_part
    FOR EACH ROW WHEN (
        OLD.name IS DISTINCT FROM NEW.name
        OR OLD.description IS DISTINCT FROM NEW.description
        OR OLD.brand IS DISTINCT FROM NEW.brand
    )
    EXECUTE FUNCTION catalog_part_words_add();

CREATE FUNCTION catalog_category_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM catalog_search_words_add(NEW.name);
    RETURN NULL;
END
$$;

CREATE TRIGGER catalog_category_words_written AFTER INSERT OR UPDATE OF name ON catalog_category
    FOR EACH ROW EXECUTE FUNCTION catalog_category_words_add();

INSERT INTO catalog_searchword (word)
    {WORDS.format(text="concat_ws(' ', p.name, p.description, p.brand)")
        .replace("FROM", "FROM catalog_part p,", 1)}
    UNION {WORDS.format(text="c.name").replace("FROM", "FROM catalog_category c,", 1)}
ON CONFLICT DO NOTHING;
"""

DROP = """
DROP TRIGGER IF EXISTS catalog_category_words_written ON catalog_category;
DROP FUNCTION IF EXISTS catalog_category_words_add();
DROP TRIGGER IF EXISTS catalog_part_words_updated ON catalog_part;
DROP TRIGGER IF EXISTS catalog_part_words_inserted ON catalog_part;
DROP FUNCTION IF EXISTS catalog_part_words_add();
DROP FUNCTION IF EXISTS catalog_search_words_add(text);
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0009_part_brand_numbers"),
    ]

    operations = [
        migrations.CreateModel(
            name="SearchWord",
            fields=[
                ("word", models.CharField(max_length=40, primary_key=True, serialize=False)),
            ],
            options={
                "indexes": [
                    models.Index(
                        django.db.models.functions.text.Left("word", 2),
                        django.db.models.functions.text.Length("word"),
                        name="catalog_searchword_first",
                    ),
                    models.Index(
                        django.db.models.functions.text.Right("word", 2),
                        django.db.models.functions.text.Length("word"),
                        name="catalog_searchword_last",
                    ),
                ],
            },
        ),
        migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP)),
    ]
