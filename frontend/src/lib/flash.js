// A toast that outlives one page change. The purchase form navigates to My Order at once on
// success (no delay that a fast user could cut short), so it keeps the message here, in
// sessionStorage (this tab only), and My Order shows it as soon as it mounts.
const KEY = "shop.flash";

export function flashNext(text, level = "success") {
  sessionStorage.setItem(KEY, JSON.stringify({ text, level }));
}

/** The kept message, removed so it shows once; null when there is none. */
export function takeFlash() {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return null;
  sessionStorage.removeItem(KEY);
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
