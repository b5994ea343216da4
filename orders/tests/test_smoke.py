from orders.tests.factories import BookingFactory


def test_factories(as_user, user):
    b = BookingFactory(user=user)
    r = as_user.get("/api/booking")
    assert r.status_code == 200, r.content
    assert r.json()[0]["_id"] == b.pk
