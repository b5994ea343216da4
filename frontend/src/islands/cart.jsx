// The cart page (/cart): a row per line with its quantity field and Remove, the total, and
// Checkout, disabled while a line has a problem (API.md's `problem`, or the one a refused
// checkout sent back: lib/cart.js); a line's notice (its price changed since it was added) and
// warning (it does not fit the active bike) are said, and stop nothing. Every change goes to
// the API and shows its answer.
import { useCallback, useState } from "react";
import { AsyncButton } from "../components/AsyncButton.jsx";
import { api } from "../lib/api.js";
import { announceCartCount, canCheckout, takeCartProblem, withProblem } from "../lib/cart.js";
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
      <div className="flex flex-wrap items-center justify-end gap-4">
        <p className="text-xl font-semibold" aria-live="polite">
          Total: {money(cart.total)}
        </p>
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
