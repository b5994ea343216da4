// The bike picker's pure logic (templates/catalog/_bike_picker.html, src/bike-picker.js): a
// make's vehicles (GET /api/vehicles?make=…) become the Model select's choices, a model's
// become the Year select's, and a chosen year names the vehicle to save.

/** The models among `vehicles`, each once, by name. */
export function modelsOf(vehicles) {
  return [...new Set(vehicles.map((v) => v.model))].sort((a, b) => a.localeCompare(b));
}

/** The years of `model` among `vehicles`, newest first, as [{value, label, id}]. */
export function yearsOf(vehicles, model) {
  return vehicles
    .filter((v) => v.model === model)
    .sort((a, b) => b.year - a.year)
    .map((v) => ({ value: String(v.year), label: String(v.year), id: v._id }));
}

/** What the shopper must choose next, or "" when make, model and year are chosen. */
export function nextStep({ make, model, year }) {
  if (!make) return "Choose a make";
  if (!model) return "Choose a model";
  if (!year) return "Choose a year";
  return "";
}
