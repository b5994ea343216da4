// Test-only (added with Playwright's add_init_script, never served by the app).
// localstripe's fake Stripe.js confirmCardPayment only finishes 3-D Secure on an intent that
// already requires action. This wraps window.Stripe as soon as the fake defines it, so that
// confirmCardPayment(clientSecret, {payment_method: {card, billing_details}}) does what Stripe
// documents: create a card PaymentMethod from the entered card, attach it to the intent, confirm.
// The fake refuses payment_method in the confirm call itself ("Not implemented"), hence 3 calls.
(() => {
  const FAKE_JS = /\/js\.stripe\.com\/v3\/?$/;

  /** The fake's base URL, derived from its script's src as the fake itself does. */
  function fakeBase() {
    const script =
      document.currentScript ||
      [...document.scripts].find((element) => FAKE_JS.test(element.src || ""));
    return script ? script.src.replace(FAKE_JS, "") : "";
  }

  /** POST a JSON body as the fake's own calls do (a simple request: no CORS preflight). */
  async function post(url, body) {
    const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok || answer.error) {
      throw answer.error || { message: `The fake Stripe answered HTTP ${response.status}` };
    }
    return answer;
  }

  async function confirmCardPayment(base, key, clientSecret, data = {}) {
    try {
      const intentId = clientSecret.match(/^(pi_\w+)_secret_/)[1];
      const { card, billing_details: billing = {} } = data.payment_method || {};
      const entered = (card && card.value) || {};
      const method = await post(`${base}/v1/payment_methods`, {
        key,
        type: "card",
        card: entered.card,
        billing_details: {
          ...billing,
          address: { postal_code: entered.postal_code, ...(billing.address || {}) },
        },
      });
      await post(`${base}/v1/payment_intents/${intentId}`, { key, payment_method: method.id });
      const paymentIntent = await post(`${base}/v1/payment_intents/${intentId}/confirm`, { key });
      return { paymentIntent };
    } catch (error) {
      return { error: { ...error, message: error.message || String(error) } };
    }
  }

  function withConfirm(fakeStripe, base) {
    return function Stripe(key, ...options) {
      const stripe = fakeStripe(key, ...options);
      stripe.confirmCardPayment = (clientSecret, data) =>
        confirmCardPayment(base, key, clientSecret, data);
      return stripe;
    };
  }

  let current;
  Object.defineProperty(window, "Stripe", {
    configurable: true,
    get: () => current,
    set(value) {
      current = typeof value === "function" ? withConfirm(value, fakeBase()) : value;
    },
  });
})();
