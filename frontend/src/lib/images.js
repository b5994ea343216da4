// A part image that fails to load shows the shop's placeholder (img[data-fallback]), never the
// browser's broken-image icon. No inline onerror: the Content-Security-Policy forbids it.

/** Swap a broken image for its fallback, once (a broken fallback is left alone). */
export function showFallback(img) {
  const fallback = img.dataset.fallback;
  if (!fallback || img.dataset.fellBack) return;
  img.dataset.fellBack = "1";
  img.src = fallback;
}

/** Images that are already broken (they failed before this script ran) fall back too. */
export function isBroken(img) {
  return img.complete && img.naturalWidth === 0 && img.getAttribute("src") !== "";
}

export function watchImages(root = document) {
  root.addEventListener(
    "error",
    (event) => {
      if (event.target instanceof HTMLImageElement) showFallback(event.target);
    },
    true, // error events do not bubble: catch them on the way down
  );
  for (const img of root.querySelectorAll("img[data-fallback]")) {
    if (isBroken(img)) showFallback(img);
  }
}
