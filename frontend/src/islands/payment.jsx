// /dashboard/payment/<id> while the order can be paid: what is paid for (the page's own summary,
// rendered again here) and the card form, Stripe's card element and a Pay button. Once paid,
// the summary says "Order #N is paid." with a link to the order's page, as the page says it
// when it is opened again. The page loads Stripe.js with a plain <script> before this module,
// so loadStripe finds window.Stripe.
// A guest's order's page (/orders/<id>/<key>) mounts it too, `embedded` (the page shows the
// order itself: no summary here) with the order's `guestKey`, which every API call sends as
// `?key=`.
import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { useCallback, useEffect, useState } from "react";
import { AsyncButton } from "../components/AsyncButton.jsx";
import { Spinner } from "../components/Spinner.jsx";
import { api } from "../lib/api.js";
import { money } from "../lib/format.js";
import { mountIslands } from "../lib/mount.jsx";

export const PAID = "Congrats! Your payment is completed.";
const NOT_LOADED =
  "The card form could not be loaded. Please check your connection and reload the page.";
const NOT_COMPLETED = "Your payment was not completed. Please try again.";
// A constant, so the card element never gets an update() call (Stripe.js fakes have none).
const CARD_OPTIONS = {
  style: {
    base: { fontSize: "16px", color: "#1f2937", "::placeholder": { color: "#6b7280" } },
    invalid: { color: "#b91c1c" },
  },
};

/** `path` with the guest's key as `?key=…` (none for an account's order). */
export function withKey(path, guestKey) {
  return guestKey ? `${path}?key=${encodeURIComponent(guestKey)}` : path;
}

/** The order's client secret from POST /api/create-payment-intent (the server sets the amount). */
function useClientSecret(booking, guestKey, setError) {
  const [clientSecret, setClientSecret] = useState("");
  useEffect(() => {
    let live = true;
    api(withKey("/api/create-payment-intent", guestKey), {
      method: "POST",
      body: { booking: booking._id, totalPrice: booking.totalPrice },
    })
      .then((answer) => live && setClientSecret(answer.clientSecret))
      .catch((error) => live && setError(error.message));
    return () => {
      live = false;
    };
  }, [booking._id, booking.totalPrice, guestKey, setError]);
  return clientSecret;
}

/** True once the card element is on the page: its `ready` event, its first change, or found. */
function useCardPresent(elements) {
  const [present, setPresent] = useState(false);
  const markPresent = useCallback(() => setPresent(true), []);
  useEffect(() => {
    // Not every Stripe.js sends `ready` (localstripe's never does): the element itself counts.
    if (elements?.getElement(CardElement)) setPresent(true);
  }, [elements]);
  return [present, markPresent];
}

/** Confirm the card payment with Stripe, then record it on the order (the server verifies it). */
async function pay({ stripe, card, clientSecret, booking, user, guestKey }) {
  const result = await stripe.confirmCardPayment(clientSecret, {
    payment_method: { card, billing_details: { name: user.name, email: user.email } },
  });
  if (result?.error) throw new Error(result.error.message || NOT_COMPLETED);
  const intent = result?.paymentIntent;
  if (intent?.status !== "succeeded") throw new Error(NOT_COMPLETED);
  await api(withKey(`/api/booking/${booking._id}`, guestKey), {
    method: "PATCH",
    body: { transactionId: intent.id, booking: booking._id },
  });
  return intent.id;
}

/** The parts of an order of several lines, as the page's order_lines.html shows them. */
function OrderLines({ booking }) {
  return (
    <div className="overflow-x-auto">
      <table className="table table-sm" data-testid="order-lines">
        <caption className="sr-only">The parts of order #{booking._id}</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col" className="text-right">
              Price
            </th>
            <th scope="col" className="text-right">
              Quantity
            </th>
            <th scope="col" className="text-right">
              Line total
            </th>
          </tr>
        </thead>
        <tbody>
          {booking.lines.map((line) => (
            <tr key={line.partId ?? line.partsName}>
              <th scope="row" className="font-normal break-words">
                {line.partId ? (
                  <a href={`/parts/${line.partId}`} className="link link-primary">
                    {line.partsName}
                  </a>
                ) : (
                  line.partsName
                )}
              </th>
              <td className="text-right whitespace-nowrap">{money(line.pricePerUnit)}</td>
              <td className="text-right">{line.quantity}</td>
              <td className="text-right whitespace-nowrap">{money(line.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What is paid for (templates/dashboard/payment.html's summary): "Please pay for …" until the
 * card is paid, then "Order #N is paid." with a link to the order's page. */
function Summary({ booking, user, paid }) {
  return (
    <section
      className="card bg-base-100 border border-base-300 shadow-sm"
      aria-labelledby="payment-heading"
    >
      <div className="card-body gap-2">
        <p className="text-lg font-bold text-green-700">Hello, {user.name}</p>
        {paid ? (
          <>
            <h2 id="payment-heading" className="card-title text-2xl">
              Order #{booking._id} is paid.
            </h2>
            <p>
              <a href={booking.url} className="link link-primary">
                View Order #{booking._id}
              </a>
            </p>
            <p className="font-semibold break-words">{booking.partsName}</p>
          </>
        ) : (
          <h2 id="payment-heading" className="card-title text-2xl break-words">
            Please pay for {booking.partsName}
          </h2>
        )}
        {booking.lines.length > 1 && <OrderLines booking={booking} />}
        <p>Quantity: {booking.quantity}</p>
        <p className="text-lg font-semibold">
          {paid ? "Paid" : "Please pay"}: {money(booking.totalPrice)}
        </p>
      </div>
    </section>
  );
}

function CheckoutForm({ booking, user, guestKey, loadError, onPaid }) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState("");
  const [cardError, setCardError] = useState("");
  const [working, setWorking] = useState(false);
  const [transactionId, setTransactionId] = useState("");
  const clientSecret = useClientSecret(booking, guestKey, setError);
  const [cardPresent, markCardPresent] = useCardPresent(elements);

  // Stripe's own card messages come with change events; localstripe sends none (no event).
  const onChange = useCallback(
    (event) => {
      markCardPresent();
      setCardError(event?.error?.message ?? "");
    },
    [markCardPresent],
  );

  const ready = Boolean(stripe && elements && cardPresent && clientSecret);
  const loading = !ready && !error && !loadError;

  const onSubmit = useCallback(
    async (event) => {
      event.preventDefault();
      const card = elements?.getElement(CardElement);
      if (!stripe || !card || !clientSecret || working || transactionId) return;
      setWorking(true);
      setError("");
      try {
        const paidWith = await pay({ stripe, card, clientSecret, booking, user, guestKey });
        setTransactionId(paidWith);
        onPaid(paidWith);
      } catch (failure) {
        setError(failure.message || NOT_COMPLETED);
      } finally {
        setWorking(false);
      }
    },
    [stripe, elements, clientSecret, working, transactionId, booking, user, guestKey, onPaid],
  );

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4"
      aria-label="Card payment form"
    >
      <p id="card-label" className="text-sm font-medium">
        Card details
      </p>
      {/* A fieldset is a group by itself; min-w-0 undoes its min-content width. */}
      <fieldset
        aria-labelledby="card-label"
        className="min-w-0 rounded-box border border-base-300 bg-base-100 p-3"
      >
        <CardElement options={CARD_OPTIONS} onReady={markCardPresent} onChange={onChange} />
      </fieldset>
      <div className="flex items-center gap-3">
        <AsyncButton
          type="submit"
          busy={working}
          disabled={!ready || Boolean(transactionId)}
          className="btn-primary px-8"
        >
          Pay
        </AsyncButton>
        {loading && (
          <span className="flex items-center gap-2 text-sm">
            <Spinner /> Loading the card form…
          </span>
        )}
      </div>
      {[loadError, cardError, error].filter(Boolean).map((message) => (
        <p key={message} className="text-error text-sm" role="alert">
          {message}
        </p>
      ))}
      {transactionId && (
        <div role="status" className="flex flex-col gap-1">
          <p className="font-semibold text-green-700">{PAID}</p>
          <p className="break-all">
            Your transaction Id: <span className="font-bold">{transactionId}</span>
          </p>
          {guestKey ? (
            <a href={booking.url} className="link link-primary">
              View your order
            </a>
          ) : (
            <a href="/dashboard/myorder" className="link link-primary">
              Back to My Order
            </a>
          )}
        </div>
      )}
    </form>
  );
}

function Payment({ booking, user, publishableKey, guestKey = null, embedded = false }) {
  const [loadError, setLoadError] = useState("");
  const [paid, setPaid] = useState(false);
  const onPaid = useCallback(() => setPaid(true), []);
  // Once per page: Elements must always get the same promise.
  const [stripePromise] = useState(() =>
    loadStripe(publishableKey).catch(() => {
      setLoadError(NOT_LOADED);
      return null;
    }),
  );
  return (
    <>
      {!embedded && <Summary booking={booking} user={user} paid={paid} />}
      <section
        className="card bg-base-100 border border-base-300 shadow-sm"
        aria-label="Card payment"
      >
        <div className="card-body">
          <Elements stripe={stripePromise}>
            <CheckoutForm
              booking={booking}
              user={user}
              guestKey={guestKey}
              loadError={loadError}
              onPaid={onPaid}
            />
          </Elements>
        </div>
      </section>
    </>
  );
}

mountIslands({ payment: Payment });
