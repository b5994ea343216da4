// The search box's suggestions (templates/partials/search_suggest.html), a WAI-ARIA combobox:
// after two characters and a pause, the parts, categories and bikes of GET /api/search/suggest
// in a listbox; arrow keys move, Enter goes to the option's page, Escape closes, and a polite
// status says how many there are. site.js loads it when a search box first takes the focus.

const WAIT = 150; // ms after the last key
const FROM = 2; // characters before anything is asked
const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** The options of an answer: [label, detail, url]. */
export function optionsOf(answer) {
  return [
    ...answer.parts.map((p) => [
      p.name,
      `${p.partNumber ? `${p.partNumber} · ` : ""}${DOLLARS.format(p.price)}`,
      p.url,
    ]),
    ...answer.categories.map((c) => [c.name, "Category", c.url]),
    ...answer.bikes.map((b) => [b.name, "Bike", `/allparts?fits=${b._id}`]),
  ];
}

/** "5 suggestions", "1 suggestion", "No suggestions". */
export function countSaid(count) {
  if (!count) return "No suggestions";
  return `${count} suggestion${count === 1 ? "" : "s"}`;
}

export function watchSuggest(input) {
  if (input.dataset.suggesting) return;
  input.dataset.suggesting = "1";
  const list = document.getElementById(input.getAttribute("aria-controls"));
  // The polite status that says how many there are: made here, so that a page without
  // JavaScript (or whose box was never used) has no empty status of its own.
  const status = document.createElement("p");
  status.className = "sr-only";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  status.dataset.suggestStatus = "";
  input.parentElement.append(status);
  let timer = 0;
  let asked = "";
  let active = -1;

  const items = () => list.querySelectorAll("[role=option]");

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function mark(index) {
    const options = items();
    active = index;
    options.forEach((option, i) => {
      option.setAttribute("aria-selected", String(i === index));
      option.firstChild.classList.toggle("menu-active", i === index);
    });
    if (index < 0) input.removeAttribute("aria-activedescendant");
    else input.setAttribute("aria-activedescendant", options[index].id);
  }

  function show(options) {
    list.replaceChildren(
      ...options.map(([label, detail, url], i) => {
        const item = document.createElement("li");
        item.id = `${list.id}-${i}`;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        item.dataset.url = url;
        const line = document.createElement("span");
        line.className = "block";
        line.textContent = `${label} `;
        const small = document.createElement("span");
        small.className = "text-xs text-base-content/70";
        small.textContent = detail;
        line.append(small);
        item.append(line);
        return item;
      }),
    );
    status.textContent = countSaid(options.length);
    active = -1;
    input.removeAttribute("aria-activedescendant");
    list.hidden = !options.length;
    input.setAttribute("aria-expanded", String(options.length > 0));
  }

  async function ask(q) {
    asked = q;
    try {
      const response = await fetch(`/api/search/suggest?q=${encodeURIComponent(q)}`);
      const answer = await response.json();
      if (asked === q && input.value.trim() === q) show(optionsOf(answer));
    } catch {
      close();
    }
  }

  function changed() {
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < FROM) {
      asked = "";
      close();
      status.textContent = "";
      return;
    }
    timer = setTimeout(() => ask(q), WAIT);
  }

  function onKey(event) {
    const count = items().length;
    if (event.key === "Escape") {
      if (!list.hidden) event.preventDefault();
      close();
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && count) {
      event.preventDefault();
      if (list.hidden) {
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
      }
      const step = event.key === "ArrowDown" ? 1 : count - 1; // round the list both ways
      mark(active < 0 && step !== 1 ? count - 1 : (active + step) % count);
    } else if (event.key === "Enter" && active >= 0 && !list.hidden) {
      event.preventDefault();
      window.location.assign(items()[active].dataset.url);
    }
  }

  input.addEventListener("input", changed);
  input.addEventListener("keydown", onKey);
  input.addEventListener("blur", close);
  // The mouse: a press chooses (before the blur closes the list).
  list.addEventListener("mousedown", (event) => {
    const option = event.target.closest("[role=option]");
    if (option) {
      event.preventDefault();
      window.location.assign(option.dataset.url);
    }
  });
  // Typed before this script was loaded (not the search the page shows).
  if (input.value !== input.defaultValue) changed();
}
