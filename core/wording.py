"""A word after a number, as the language says it for that number: "1 unit", "3 units".

Every message of the shop that counts something is chosen by `counted`, on Django's ngettext,
so a count of one never reads "1 units" and a translation can give a language its own plural
forms. The islands have its twin (`counted` in frontend/src/lib/format.js): both say the same.
"""

from django.utils.translation import ngettext


def counted(count: int, one: str, many: str, **values) -> str:
    """`one` or `many`, as the language has it for `count`, with {count} and `values` filled in:
    counted(1, "Only {count} unit is left", "Only {count} units are left")."""
    return ngettext(one, many, count).format(count=count, **values)
