// The cart page (/cart): a row per line with its quantity field and Remove, the voucher field
// (Apply; the code applied with its Remove; the code's message under the field), the totals
// (Subtotal, Discount with the code when there is one, Total) and Checkout, disabled while a line has a problem (API.md's `problem`, or the one a refused
// checkout sent back: lib/cart.js); a line's notice (its price changed since it was added) and
// warning (it does not fit the active bike) are said, and stop nothing. Every change goes to
// the API and shows its answer.
import { useCallback, useState } from "react";
import { AsyncButton } from "../components/AsyncButton.jsx";
import { Totals } from "../components/Totals.jsx";
import { api } from "../lib/api.js";
import { announceCartCount, canCheckout, takeCartProblem, withProblem } from "../lib/cart.js";
import { cartRows } from "../lib/checkout.js";
import { money } from "../lib/format.js";
import { mountIslands } from "../lib/mount.jsx";
import { toastFailure } from "../lib/toasts.jsx";

// Read once, when the page opens: the problem a refused checkout sent back here.
const kept = takeCartProblem();

function CartLine({ line, placeholder, onChange }) {
  const [quantity, setQuantity] = useState(String(line.quantity));
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const fieldId = `cart-quantity-${line.partId}`;
  const describedBy = [error && `${fieldId}-error`, line.problem && `cart-problem-${line.partId}`]
    .filter(Boolean)
    .join(" ");

  async function onSubmit(event) {
    event.preventDefault();
    setBusy(true);
    try {
      const cart = await api(`/api/cart/${line.partId}`, {
        method: "PUT",
        body: { quantity: quantity.trim() },
      });
      setError("");
      onChange(cart);
    } catch (failure) {
      setError(failure.fields.quantity || failure.message);
    } finally {
      setBusy(false);
    }
  }

  async function onRemove() {
    onChange(await api(`/api/cart/${line.partId}`, { method: "DELETE" }));
  }

  return (
    <li className="card bg-base-100 border border-base-300 shadow-sm flex-col sm:flex-row">
      <figure className="bg-base-200 p-2">
        <img
          src={line.img || placeholder}
          alt=""
          width="192"
          height="144"
          className="h-36 w-48 object-contain"
          data-fallback={placeholder}
        />
      </figure>
      <div className="card-body gap-2 p-4">
        <h2 className="card-title text-lg break-words">
          <a href={line.url} className="link link-hover">
            {line.name}
          </a>
        </h2>
        <p>
          {money(line.price)} each · <span className="font-semibold">{money(line.lineTotal)}</span>
        </p>
        {line.problem && (
          <p id={`cart-problem-${line.partId}`} className="text-error font-semibold" role="status">
            {line.problem}
          </p>
        )}
        {line.notice && <p className="text-warning-content font-semibold">{line.notice}</p>}
        {line.warning && <p className="text-warning-content font-semibold">{line.warning}</p>}
        <div className="flex flex-wrap items-end gap-2">
          <form noValidate onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={fieldId} className="text-sm font-medium">
                Quantity
              </label>
              <input
                id={fieldId}
                name="quantity"
                type="number"
                inputMode="numeric"
                min={line.minimumOrderQuantity}
                max={line.availableQuantity}
                step={1}
                className={`input w-28 ${error ? "input-error" : ""}`}
                value={quantity}
                onChange={(event) => setQuantity(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy || undefined}
              />
            </div>
            <AsyncButton type="submit" busy={busy} className="btn-outline">
              Update
            </AsyncButton>
          </form>
          <AsyncButton onClick={onRemove} onFailure={toastFailure} className="btn-ghost">
            Remove
          </AsyncButton>
        </div>
        {error && (
          <p id={`${fieldId}-error`} className="text-error text-sm">
            {error}
          </p>
        )}
      </div>
    </li>
  );
}

const VOUCHER_FIELD = "cart-voucher";
const VOUCHER_MESSAGE = "cart-voucher-message";
const VOUCHER_APPLIED = "cart-voucher-applied";

/** The voucher field: Apply sends the code (POST /api/cart/voucher); a refusal's message, or
 * the applied code's problem with this cart (`voucherProblem`), shows under the field. */
function Voucher({ cart, onChange }) {
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const message = error || cart.voucherProblem || "";

  async function onApply(event) {
    event.preventDefault();
    setBusy(true);
    try {
      const next = await api("/api/cart/voucher", { method: "POST", body: { code: code.trim() } });
      setError("");
      setCode("");
      onChange(next);
    } catch (failure) {
      setError(failure.fields.code || failure.message);
      document.getElementById(VOUCHER_FIELD)?.focus();
    } finally {
      setBusy(false);
    }
  }

  async function onRemove() {
    const next = await api("/api/cart/voucher", { method: "DELETE" });
    setError("");
    onChange(next);
    document.getElementById(VOUCHER_FIELD)?.focus(); // the Remove button is gone
  }

  return (
    <section aria-labelledby="cart-voucher-heading" className="flex flex-col gap-2 max-w-md">
      <h2 id="cart-voucher-heading" className="text-lg font-semibold">
        Voucher
      </h2>
      <form noValidate onSubmit={onApply} className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1 grow">
          <label htmlFor={VOUCHER_FIELD} className="text-sm font-medium">
            Voucher code
          </label>
          <input
            id={VOUCHER_FIELD}
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className={`input w-full ${message ? "input-error" : ""}`}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? VOUCHER_MESSAGE : undefined}
          />
        </div>
        <AsyncButton type="submit" busy={busy} className="btn-outline">
          Apply
        </AsyncButton>
      </form>
      <p id={VOUCHER_MESSAGE} className="text-error text-sm" aria-live="polite">
        {message}
      </p>
      {cart.voucher && (
        <div className="flex flex-wrap items-center gap-2">
          <p id={VOUCHER_APPLIED}>
            Code applied: <span className="font-semibold">{cart.voucher.code}</span>
          </p>
          <AsyncButton
            onClick={onRemove}
            onFailure={toastFailure}
            className="btn-ghost btn-sm"
            aria-describedby={VOUCHER_APPLIED}
          >
            Remove
          </AsyncButton>
        </div>
      )}
    </section>
  );
}

function Cart({ cart: first, placeholder }) {
  const [cart, setCart] = useState(first);
  const [problem, setProblem] = useState(kept);
  const onChange = useCallback((next) => {
    setProblem(null); // the shopper changed the cart: the checkout's refusal is old news
    setCart(next);
    announceCartCount(next.count);
  }, []);
  const lines = withProblem(cart.lines, problem);

  if (!lines.length) {
    return (
      <p>
        Your cart is empty.{" "}
        <a href="/allparts" className="link link-primary">
          All Parts
        </a>
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-4" aria-label="Parts in your cart">
        {lines.map((line) => (
          <CartLine key={line.partId} line={line} placeholder={placeholder} onChange={onChange} />
        ))}
      </ul>
      <div className="flex flex-wrap items-start justify-between gap-6">
        <Voucher cart={cart} onChange={onChange} />
        <Totals rows={cartRows(cart)} className="min-w-56 grow sm:grow-0" />
      </div>
      <div className="flex flex-wrap items-center justify-end gap-4">
        {canCheckout(lines) ? (
          <a href="/checkout" className="btn btn-primary">
            Checkout
          </a>
        ) : (
          <>
            <p id="checkout-blocked" className="text-sm">
              Fix the lines marked above to check out.
            </p>
            <button
              type="button"
              className="btn btn-primary"
              disabled
              aria-describedby="checkout-blocked"
            >
              Checkout
            </button>
          </>
        )}
      </div>
    </div>
  );
}

mountIslands({ cart: Cart });
