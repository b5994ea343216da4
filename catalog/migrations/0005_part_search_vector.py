"""A stored search vector for parts, kept by PostgreSQL itself.

`catalog_part_search_vector(name, description, category_id)` is the vector catalog/search.py
used to compute per search: the name weighted A, the category's name B, the description C,
English stemming. A BEFORE INSERT/UPDATE trigger on parts writes it on every insert and on
every update of those three columns or of the vector itself (services, bulk_create, admin,
seed_demo, raw SQL: what is written there is replaced by the computed vector); an AFTER UPDATE
trigger on categories has a renamed category's parts' vectors written again. Then every
existing part's vector is written once. On SQLite the column stays null (its search
does not use it) and neither the index nor the triggers exist.
"""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations

CREATE = """
CREATE FUNCTION catalog_part_search_vector(name text, description text, category_id bigint)
RETURNS tsvector LANGUAGE sql STABLE AS $$
    SELECT setweight(to_tsvector('english'::regconfig, COALESCE(name, '')), 'A')
        || setweight(to_tsvector('english'::regconfig, COALESCE(
               (SELECT c.name FROM catalog_category c WHERE c.id = category_id), '')), 'B')
        || setweight(to_tsvector('english'::regconfig, COALESCE(description, '')), 'C')
$$;

CREATE FUNCTION catalog_part_search_vector_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_vector := catalog_part_search_vector(NEW.name, NEW.description, NEW.category_id);
    RETURN NEW;
END
$$;

CREATE TRIGGER catalog_part_search_vector_write
    BEFORE INSERT OR UPDATE OF name, description, category_id, search_vector ON catalog_part
    FOR EACH ROW EXECUTE FUNCTION catalog_part_search_vector_write();

CREATE FUNCTION catalog_category_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalog_part SET search_vector = NULL WHERE category_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER catalog_category_renamed
    AFTER UPDATE OF name ON catalog_category
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION catalog_category_renamed();

UPDATE catalog_part SET search_vector = NULL;

CREATE INDEX catalog_part_search ON catalog_part USING gin (search_vector);
"""

DROP = """
DROP INDEX IF EXISTS catalog_part_search;
DROP TRIGGER IF EXISTS catalog_category_renamed ON catalog_category;
DROP FUNCTION IF EXISTS catalog_category_renamed();
DROP TRIGGER IF EXISTS catalog_part_search_vector_write ON catalog_part;
DROP FUNCTION IF EXISTS catalog_part_search_vector_write();
DROP FUNCTION IF EXISTS catalog_part_search_vector(text, text, bigint);
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0004_historicalpart"),
    ]

    operations = [
        migrations.AddField(
            model_name="part",
            name="search_vector",
            field=django.contrib.postgres.search.SearchVectorField(editable=False, null=True),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddIndex(
                    model_name="part",
                    index=django.contrib.postgres.indexes.GinIndex(
                        fields=["search_vector"], name="catalog_part_search"
                    ),
                ),
            ],
            database_operations=[
                migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP)),
            ],
        ),
    ]
