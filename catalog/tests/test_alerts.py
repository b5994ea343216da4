"""Back-in-stock alerts' rules (catalog.alerts): who may ask, when an alert is live, the limit
per address, the visitor's link, and the one mail when the part is back (catalog.stock's
adjustments: the other rises are in test_alerts_triggers.py)."""

from datetime import timedelta

import pytest
from django.core import signing
from django.core.exceptions import ValidationError
from django.utils import timezone
from post_office.models import Email

from accounts.tests.factories import UserFactory
from catalog import alerts, stock
from catalog.models import StockAlert
from catalog.tests.factories import PartFactory
from core.errors import Conflict, NotFound

pytestmark = pytest.mark.django_db


@pytest.fixture
def sold_out():
    return PartFactory(name="Chain kit 520", available_quantity=1, minimum_order_quantity=2)


def back_mails():
    return list(Email.objects.filter(subject__startswith="Back in stock: "))


def confirm_mails():
    return list(Email.objects.filter(subject__startswith="Confirm your alert: "))


def test_a_signed_in_riders_alert_is_live_at_once_for_their_accounts_address(sold_out):
    rider = UserFactory(email="Rider@Example.com")

    alert = alerts.stock_alert_ask(part_id=sold_out.pk, user=rider, email="other@example.com")

    assert (alert.email, alert.user, alert.is_live) == ("rider@example.com", rider, True)
    assert confirm_mails() == []


def test_a_visitors_alert_waits_for_its_link_which_is_mailed(sold_out, settings):
    alert = alerts.stock_alert_ask(part_id=sold_out.pk, email=" Visitor@Example.com ")

    alert.refresh_from_db()
    assert (alert.email, alert.is_live) == ("visitor@example.com", False)
    [mail] = confirm_mails()
    assert mail.to == ["visitor@example.com"]
    assert mail.subject == "Confirm your alert: Chain kit 520"
    assert f"{settings.SITE_URL}/alerts/confirm/{alerts.confirm_token(alert)}" in mail.message


def test_opening_the_link_makes_the_alert_live(sold_out):
    alert = alerts.stock_alert_ask(part_id=sold_out.pk, email="v@example.com")

    outcome, part = alerts.stock_alert_confirm(token=alerts.confirm_token(alert))

    alert.refresh_from_db()
    assert (outcome, part.pk, alert.is_live) == (alerts.Confirmed.LIVE, sold_out.pk, True)
    # Opened again: still live, nothing else.
    assert alerts.stock_alert_confirm(token=alerts.confirm_token(alert))[0] == "live"


def test_a_bad_or_expired_link_says_so_and_changes_nothing(sold_out, settings):
    alert = alerts.stock_alert_ask(part_id=sold_out.pk, email="v@example.com")
    token = alerts.confirm_token(alert)

    assert alerts.stock_alert_confirm(token=token[:-2])[0] == alerts.Confirmed.INVALID
    assert alerts.stock_alert_confirm(token="nonsense")[0] == alerts.Confirmed.INVALID
    other = signing.dumps("x", salt="catalog.alerts.confirm")
    assert alerts.stock_alert_confirm(token=other)[0] == alerts.Confirmed.INVALID
    later = timezone.now() + alerts.LINK_MAX_AGE + timedelta(minutes=1)
    signer = signing.TimestampSigner(salt="catalog.alerts.confirm")
    old = signer.sign_object(alert.pk)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(signing.time, "time", lambda: later.timestamp())
        assert alerts.stock_alert_confirm(token=old)[0] == alerts.Confirmed.EXPIRED
    alert.refresh_from_db()
    assert not alert.is_live


def test_a_link_opened_when_the_part_is_back_already_ends_the_alert(sold_out, admin_user):
    alert = alerts.stock_alert_ask(part_id=sold_out.pk, email="v@example.com")
    stock.stock_adjust(part=sold_out, change=5, by=admin_user)

    outcome, _ = alerts.stock_alert_confirm(token=alerts.confirm_token(alert))

    alert.refresh_from_db()
    assert outcome == alerts.Confirmed.IN_STOCK
    assert alert.ended_at is not None and alert.mailed_at is None
    assert back_mails() == []


def test_no_alert_while_the_part_is_in_stock(user):
    part = PartFactory(available_quantity=2, minimum_order_quantity=2)

    with pytest.raises(Conflict, match="in stock"):
        alerts.stock_alert_ask(part_id=part.pk, user=user)
    assert not StockAlert.objects.exists()


def test_a_part_gone_is_not_found(user):
    with pytest.raises(NotFound):
        alerts.stock_alert_ask(part_id=987654, user=user)


def test_asking_again_is_the_same_alert(sold_out, user):
    first = alerts.stock_alert_ask(part_id=sold_out.pk, user=user)
    again = alerts.stock_alert_ask(part_id=sold_out.pk, user=user)
    alerts.stock_alert_ask(part_id=sold_out.pk, email=user.email.upper())

    assert again.pk == first.pk
    assert StockAlert.objects.count() == 1


def test_a_visitor_asking_again_gets_a_new_link_for_the_same_alert(sold_out):
    alerts.stock_alert_ask(part_id=sold_out.pk, email="v@example.com")
    alerts.stock_alert_ask(part_id=sold_out.pk, email="v@example.com")

    assert StockAlert.objects.count() == 1
    assert len(confirm_mails()) == 2


def test_an_address_waits_for_twenty_parts_at_most(user):
    parts = [PartFactory(available_quantity=0) for _ in range(alerts.MAX_PER_EMAIL + 1)]
    for part in parts[:-1]:
        alerts.stock_alert_ask(part_id=part.pk, user=user)

    with pytest.raises(ValidationError) as refused:
        alerts.stock_alert_ask(part_id=parts[-1].pk, user=user)

    assert refused.value.message_dict == {"email": [alerts.TOO_MANY]}
    # Asking again for one it waits for is still fine; and one ended frees a place.
    alerts.stock_alert_ask(part_id=parts[0].pk, user=user)
    StockAlert.objects.filter(part=parts[0]).update(ended_at=timezone.now())
    alerts.stock_alert_ask(part_id=parts[-1].pk, user=user)


def test_unconfirmed_alerts_past_their_link_no_longer_count():
    parts = [PartFactory(available_quantity=0) for _ in range(alerts.MAX_PER_EMAIL + 1)]
    for part in parts[:-1]:
        alerts.stock_alert_ask(part_id=part.pk, email="v@example.com")
    with pytest.raises(ValidationError):
        alerts.stock_alert_ask(part_id=parts[-1].pk, email="v@example.com")

    old = timezone.now() - alerts.LINK_MAX_AGE - timedelta(hours=1)
    StockAlert.objects.update(created_at=old)

    alerts.stock_alert_ask(part_id=parts[-1].pk, email="v@example.com")


def test_stock_received_up_to_the_minimum_mails_each_live_alert_once_and_ends_it(
    sold_out, user, other_user, admin_user, settings
):
    alerts.stock_alert_ask(part_id=sold_out.pk, user=user)
    alerts.stock_alert_ask(part_id=sold_out.pk, user=other_user)
    pending = alerts.stock_alert_ask(part_id=sold_out.pk, email="pending@example.com")

    stock.stock_adjust(part=sold_out, change=1, by=admin_user)  # 2: the minimum

    mails = back_mails()
    assert sorted(to for mail in mails for to in mail.to) == sorted([user.email, other_user.email])
    for mail in mails:
        assert mail.subject == "Back in stock: Chain kit 520"
        assert f"{settings.SITE_URL}/parts/{sold_out.pk}" in mail.message
        assert f'href="{settings.SITE_URL}/parts/{sold_out.pk}"' in mail.html_message
    assert StockAlert.objects.filter(ended_at__isnull=True).get() == pending
    # More stock: no more mail.
    stock.stock_adjust(part=sold_out, change=5, by=admin_user)
    assert len(back_mails()) == 2


def test_a_rise_that_leaves_the_part_out_of_stock_mails_nothing(user, admin_user):
    part = PartFactory(available_quantity=0, minimum_order_quantity=5)
    alerts.stock_alert_ask(part_id=part.pk, user=user)

    stock.stock_adjust(part=part, change=4, by=admin_user)
    assert back_mails() == []
    stock.stock_adjust(part=part, change=-4, by=admin_user)
    assert back_mails() == []

    stock.stock_adjust(part=part, change=5, by=admin_user)
    assert len(back_mails()) == 1


def test_a_part_name_is_plain_text_in_the_mail(user, admin_user):
    part = PartFactory(name="<b>Bold</b> & co", available_quantity=0)
    alerts.stock_alert_ask(part_id=part.pk, user=user)

    stock.stock_adjust(part=part, change=5, by=admin_user)

    [mail] = back_mails()
    assert mail.subject == "Back in stock: <b>Bold</b> & co"
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; co" in mail.html_message
    assert "<b>Bold</b>" not in mail.html_message
    assert "<b>Bold</b> & co is back in stock" in mail.message


def test_waiting_counts_live_alerts_per_part_in_one_query(
    user, other_user, django_assert_num_queries
):
    first, second, none = (PartFactory(available_quantity=0) for _ in range(3))
    for rider in (user, other_user):
        alerts.stock_alert_ask(part_id=first.pk, user=rider)
    alerts.stock_alert_ask(part_id=second.pk, user=user)
    alerts.stock_alert_ask(part_id=second.pk, email="pending@example.com")

    with django_assert_num_queries(1):
        counts = alerts.waiting_counts([first.pk, second.pk, none.pk])

    assert counts == {first.pk: 2, second.pk: 1}


def test_an_accounts_alert_goes_to_its_address_now(sold_out, user, admin_user):
    alerts.stock_alert_ask(part_id=sold_out.pk, user=user)
    user.email = "moved@example.com"
    user.save()

    stock.stock_adjust(part=sold_out, change=1, by=admin_user)

    assert [mail.to for mail in back_mails()] == [["moved@example.com"]]


def test_a_removed_accounts_alerts_go_with_it(sold_out, user, admin_user):
    from accounts import services as accounts

    alerts.stock_alert_ask(part_id=sold_out.pk, user=user)
    visitors = alerts.stock_alert_ask(part_id=sold_out.pk, email="visitor@example.com")

    accounts.user_delete(user=user, by=admin_user)

    assert list(StockAlert.objects.all()) == [visitors]
    stock.stock_adjust(part=sold_out, change=1, by=admin_user)
    assert back_mails() == []  # the visitor's never confirmed; the account's is gone
