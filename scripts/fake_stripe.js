// Appended by scripts/fake_stripe_server.py to localstripe's fake Stripe.js, in the same script
// (so `Stripe` and `LOCALSTRIPE_BASE_API` are localstripe's). Served only by the fake Stripe
// server of `make run` and the tests; the shop's pages load whatever STRIPE_JS_URL names.
//
// It gives the fake what a page paying as Stripe documents needs:
// - confirmCardPayment(clientSecret, {payment_method: {card, billing_details}}): the card fields
//   checked with Stripe's own messages (a validation_error, nothing sent), one confirm call with
//   the card (answered by fake_stripe_server.py, as Stripe answers it), then localstripe's own
//   3-D Secure step only when the intent requires action. localstripe's version skips the
//   confirm and answers "Bad request" for every card that needs no 3-D Secure.
// - a card number typed with spaces ("4242 4242 4242 4242"): the fake's number input keeps the
//   digits only, so its jump to the next field comes after the 16th digit, not the 16th key.
(() => {
  const localStripe = Stripe;
  const INTENT = /^(pi_\w+)_secret_/;
  const digitsOnlyInputs = new WeakSet();

  function invalid(code, message) {
    return { error: { type: "validation_error", code, message } };
  }

  function luhn(digits) {
    let sum = 0;
    [...digits].reverse().forEach((digit, index) => {
      const value = Number(digit) * (index % 2 ? 2 : 1);
      sum += value > 9 ? value - 9 : value;
    });
    return sum % 10 === 0;
  }

  /** The year typed: the fake element stores "20" + what was typed ("30" -> "2030"). */
  function yearOf(stored) {
    const typed = String(stored ?? "").replace(/^20/, "");
    if (/^\d{2}$/.test(typed)) return 2000 + Number(typed);
    return /^\d{4}$/.test(typed) ? Number(typed) : Number.NaN;
  }

  /** The card in the fake card element, checked as Stripe's card element checks it. */
  function cardOf(element) {
    const value = element?.value?.card ?? {};
    const number = String(value.number ?? "").replace(/[\s-]/g, "");
    if (/^\d{0,15}$/.test(number)) {
      return invalid("incomplete_number", "Your card number is incomplete.");
    }
    if (!/^\d{16}$/.test(number) || !luhn(number)) {
      return invalid("invalid_number", "Your card number is invalid.");
    }
    const month = /^\d{1,2}$/.test(String(value.exp_month ?? ""))
      ? Number(value.exp_month)
      : Number.NaN;
    const year = yearOf(value.exp_year);
    if (Number.isNaN(month) || Number.isNaN(year)) {
      return invalid("incomplete_expiry", "Your card's expiration date is incomplete.");
    }
    if (month < 1 || month > 12) {
      return invalid("invalid_expiry_month", "Your card's expiration month is invalid.");
    }
    const now = new Date();
    const thisYear = now.getFullYear();
    if (year < thisYear || (year === thisYear && month < now.getMonth() + 1)) {
      return invalid("invalid_expiry_year_past", "Your card's expiration date is in the past.");
    }
    if (year >= 2100) {
      return invalid("invalid_expiry_year", "Your card's expiration year is invalid.");
    }
    const cvc = String(value.cvc ?? "");
    if (!/^\d{3}$/.test(cvc)) {
      return invalid("incomplete_cvc", "Your card's security code is incomplete.");
    }
    return {
      card: { number, exp_month: month, exp_year: year, cvc },
      postalCode: element.value.postal_code ?? "",
    };
  }

  async function confirmCardPayment(apiKey, clientSecret, data, authenticate) {
    const method = data?.payment_method ?? {};
    const checked = cardOf(method.card);
    if (checked.error) return checked;
    const billing = method.billing_details ?? {};
    try {
      const intent = String(clientSecret).match(INTENT)[1];
      const response = await fetch(`${LOCALSTRIPE_BASE_API}/v1/payment_intents/${intent}/confirm`, {
        method: "POST",
        body: JSON.stringify({
          key: apiKey,
          client_secret: clientSecret,
          payment_method_data: {
            type: "card",
            card: checked.card,
            billing_details: {
              ...billing,
              address: { postal_code: checked.postalCode, ...(billing.address ?? {}) },
            },
          },
        }),
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok || body.error) {
        const message = `The payment provider answered HTTP ${response.status}.`;
        return { error: body.error ?? { type: "api_error", message } };
      }
      if (body.status !== "requires_action") return { paymentIntent: body };
      // 3-D Secure: localstripe's own step (its dialog, then `_authenticate`).
      const result = await authenticate(clientSecret);
      const failed = result.paymentIntent?.last_payment_error;
      return failed && result.paymentIntent.status !== "succeeded" ? { error: failed } : result;
    } catch (failure) {
      return {
        error: { type: "api_connection_error", message: String(failure?.message ?? failure) },
      };
    }
  }

  /** The fake's card-number input keeps digits only (before the fake's own input handler). */
  function digitsOnly(target) {
    const container = typeof target === "string" ? document.querySelector(target) : target;
    const input = container?.querySelector('input[placeholder="number"]');
    if (!input || digitsOnlyInputs.has(input)) return;
    digitsOnlyInputs.add(input);
    const fakeHandler = input.oninput;
    input.inputMode = "numeric";
    input.autocomplete = "cc-number";
    input.oninput = (event) => {
      const digits = input.value.replace(/\D/g, "");
      if (digits !== input.value) input.value = digits;
      fakeHandler.call(input, event);
    };
  }

  function withDigitsOnly(elements) {
    return (...args) => {
      const made = elements(...args);
      const create = made.create;
      made.create = (...options) => {
        const element = create.apply(made, options);
        const mount = element.mount;
        element.mount = (target) => {
          mount.call(element, target);
          digitsOnly(target);
        };
        return element;
      };
      return made;
    };
  }

  Stripe = (apiKey, ...options) => {
    const stripe = localStripe(apiKey, ...options);
    const authenticate = stripe.confirmCardPayment;
    stripe.elements = withDigitsOnly(stripe.elements);
    stripe.confirmCardPayment = (clientSecret, data) =>
      confirmCardPayment(apiKey, clientSecret, data, authenticate);
    return stripe;
  };
})();
