"""Writes to the catalog."""

from .models import Category, Part


def part_create(
    *,
    name: str,
    price,
    minimum_order_quantity: int,
    available_quantity: int,
    img: str = "",
    description: str = "",
    category: Category | None = None,
) -> Part:
    return Part.objects.create(
        category=category,
        name=name,
        price=price,
        minimum_order_quantity=minimum_order_quantity,
        available_quantity=available_quantity,
        img=img,
        description=description,
    )


def part_update(*, part: Part, **fields) -> Part:
    """Change the given fields of a part (names as on the model)."""
    for field, value in fields.items():
        setattr(part, field, value)
    part.save(update_fields=list(fields) or None)
    return part


def part_delete(*, part: Part) -> None:
    """Delete a part; its orders keep their snapshot (the link becomes null)."""
    part.delete()


def category_get_or_create(*, name: str, slug: str) -> Category:
    """The category with this slug, created with `name` when missing."""
    category, _ = Category.objects.get_or_create(slug=slug, defaults={"name": name})
    return category
