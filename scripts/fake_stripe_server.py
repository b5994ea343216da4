"""localstripe's server on 127.0.0.1, with the browser's side of Stripe completed.

`python -m scripts.fake_stripe_server --port N` (scripts/fake_stripe.py starts it). localstripe's
own command listens on every interface; this one on loopback only.

Why completed: localstripe 1.15.10 (the latest release) cannot take a card payment from a
browser the way Stripe documents it, `stripe.confirmCardPayment(clientSecret, {payment_method:
{card: cardElement}})`. Its fake Stripe.js sends that call straight to its 3-D Secure step
(`_authenticate`), which answers 400 "Bad request" for an intent that has no card yet
(localstripe issue #253, the red "Bad request" a newcomer saw), and its server confirms an
intent only with the secret key and without card data. So two routes are answered here, in
front of localstripe's own and through localstripe's own HTTP API, as Stripe answers them:

- `GET /js.stripe.com/v3/`: localstripe's fake Stripe.js followed by `fake_stripe.js`, whose
  confirmCardPayment checks the card fields with Stripe's messages, confirms the intent with
  the card, and goes on to localstripe's 3-D Secure step only when the intent needs it;
- `POST /v1/payment_intents/{id}/confirm` from a browser (the publishable key, the intent's
  client secret and `payment_method_data`): the secret is checked, the card becomes a
  PaymentMethod attached to the intent, the intent is confirmed; Stripe's answer comes back
  (a declined card: 402 with Stripe's message, "Your card was declined.").

Everything else is localstripe's own. The shop's pages are untouched: they load Stripe.js
from STRIPE_JS_URL and call confirmCardPayment as they do with Stripe.
"""

import argparse
import json
import re
from pathlib import Path

from aiohttp import ClientSession, web
from localstripe import server as localstripe

JS_PATH = "/js.stripe.com/v3/"
LOCALSTRIPE_JS = Path(localstripe.__file__).with_name("localstripe-v3.js")
COMPLETION_JS = Path(__file__).with_name("fake_stripe.js")
CONFIRM_PATH = re.compile(r"^/v1/payment_intents/(?P<id>pi_\w+)/confirm$")
# The key this server calls its own API with (localstripe takes any secret key).
ITS_OWN_KEY = "sk_test_fake_stripe_itself"
CONFIRMABLE = ("requires_payment_method", "requires_confirmation", "requires_action")
WRONG_SECRET = "The client_secret provided does not match the client_secret of this PaymentIntent."


def stripe_error(status: int, message: str, **fields) -> web.Response:
    error = {"type": "invalid_request_error", "message": message, **fields}
    return web.json_response({"error": error}, status=status)


async def own_api(api: ClientSession, method: str, path: str, body: dict | None = None):
    """(status, JSON answer) of one call to localstripe's own API."""
    async with api.request(method, path, json=body) as response:
        return response.status, await response.json(content_type=None)


async def browser_confirm(request: web.Request, intent_id: str, base: str) -> web.Response:
    """Confirm an intent with the card a browser sent, as Stripe does for Stripe.js."""
    try:
        data = json.loads(await request.text() or "{}")
    except ValueError:
        return stripe_error(400, "Invalid JSON body.")
    if not str(data.get("key", "")).startswith("pk_"):
        return stripe_error(401, "Invalid API Key provided.")
    card = data.get("payment_method_data")
    async with ClientSession(base, headers={"Authorization": f"Bearer {ITS_OWN_KEY}"}) as api:
        status, intent = await own_api(api, "GET", f"/v1/payment_intents/{intent_id}")
        if status != 200:
            return web.json_response(intent, status=status)
        if data.get("client_secret") != intent.get("client_secret"):
            return stripe_error(400, WRONG_SECRET, code="payment_intent_invalid_parameter")
        if intent["status"] not in CONFIRMABLE:
            message = (
                "You cannot confirm this PaymentIntent because it has a status of "
                f"{intent['status']}."
            )
            return stripe_error(400, message, code="payment_intent_unexpected_state")
        if isinstance(card, dict):
            status, method = await own_api(api, "POST", "/v1/payment_methods", card)
            if status != 200:
                return web.json_response(method, status=status)
            attach = {"payment_method": method["id"]}
            if intent.get("latest_charge"):
                # Another try after a declined card. localstripe would keep the failed charge
                # as the latest and refuse to confirm; at Stripe the new try makes a new charge.
                attach["latest_charge"] = None
            status, answer = await own_api(api, "POST", f"/v1/payment_intents/{intent_id}", attach)
            if status != 200:
                return web.json_response(answer, status=status)
        status, answer = await own_api(api, "POST", f"/v1/payment_intents/{intent_id}/confirm", {})
    if status == 402:  # declined: Stripe calls that a card error
        answer.setdefault("error", {})["type"] = "card_error"
    return web.json_response(answer, status=status)


def app_make(port: int) -> web.Application:
    """localstripe's application, with the two routes above answered first."""
    javascript = f"{LOCALSTRIPE_JS.read_text()}\n{COMPLETION_JS.read_text()}"
    base = f"http://127.0.0.1:{port}"

    @web.middleware
    async def completed(request: web.Request, handler):
        if request.method == "GET" and request.path == JS_PATH:
            return web.Response(text=javascript, content_type="application/javascript")
        match = CONFIRM_PATH.match(request.path)
        if request.method == "POST" and match and "Authorization" not in request.headers:
            return await browser_confirm(request, match["id"], base)
        return await handler(request)

    # Outermost: it answers before localstripe's own key check (a secret key only, there).
    localstripe.app.middlewares.insert(0, completed)
    return localstripe.app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args(argv).port
    web.run_app(app_make(port), host="127.0.0.1", port=port, print=None, access_log=None)


if __name__ == "__main__":
    main()
