// The toasts themselves: react-toastify, its stylesheet and the page's one container, in a
// chunk of their own that lib/toasts.jsx loads when the first toast shows, so no page loads
// them before it has a toast to show.

// react-toastify's "unstyled" entry: the default one injects a <style> element, which the CSP
// refuses. The styles come as text (build.mjs's `?raw`, as Vite reads it) and are adopted as a
// constructed stylesheet, which style-src 'self' allows.
import styles from "react-toastify/dist/ReactToastify.css?raw";
import { ToastContainer, toast } from "react-toastify/unstyled";
import { renderRoot } from "./mount.jsx";

function adoptStyles() {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(styles);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** Mount the container (SPEC §9: 5000 ms, top-right, light theme, pause on hover, click to
 * close, drag to dismiss at 80%); react-toastify's `toast`. */
export function mountContainer() {
  adoptStyles();
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
  return toast;
}
