"""`{{ data|ld_json }}`: a schema.org JSON-LD block. A data block, not a script: the
Content-Security-Policy does not run it, and json_script's escaping keeps `</script>` out."""

from django import template
from django.utils.html import json_script
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def ld_json(data: dict) -> str:
    block = json_script(data)
    return mark_safe(block.replace('type="application/json"', 'type="application/ld+json"', 1))
