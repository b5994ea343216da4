import { useState } from "react";
import { runAction } from "../lib/busy.js";
import { Spinner } from "./Spinner.jsx";

function rethrow(error) {
  throw error;
}

/**
 * A daisyUI button for an action that takes a while: a spinner, aria-busy and disabled while it
 * runs. Given an async `onClick`, the button runs it (after "Are you sure?" when `confirm`) and
 * hands a failure to `onFailure` (in the tables, lib/toasts.jsx's `toastFailure`: an error
 * toast; toasts are not imported here, so the forms' pages do not load them). A form's submit
 * button (type="submit") runs nothing itself: the form's onSubmit does the work, shows its
 * errors next to their fields and says when it is `busy`.
 */
export function AsyncButton({
  onClick,
  confirm = false,
  onFailure = rethrow,
  busy = false,
  disabled = false,
  className = "",
  type = "button",
  children,
  ...rest
}) {
  const [running, setRunning] = useState(false);
  const working = busy || running;
  const run =
    onClick &&
    ((event) => runAction(() => onClick(event), { confirm, setBusy: setRunning, onFailure }));
  return (
    <button
      type={type}
      className={`btn whitespace-nowrap ${className}`}
      disabled={working || disabled}
      aria-busy={working || undefined}
      onClick={run}
      {...rest}
    >
      {working && <Spinner />}
      {children}
    </button>
  );
}
