// Toasts with the spec's settings (SPEC §9): 5000 ms, top-right, light theme, pause on hover,
// click to close, drag to dismiss at 80%. One container per page, shared by every island.

// "unstyled": app.css imports ReactToastify.css; the default entry injects a <style> (CSP).
import { ToastContainer, toast } from "react-toastify/unstyled";
import { renderRoot } from "./mount.jsx";

let mounted = false;

function ensureContainer() {
  if (mounted) return;
  mounted = true;
  const host = document.createElement("div");
  host.id = "toasts";
  document.body.append(host);
  renderRoot(
    host,
    <ToastContainer
      position="top-right"
      autoClose={5000}
      theme="light"
      pauseOnHover
      closeOnClick
      draggable
      draggablePercent={80}
    />,
  );
}

const LEVELS = { success: "success", error: "error", warning: "warning", info: "info" };

/** Show `text` as a toast; level is success, error, warning or info. */
export function notify(text, level = "success", options = {}) {
  ensureContainer();
  // The container mounts asynchronously: let it render before the first toast.
  setTimeout(() => toast(text, { type: LEVELS[level] ?? "default", ...options }), 0);
}

/** Show a failed action's message as an error toast (AsyncButton's `onFailure` in tables). */
export function toastFailure(error) {
  notify(error.message, "error");
}
