// The part forms' image preview: choosing a file (or typing an image URL) shows it at once in
// the <img> that the input's data-preview names. The file is read as a data: URL, which the
// Content-Security-Policy's img-src already allows (no blob: source needed). A file the server
// would refuse for its type or size is refused here too, with the server's own words.

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"];
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_INVALID = "Upload a PNG, JPEG or WebP image";
export const IMAGE_TOO_BIG = "The image must be at most 5 MB";

/** What is wrong with a chosen file ("" when nothing is; the server checks again). */
export function fileProblem(file) {
  if (!IMAGE_TYPES.includes(file.type)) return IMAGE_INVALID;
  if (file.size > IMAGE_MAX_BYTES) return IMAGE_TOO_BIG;
  return "";
}

/** A typed image URL worth previewing: http(s) or one of the shop's own paths. */
export function previewableUrl(value) {
  const url = value.trim();
  return /^(https?:\/\/\S+|\/(static|media)\/\S+)$/.test(url) ? url : "";
}

function show(img, src) {
  delete img.dataset.fellBack; // a new picture may fall back again
  img.src = src;
}

function say(input, message) {
  const note = document.getElementById(input.dataset.previewError ?? "");
  if (!note) return;
  note.textContent = message;
  note.hidden = !message;
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

function onFile(input, img) {
  const file = input.files?.[0];
  if (!file) return;
  const problem = fileProblem(file);
  say(input, problem);
  if (problem) {
    input.value = "";
    return;
  }
  const reader = new FileReader();
  reader.addEventListener("load", () => show(img, reader.result));
  reader.readAsDataURL(file);
}

function onChange(event) {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.dataset.preview) return;
  const img = document.getElementById(input.dataset.preview);
  if (!img) return;
  if (input.type === "file") onFile(input, img);
  else if (!input.value.trim()) show(img, img.dataset.fallback ?? "");
  else {
    const url = previewableUrl(input.value);
    if (url) show(img, url);
  }
}

export function watchPreviews(root = document) {
  root.addEventListener("change", onChange);
}
