// Edit part's "Fits these bikes" (no React): before "Add" sends a make and model the shop has
// no vehicle of, the owner confirms it is a new bike ("Add a new bike: Zundapp KS 50?"), so a
// typo never makes one unasked. The server refuses such a row unless confirmNew says so
// (catalog/fitment_serializers.py), also when this script does not run.

/** Whether the shop has a vehicle of this make and model (whatever their case); true when it
 * cannot tell (the server then decides). */
async function knownBike(make, model) {
  const query = new URLSearchParams({ make, model, limit: "1" });
  try {
    const response = await fetch(`/api/vehicles?${query}`, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (!response.ok) return true;
    return (await response.json()).length > 0;
  } catch {
    return true;
  }
}

function confirmed(field) {
  return field.type === "checkbox" ? field.checked : field.value === "true";
}

function markConfirmed(field) {
  if (field.type === "checkbox") field.checked = true;
  else field.value = "true";
}

function watch(form) {
  form.addEventListener("submit", async (event) => {
    const { make, model, confirmNew } = form.elements;
    const bike = [make.value.trim(), model.value.trim()];
    if (!confirmNew || confirmed(confirmNew) || !bike[0] || !bike[1]) return;
    event.preventDefault();
    if (await knownBike(...bike)) {
      form.submit();
    } else if (window.confirm(`Add a new bike: ${bike.join(" ")}?`)) {
      markConfirmed(confirmNew);
      form.submit();
    }
  });
}

for (const form of document.querySelectorAll("form[data-fitment-add]")) watch(form);
