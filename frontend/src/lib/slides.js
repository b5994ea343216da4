// The home page's CSS-only slide banner: the slides out of view are `inert`, so Tab never
// walks into a hidden slide's links (without this script every slide stays reachable).

/** Make each slide inert unless at least half of it is in view. */
export function markHiddenSlides(entries) {
  for (const entry of entries) {
    entry.target.inert = entry.intersectionRatio < 0.5;
  }
}

export function watchSlides(root = document) {
  const slides = root.querySelectorAll(".carousel-item");
  if (slides.length === 0 || !("IntersectionObserver" in window)) return;
  const carousel = slides[0].parentElement;
  const observer = new IntersectionObserver(markHiddenSlides, {
    root: carousel,
    threshold: [0, 0.5, 1],
  });
  for (const slide of slides) observer.observe(slide);
}
