"""A shop the size the fitment rules are measured at (issue 23): parts, vehicles and fitment
rows written by PostgreSQL itself (INSERT … SELECT over generate_series), in seconds."""

from django.db import connection

from catalog.models import Fitment, Part, Vehicle

MAKES = ["BMW", "Ducati", "Harley-Davidson", "Honda", "Kawasaki", "KTM", "Suzuki", "Yamaha"]


def build(*, parts: int, vehicles: int, fitment: int, universal_every: int = 500) -> None:
    """`parts` parts (part numbers "PN-00001"…, one in `universal_every` universal), `vehicles`
    vehicles (models of MAKES, 25 years each) and `fitment` rows spread over them."""
    assert connection.vendor == "postgresql"
    years = 25
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {Part._meta.db_table}
                (name, img, description, price, minimum_order_quantity, available_quantity,
                 created_at, part_number, universal)
            SELECT 'Part ' || n, '', 'A part for the big shop.', 10 + n %% 500, 1, n %% 50,
                   now() - n * interval '1 second', 'PN-' || lpad(n::text, 5, '0'),
                   n %% %s = 0
            FROM generate_series(1, %s) AS n
            """,
            [universal_every, parts],
        )
        cursor.execute(
            f"""
            INSERT INTO {Vehicle._meta.db_table} (make, model, year)
            SELECT (%s::text[])[1 + (n / {years}) %% %s], 'Model ' || (n / {years}),
                   2000 + n %% {years}
            FROM generate_series(0, %s - 1) AS n
            """,
            [MAKES, len(MAKES), vehicles],
        )
        # Row n: the part (n mod parts), and a vehicle chosen from n so that each
        # (part, vehicle) pair is different while n < parts * vehicles.
        cursor.execute(
            f"""
            INSERT INTO {Fitment._meta.db_table} (part_id, vehicle_id)
            SELECT p.ids[1 + n %% %s], v.ids[1 + (n / %s + n * 7) %% %s]
            FROM generate_series(0, %s - 1) AS n,
                 (SELECT array_agg(id ORDER BY id) AS ids FROM {Part._meta.db_table}) AS p,
                 (SELECT array_agg(id ORDER BY id) AS ids FROM {Vehicle._meta.db_table}) AS v
            ON CONFLICT DO NOTHING
            """,
            [parts, parts, vehicles, fitment],
        )
        cursor.execute("ANALYZE")
