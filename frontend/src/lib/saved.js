// "Save" on the cards and part pages (plain POST forms, the same for every visitor: those pages
// are kept for everyone). site.js loads this when a page has one and there may be saved parts
// (signed in, or the hint cookie /api/saved's answers leave), and on the first press: the saved
// ones read "Saved" (pressed); a press saves, or unsaves a saved one, by the API.
import { ApiError, api } from "./api.js";
import { notify } from "./toasts.jsx";

export const UNREACHABLE = "The shop could not be reached. Please try again.";

/** The ids of an answer's parts. */
export function savedIds(answer) {
  return new Set(answer.parts.map((part) => part._id));
}

/** Show each "Save" form of `root` as saved or not. */
export function markSaved(ids, root = document) {
  for (const form of root.querySelectorAll("form[data-save-part]")) {
    const saved = ids.has(Number(form.dataset.savePart));
    const button = form.querySelector("button[type=submit]");
    form.dataset.saved = String(saved);
    button.textContent = saved ? "Saved" : "Save";
    button.setAttribute("aria-pressed", String(saved));
  }
}

/** Mark the page's saved parts from /api/saved. */
export async function fillSaved() {
  try {
    markSaved(savedIds(await api("/api/saved")));
  } catch {
    // Offline or the server is down: the buttons still save.
  }
}

/** A press: save the part, or unsave it when it is saved; every button of it follows. */
export async function toggleSaved(form) {
  const id = Number(form.dataset.savePart);
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const answer =
      form.dataset.saved === "true"
        ? await api(`/api/saved/${id}`, { method: "DELETE" })
        : await api("/api/saved", { method: "POST", body: { partId: id } });
    markSaved(savedIds(answer));
  } catch (error) {
    const message = error instanceof ApiError ? error.fields.partId || error.message : UNREACHABLE;
    notify(message, "error");
  } finally {
    button.disabled = false;
  }
}
