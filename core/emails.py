"""E-mail addresses as the shop compares and stores them."""


def normalize_email(value: str) -> str:
    """E-mail addresses are compared and stored trimmed and in lowercase."""
    return (value or "").strip().lower()
