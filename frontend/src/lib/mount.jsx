// Mounts React islands into server-rendered pages. A template marks each one as
//   <div data-island="purchase-form">{{ props|json_script }}</div>
// and the island's entry file calls mountIslands({"purchase-form": PurchaseForm}).
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

function readProps(element) {
  const script = element.querySelector(':scope > script[type="application/json"]');
  if (!script) return {};
  return JSON.parse(script.textContent || "null") ?? {};
}

/** Render `element` into `host`: the one place React roots are made (the islands, the toasts'
 * container), so every page that loads React loads this with it, in one chunk. */
export function renderRoot(host, element) {
  const root = createRoot(host);
  root.render(element);
  return root;
}

export function mountIslands(components) {
  const roots = [];
  for (const element of document.querySelectorAll("[data-island]")) {
    const Component = components[element.dataset.island];
    // Another entry on the same page owns it, or it is already mounted.
    if (!Component || element.dataset.islandMounted) continue;
    const props = readProps(element);
    element.dataset.islandMounted = "true";
    roots.push(
      renderRoot(
        element,
        <StrictMode>
          <Component {...props} />
        </StrictMode>,
      ),
    );
  }
  return roots;
}
