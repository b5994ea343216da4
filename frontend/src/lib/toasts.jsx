// Toasts with the spec's settings (SPEC §9), one container per page, shared by every island.
// react-toastify and its styles load with the first toast (lib/toast-container.jsx): a page
// that shows none never loads them.

let loading = null;

/** react-toastify's `toast`, once the container is mounted. */
function toaster() {
  loading ??= import("./toast-container.jsx").then((module) => module.mountContainer());
  return loading;
}

const LEVELS = { success: "success", error: "error", warning: "warning", info: "info" };
let shown = 0;

/** Show `text` as a toast; level is success, error, warning or info. Its id (for `dismiss`). */
export function notify(text, level = "success", options = {}) {
  const toastId = options.toastId ?? `toast-${++shown}`;
  // The container mounts asynchronously: let it render before the first toast.
  toaster().then((toast) => {
    setTimeout(() => toast(text, { type: LEVELS[level] ?? "default", ...options, toastId }), 0);
  });
  return toastId;
}

/** Take the toast `toastId` away (nothing when it is gone or was never shown). */
export function dismiss(toastId) {
  // After any notify() before it, in the same order.
  loading?.then((toast) => setTimeout(() => toast.dismiss(toastId), 0));
}

/** Show a failed action's message as an error toast (AsyncButton's `onFailure` in tables). */
export function toastFailure(error) {
  notify(error.message, "error");
}
