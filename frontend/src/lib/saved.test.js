import { describe, expect, it } from "vitest";
import { markSaved, savedIds } from "./saved.js";

function saveForm(partId) {
  const attributes = {};
  const button = {
    textContent: "Save",
    setAttribute: (name, value) => {
      attributes[name] = value;
    },
    attributes,
  };
  return { dataset: { savePart: String(partId) }, querySelector: () => button, button };
}

describe("savedIds", () => {
  it("takes the ids of an answer's parts", () => {
    const answer = { parts: [{ _id: 3, savedPrice: 9.5 }, { _id: 7 }], count: 2 };
    expect(savedIds(answer)).toEqual(new Set([3, 7]));
  });
});

describe("markSaved", () => {
  it("reads Saved, pressed, on the saved parts' buttons and Save on the others", () => {
    const saved = saveForm(3);
    const other = saveForm(4);
    const again = saveForm(3); // the same part twice on a page (a card and the page's own)
    markSaved(new Set([3]), { querySelectorAll: () => [saved, other, again] });
    for (const form of [saved, again]) {
      expect(form.button.textContent).toBe("Saved");
      expect(form.button.attributes["aria-pressed"]).toBe("true");
      expect(form.dataset.saved).toBe("true");
    }
    expect(other.button.textContent).toBe("Save");
    expect(other.button.attributes["aria-pressed"]).toBe("false");
    expect(other.dataset.saved).toBe("false");
  });
});
