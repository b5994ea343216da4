"""Vehicle and fitment shapes (API.md, "Bikes and fitment")."""

import re

from rest_framework import serializers

from core.api import MAX_ID, PageInputSerializer
from core.fields import FlatListField, required

from .models import Vehicle
from .selectors import vehicle_list

YEAR_INVALID = "Year must be a whole number, such as 2019"
UNIVERSAL_REQUIRED = "Say whether the part fits every bike (true or false)"
VEHICLES_REQUIRED = "List the ids of the vehicles the part fits (may be empty)"
VEHICLE_ID_INVALID = "Each vehicle must be a vehicle's id (a whole number)"
TOO_MANY_VEHICLES = "A part can list at most 10,000 vehicles"
MAX_VEHICLES = 10_000


class VehicleSerializer(serializers.ModelSerializer):
    _id = serializers.IntegerField(source="pk", read_only=True)

    class Meta:
        model = Vehicle
        fields = ["_id", "make", "model", "year", "name"]


class VehicleSearchInputSerializer(PageInputSerializer):
    """GET /api/vehicles: each of make, model and year optional and exact (no case)."""

    make = serializers.CharField(required=False, allow_blank=True, max_length=60)
    model = serializers.CharField(required=False, allow_blank=True, max_length=100)
    year = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=32767,
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value", "max_string_length"), YEAR_INVALID
        ),
    )

    def to_internal_value(self, data):
        data = {k: v for k, v in data.items() if not (k == "year" and v == "")}
        return super().to_internal_value(data)


class FitmentSerializer(serializers.Serializer):
    """A part's fitment: universal, and the vehicles it fits by make, model, year."""

    universal = serializers.BooleanField()
    vehicles = VehicleSerializer(many=True)


class FitmentInputSerializer(serializers.Serializer):
    """PUT /api/allparts/{id}/fitment: the whole fitment, which replaces the stored one."""

    universal = serializers.BooleanField(
        error_messages=dict.fromkeys(("required", "invalid", "null"), UNIVERSAL_REQUIRED)
    )
    vehicles = FlatListField(  # a bad id, whichever, is one message
        child=serializers.IntegerField(
            min_value=1,
            max_value=MAX_ID,
            error_messages=dict.fromkeys(
                ("invalid", "min_value", "max_value", "max_string_length", "null"),
                VEHICLE_ID_INVALID,
            ),
        ),
        max_length=MAX_VEHICLES,
        error_messages={
            **dict.fromkeys(("required", "not_a_list", "null"), VEHICLES_REQUIRED),
            "max_length": TOO_MANY_VEHICLES,
        },
    )

    def validate_vehicles(self, ids: list[int]) -> list[int]:
        wanted = set(ids)
        known = set(Vehicle.objects.filter(pk__in=wanted).values_list("pk", flat=True))
        unknown = sorted(wanted - known)
        if unknown:
            raise serializers.ValidationError(unknown_vehicles(unknown))
        return sorted(wanted)


def unknown_vehicles(ids: list[int]) -> str:
    """ "No vehicle has the id 12" / "No vehicles have the ids 12, 40"."""
    if len(ids) == 1:
        return f"No vehicle has the id {ids[0]}"
    shown = ", ".join(str(pk) for pk in ids[:20]) + (", …" if len(ids) > 20 else "")
    return f"No vehicles have the ids {shown}"


MAKE_REQUIRED = "Make is required"
MODEL_REQUIRED = "Model is required"
YEAR_FROM_INVALID = "Year from must be a year between 1885 and 2100, such as 2014"
YEAR_TO_INVALID = "Year to must be a year between 1885 and 2100, such as 2020"
YEARS_BACKWARDS = "Year to can't be before year from"
YEARS_TOO_MANY = "A row can cover at most 100 years"


def year_field(message: str, **kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=1885,
        max_value=2100,
        error_messages=dict.fromkeys(
            ("required", "null", "invalid", "min_value", "max_value", "max_string_length"),
            message,
        ),
        **kwargs,
    )


class FitmentRowInputSerializer(serializers.Serializer):
    """One row of fitment: a make and model in a range of years (yearTo: yearFrom when
    missing). The Edit part page's "Fits these bikes" and import_fitment's rows."""

    make = serializers.CharField(max_length=60, error_messages=required(MAKE_REQUIRED))
    model = serializers.CharField(max_length=100, error_messages=required(MODEL_REQUIRED))
    yearFrom = year_field(YEAR_FROM_INVALID, source="year_from")
    yearTo = year_field(YEAR_TO_INVALID, source="year_to", required=False, allow_null=True)

    def validate(self, attrs):
        first = attrs["year_from"]
        last = attrs.get("year_to") or first
        if last < first:
            raise serializers.ValidationError({"yearTo": [YEARS_BACKWARDS]})
        if last - first >= 100:
            raise serializers.ValidationError({"yearTo": [YEARS_TOO_MANY]})
        return {**attrs, "year_to": last}


NEW_BIKE = "The shop knows no {bike} yet: check the spelling, or add it as a new bike"
CONFIRM_NEW_BIKE = "Add a new bike: {bike}"
_NEW_BIKE_SAID = re.compile(re.escape(NEW_BIKE).replace(re.escape("{bike}"), "(?P<bike>.+)"))


def new_bike_named(messages: list[str]) -> str | None:
    """The bike a NEW_BIKE refusal among `messages` names ("Zundapp KS 50"), else None."""
    for message in messages:
        if said := _NEW_BIKE_SAID.fullmatch(message):
            return said["bike"]
    return None


def unknown_bike(make: str, model: str) -> str | None:
    """ "Zundapp KS 50" when the shop has no vehicle of this make and model (whatever their
    case), else None."""
    make, model = make.strip(), model.strip()
    if vehicle_list(make=make, model=model).exists():
        return None
    return f"{make} {model}"


class FitmentRowAddInputSerializer(FitmentRowInputSerializer):
    """Edit part's "Add": a make and model the shop has no vehicle of is a new bike, made only
    when `confirmNew` says so, so that a typo ("Zundapp KS 50") never makes one unasked: NEW_BIKE
    on the make when the make is new, else on the model. (import_fitment's rows make them.)"""

    confirmNew = serializers.BooleanField(required=False, default=False, source="confirm_new")

    def validate(self, attrs):
        attrs = super().validate(attrs)
        confirmed = attrs.pop("confirm_new")
        bike = unknown_bike(attrs["make"], attrs["model"])
        if bike and not confirmed:
            known_make = vehicle_list(make=attrs["make"].strip()).exists()
            raise serializers.ValidationError(
                {"model" if known_make else "make": [NEW_BIKE.format(bike=bike)]}
            )
        return attrs
