import { Spinner } from "./Spinner.jsx";

/** A daisyUI button that shows a spinner and is disabled while `busy`. */
export function ActionButton({
  busy = false,
  disabled = false,
  className = "",
  type = "button",
  children,
  ...rest
}) {
  return (
    <button
      type={type}
      className={`btn whitespace-nowrap ${className}`}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <Spinner />}
      {children}
    </button>
  );
}
