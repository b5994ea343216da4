// The bike picker's script (/allparts and /garage; no React): each select filled from the API as
// the one before is chosen, and "Show parts for this bike" saving the bike (POST /api/garage)
// before All Parts opens for it. Without it the form still works, one round trip per select
// (catalog/garage_views.py).
import { api } from "./lib/api.js";
import { modelsOf, nextStep, yearsOf } from "./lib/picker.js";

const VEHICLES_LIMIT = 500;

function fill(select, placeholder, choices) {
  select.replaceChildren(new Option(placeholder, ""));
  for (const { value, label } of choices) select.append(new Option(label, value));
}

function watch(form) {
  const make = form.querySelector("[data-picker=make]");
  const model = form.querySelector("[data-picker=model]");
  const year = form.querySelector("[data-picker=year]");
  const status = form.querySelector("[data-picker-status]");
  let vehicles = null; // the chosen make's, once loaded

  const say = (text) => {
    status.textContent = text;
  };

  async function load() {
    vehicles = null;
    if (!make.value) return;
    const query = new URLSearchParams({ make: make.value, limit: VEHICLES_LIMIT });
    try {
      vehicles = await api(`/api/vehicles?${query}`);
    } catch (error) {
      say(error.message);
    }
  }

  make.addEventListener("change", async () => {
    fill(model, "Choose a model", []);
    fill(year, "Choose a year", []);
    await load();
    const models = modelsOf(vehicles ?? []);
    fill(
      model,
      "Choose a model",
      models.map((name) => ({ value: name, label: name })),
    );
  });
  model.addEventListener("change", () => {
    fill(year, "Choose a year", yearsOf(vehicles ?? [], model.value));
  });
  form.addEventListener("submit", async (event) => {
    if (vehicles === null && make.value) return; // not loaded: the plain form's round trip
    event.preventDefault();
    const step = nextStep({ make: make.value, model: model.value, year: year.value });
    if (step) {
      say(step);
      const next = { "Choose a make": make, "Choose a model": model }[step] ?? year;
      next.focus();
      return;
    }
    const vehicle = yearsOf(vehicles, model.value).find((y) => y.value === year.value);
    try {
      await api("/api/garage", { method: "POST", body: { vehicle: vehicle.id } });
    } catch (error) {
      say(error.message);
      return;
    }
    window.location.assign("/allparts");
  });
  // No makes listed (a signed-in page leaves them out): every make, from the API.
  if (make.options.length <= 1) {
    api("/api/vehicles/makes")
      .then((makes) =>
        fill(
          make,
          "Choose a make",
          makes.map((m) => ({ value: m, label: m })),
        ),
      )
      .catch((error) => say(error.message));
  }
  // A make chosen already (by a round trip without the script): its vehicles, for what follows.
  load();
}

for (const form of document.querySelectorAll("form[data-bike-picker]")) watch(form);
