"""A part's brand in its search vector (PostgreSQL): "ngk" or "ebc pads" find the maker's parts.

Migration 0005's `catalog_part_search_vector` took the name (weight A), the category's name (B)
and the description (C); it now takes the brand too, weighted B as the category is. The
BEFORE trigger writes the vector on an update of the brand as well, and every part's vector
is written again once. The brand's words were already in the slips' vocabulary (0010). On
SQLite nothing changes here (its search looks in the brand column itself).
"""

from django.db import migrations

TRIGGER_ON = "BEFORE INSERT OR UPDATE OF {columns} ON catalog_part"


def vector(arguments: str, brand: str) -> str:
    """The vector's function, with or without the brand (migration 0005's)."""
    return f"""
CREATE FUNCTION catalog_part_search_vector({arguments})
RETURNS tsvector LANGUAGE sql STABLE AS $$
    SELECT setweight(to_tsvector('english'::regconfig, COALESCE(name, '')), 'A')
        {brand}
        || setweight(to_tsvector('english'::regconfig, COALESCE(
               (SELECT c.name FROM catalog_category c WHERE c.id = category_id), '')), 'B')
        || setweight(to_tsvector('english'::regconfig, COALESCE(description, '')), 'C')
$$;
"""


def swap(*, drop: str, create: str, call: str, columns: str) -> str:
    """Replace the vector's function and the trigger that calls it, then write every vector."""
    return f"""
DROP TRIGGER catalog_part_search_vector_write ON catalog_part;
DROP FUNCTION catalog_part_search_vector({drop});
{create}
CREATE OR REPLACE FUNCTION catalog_part_search_vector_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_vector := catalog_part_search_vector({call});
    RETURN NEW;
END
$$;

CREATE TRIGGER catalog_part_search_vector_write
    {TRIGGER_ON.format(columns=columns)}
    FOR EACH ROW EXECUTE FUNCTION catalog_part_search_vector_write();

UPDATE catalog_part SET search_vector = NULL;
"""


WITH_BRAND = swap(
    drop="text, text, bigint",
    create=vector(
        "name text, brand text, description text, category_id bigint",
        "|| setweight(to_tsvector('english'::regconfig, COALESCE(brand, '')), 'B')",
    ),
    call="NEW.name, NEW.brand, NEW.description, NEW.category_id",
    columns="name, brand, description, category_id, search_vector",
)

WITHOUT_BRAND = swap(
    drop="text, text, text, bigint",
    create=vector("name text, description text, category_id bigint", ""),
    call="NEW.name, NEW.description, NEW.category_id",
    columns="name, description, category_id, search_vector",
)


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0015_removed_accounts_alerts"),
    ]

    operations = [
        migrations.RunPython(on_postgresql(WITH_BRAND), on_postgresql(WITHOUT_BRAND)),
    ]
