"""`{{ field|with_input_class }}`: a form field's widget in the shop's input style (daisyUI).

allauth's pages render Django forms whose widgets have no classes; this gives them the same
look as the shop's own fields (templates/account/field.html).
"""

from django import template

register = template.Library()

CLASSES = {"checkbox": "checkbox", "radio": "radio"}


@register.filter
def with_input_class(field):
    widget_type = getattr(field.field.widget, "input_type", "text")
    css = CLASSES.get(widget_type, "input w-full")
    if field.errors:
        css += " input-error"
    attrs = {"class": css}
    if field.errors:
        attrs.update({"aria-invalid": "true", "aria-describedby": f"{field.id_for_label}_error"})
    return field.as_widget(attrs=attrs)
