"""My Garage: the bikes a shopper saved, and the active one they are shopping for.

An account's garage is kept in the database (GarageBike rows); a visitor's in their session:
the saved vehicles' ids under GARAGE in the order they were saved, the active one's under BIKE,
which visitors' pages are kept per (catalog.apps registers it with the page cache). At every
sign-in the visitor's garage joins the account's (garage_merge, on user_logged_in:
catalog.receivers).

Each service takes the caller as `user` (None or an anonymous user: a visitor) and `session`,
and answers the garage as it now is. A bad request is a ValidationError naming its field (the
API's 400, the page's field message).
"""

from dataclasses import dataclass, field

from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from core.caching import versions
from core.caching.pages import ACCOUNTS

from .models import Fitment, GarageBike, Part, Vehicle
from .selectors import vehicle_get

GARAGE = "garage"  # a visitor's session: the saved vehicles' ids, oldest first
BIKE = "bike"  # a visitor's session: the active vehicle's id
# The active bike as pages show it, [id, make, model, year] or None, so that a page spends no
# query on it (a page has at most 5): kept in the session with every change of its garage; for
# an account also in the shared cache (every device sees it at once), the session's copy read
# when the shared cache has none (flushed, or Redis down).
SHOWN_BIKE = "garage_bike"
ACTIVE_KEY = "garage-active:{pk}"
ACTIVE_KEPT = 30 * 24 * 3600  # seconds
MAX_BIKES = 10

UNKNOWN_VEHICLE = "There is no vehicle with this id."
GARAGE_FULL = f"Your garage holds at most {MAX_BIKES} bikes: remove one first."
NOT_SAVED = "This bike is not in your garage."


@dataclass
class Garage:
    active: Vehicle | None = None
    vehicles: list[Vehicle] = field(default_factory=list)  # oldest first

    def __contains__(self, vehicle_id: int) -> bool:
        return any(v.pk == vehicle_id for v in self.vehicles)


def _account(user):
    """The account whose garage it is, or None for a visitor (their session's)."""
    return user if user is not None and user.is_authenticated else None


# --- Reads ------------------------------------------------------------------------------------


def garage_read(*, user, session) -> Garage:
    """The caller's saved bikes, oldest first, and the active one."""
    account = _account(user)
    if account is not None:
        rows = GarageBike.objects.filter(user=account).select_related("vehicle")
        vehicles = [row.vehicle for row in rows]
        active = next((row.vehicle for row in rows if row.active), None)
        _remember_active(account, session, active)
        return Garage(active=active, vehicles=vehicles)
    ids = session.get(GARAGE, [])
    if not ids:
        return Garage()
    found = Vehicle.objects.in_bulk(ids)  # a deleted vehicle leaves every garage
    vehicles = [found[pk] for pk in ids if pk in found]
    active = found.get(session.get(BIKE))
    _note_shown(session, active)
    return Garage(active=active, vehicles=vehicles)


def garage_active(*, user, session) -> Vehicle | None:
    """The bike the caller is shopping for, as its garage last noted it: no query, but for
    an account whose bike neither the shared cache nor the session has noted (a flushed
    cache, a new device): then it is read once and noted."""
    account = _account(user)
    if account is not None:
        shown = cache.get(ACTIVE_KEY.format(pk=account.pk), _UNKNOWN)
        if shown is _UNKNOWN:
            shown = session.get(SHOWN_BIKE, _UNKNOWN)
        if shown is _UNKNOWN:
            return _read_active(account, session)
    else:
        pk, shown = session.get(BIKE), session.get(SHOWN_BIKE)
        if pk is None:
            return None
        if not shown or shown[0] != pk:  # (noted by every write: never, but the key's bike wins)
            return Vehicle.objects.filter(pk=pk).first()
    if not shown:
        return None
    return Vehicle(pk=shown[0], make=shown[1], model=shown[2], year=shown[3])


def _read_active(account, session) -> Vehicle | None:
    row = GarageBike.objects.filter(user=account, active=True).select_related("vehicle").first()
    vehicle = None if row is None else row.vehicle
    _remember_active(account, session, vehicle)
    return vehicle


def _note_shown(session, vehicle: Vehicle | None) -> None:
    shown = None if vehicle is None else [vehicle.pk, vehicle.make, vehicle.model, vehicle.year]
    if session.get(SHOWN_BIKE, _UNKNOWN) != shown:
        session[SHOWN_BIKE] = shown


_UNKNOWN = object()


def _remember_active(account, session, vehicle: Vehicle | None) -> None:
    """Note the account's active bike for garage_active: in the shared cache, and in the
    session when it is that account's (a bearer call may carry another's)."""
    shown = None if vehicle is None else [vehicle.pk, vehicle.make, vehicle.model, vehicle.year]
    key = ACTIVE_KEY.format(pk=account.pk)
    if cache.get(key, _UNKNOWN) != shown:
        cache.set(key, shown, ACTIVE_KEPT)
    if session is not None and session.get(SESSION_KEY) == str(account.pk):
        _note_shown(session, vehicle)


_ACTIVE = "_garage_active"  # on the request: its active bike, once read


def garage_active_for(request) -> Vehicle | None:
    """garage_active for a page's request, read once however many templates ask."""
    if not hasattr(request, _ACTIVE):
        setattr(request, _ACTIVE, garage_active(user=request.user, session=request.session))
    return getattr(request, _ACTIVE)


def parts_not_fitting(vehicle: Vehicle | None, part_ids) -> set[int]:
    """Which of `part_ids` do not fit `vehicle` (neither universal nor listed for it), in one
    query; none without a vehicle. The cart's warning and the cards' badges read it."""
    ids = set(part_ids)
    if vehicle is None or not ids:
        return set()
    # One condition rather than a UNION of two queries: SQLite refuses the parts' default
    # ORDER BY inside a compound statement.
    listed = Fitment.objects.filter(vehicle=vehicle, part=OuterRef("pk"))
    fitting = Part.objects.filter(Q(universal=True) | Exists(listed), pk__in=ids).order_by()
    return ids - set(fitting.values_list("pk", flat=True))


def not_fitting_message(vehicle: Vehicle) -> str:
    return f"Does not fit your {vehicle.name}"


def fit_warnings(*, user, session, part_ids) -> dict[int, str]:
    """The cart's warnings: for each of `part_ids` that does not fit the caller's active bike,
    "Does not fit your 2019 Yamaha MT-07" (a warning, not a block); none without a bike."""
    vehicle = garage_active(user=user, session=session)
    message = "" if vehicle is None else not_fitting_message(vehicle)
    return dict.fromkeys(parts_not_fitting(vehicle, part_ids), message)


def fit_badge(part: Part, vehicle: Vehicle | None, *, fits: bool) -> str:
    """A card's or part page's fit badge: "" when there is nothing to say (no bike, a part
    that is not universal)."""
    if part.universal:
        return "Universal fit"
    if vehicle is None:
        return ""
    return f"Fits your {vehicle.name}" if fits else not_fitting_message(vehicle)


def with_fit_badges(parts, vehicle: Vehicle | None, *, all_fit: bool = False):
    """`parts` with `fit_badge` set on each (one query with a bike, unless the list holds only
    parts that fit it: `all_fit`)."""
    parts = list(parts)
    not_fitting = set() if all_fit else parts_not_fitting(vehicle, [p.pk for p in parts])
    for part in parts:
        fits = part.pk not in not_fitting
        part.fit_badge = fit_badge(part, vehicle, fits=fits)
        part.fit_ok = fits  # the badge's colour
    return parts


# --- Writes -----------------------------------------------------------------------------------


def _vehicle(vehicle_id) -> Vehicle:
    vehicle = vehicle_get(vehicle_id)
    if vehicle is None:
        raise ValidationError({"vehicle": [UNKNOWN_VEHICLE]})
    return vehicle


def _lock_account(account) -> None:
    """Serialise the account's garage writes (two tabs saving an 11th bike at once)."""
    list(get_user_model().objects.select_for_update().filter(pk=account.pk).values_list("pk"))


def _account_changed() -> None:
    # The navbar names the active bike, also on the pages kept per session.
    versions.bump(ACCOUNTS)


def garage_add(*, user, session, vehicle_id) -> Garage:
    """Save the bike (when it is not yet saved: at most MAX_BIKES) and make it the active one."""
    vehicle = _vehicle(vehicle_id)
    account = _account(user)
    if account is None:
        ids = list(session.get(GARAGE, []))
        if vehicle.pk not in ids:
            if len(ids) >= MAX_BIKES:
                raise ValidationError({"vehicle": [GARAGE_FULL]})
            ids.append(vehicle.pk)
        session[GARAGE], session[BIKE] = ids, vehicle.pk
        return garage_read(user=user, session=session)
    with transaction.atomic():
        _lock_account(account)
        rows = GarageBike.objects.filter(user=account)
        saved = set(rows.values_list("vehicle_id", flat=True))
        if vehicle.pk not in saved and len(saved) >= MAX_BIKES:
            raise ValidationError({"vehicle": [GARAGE_FULL]})
        rows.filter(active=True).exclude(vehicle=vehicle).update(active=False)
        GarageBike.objects.update_or_create(
            user=account, vehicle=vehicle, defaults={"active": True}
        )
        _account_changed()
    return garage_read(user=user, session=session)


def garage_activate(*, user, session, vehicle_id: int) -> Garage:
    """Make a saved bike the active one."""
    pk = vehicle_id
    if pk not in garage_read(user=user, session=session):
        raise ValidationError({"active": [NOT_SAVED]})
    account = _account(user)
    if account is None:
        session[BIKE] = pk
        return garage_read(user=user, session=session)
    with transaction.atomic():
        _lock_account(account)
        rows = GarageBike.objects.filter(user=account)
        rows.filter(active=True).exclude(vehicle_id=pk).update(active=False)
        rows.filter(vehicle_id=pk).update(active=True)
        _account_changed()
    return garage_read(user=user, session=session)


def garage_remove(*, user, session, vehicle_id: int) -> Garage:
    """Remove a bike from the garage (nothing to do when it is not there); when it was the
    active one, the latest saved of the others becomes active, or none."""
    account = _account(user)
    if account is None:
        ids = [pk for pk in session.get(GARAGE, []) if pk != vehicle_id]
        if len(ids) != len(session.get(GARAGE, [])):
            session[GARAGE] = ids
            if session.get(BIKE) == vehicle_id:
                _set_session_bike(session, ids[-1] if ids else None)
        return garage_read(user=user, session=session)
    with transaction.atomic():
        _lock_account(account)
        rows = GarageBike.objects.filter(user=account)
        removed, _ = rows.filter(vehicle_id=vehicle_id).delete()
        if removed:
            if not rows.filter(active=True).exists():
                rows.filter(pk__in=rows.order_by("-id").values("pk")[:1]).update(active=True)
            _account_changed()
    return garage_read(user=user, session=session)


def _set_session_bike(session, pk: int | None) -> None:
    if pk is None:
        session.pop(BIKE, None)
    else:
        session[BIKE] = pk


def garage_merge(*, user, session) -> None:
    """At sign-in: the visitor's saved bikes join the account's (while there is room, oldest
    first), the visitor's active bike becomes the account's, and the session forgets them."""
    ids = list(session.get(GARAGE, []))
    active = session.get(BIKE)
    for key in (GARAGE, BIKE, SHOWN_BIKE):
        session.pop(key, None)
    account = _account(user)
    if account is None:
        return
    if not ids:
        garage_read(user=account, session=session)  # notes the account's active bike
        return
    with transaction.atomic():
        _lock_account(account)
        rows = GarageBike.objects.filter(user=account)
        saved = set(rows.values_list("vehicle_id", flat=True))
        existing = set(Vehicle.objects.filter(pk__in=ids).values_list("pk", flat=True))
        room = MAX_BIKES - len(saved)
        new = [pk for pk in ids if pk in existing and pk not in saved][: max(room, 0)]
        GarageBike.objects.bulk_create([GarageBike(user=account, vehicle_id=pk) for pk in new])
        if active in existing and active in saved | set(new):
            rows.filter(active=True).exclude(vehicle_id=active).update(active=False)
            rows.filter(vehicle_id=active).update(active=True)
        _account_changed()
    garage_read(user=account, session=session)
