import { describe, expect, it } from "vitest";
import { fileProblem, IMAGE_INVALID, IMAGE_TOO_BIG, previewableUrl } from "./preview.js";

describe("fileProblem", () => {
  it("takes PNG, JPEG and WebP up to 5 MB", () => {
    for (const type of ["image/png", "image/jpeg", "image/webp"]) {
      expect(fileProblem({ type, size: 5 * 1024 * 1024 })).toBe("");
    }
  });

  it("refuses other types, SVG included", () => {
    expect(fileProblem({ type: "image/svg+xml", size: 10 })).toBe(IMAGE_INVALID);
    expect(fileProblem({ type: "text/html", size: 10 })).toBe(IMAGE_INVALID);
  });

  it("refuses files over 5 MB", () => {
    expect(fileProblem({ type: "image/png", size: 5 * 1024 * 1024 + 1 })).toBe(IMAGE_TOO_BIG);
  });
});

describe("previewableUrl", () => {
  it("previews http(s) URLs and the shop's own paths", () => {
    expect(previewableUrl(" https://example.com/a.png ")).toBe("https://example.com/a.png");
    expect(previewableUrl("/media/parts/a.png")).toBe("/media/parts/a.png");
    expect(previewableUrl("/static/img/parts/a.svg")).toBe("/static/img/parts/a.svg");
  });

  it("leaves anything else alone", () => {
    expect(previewableUrl("javascript:alert(1)")).toBe("");
    expect(previewableUrl("/etc/passwd")).toBe("");
    expect(previewableUrl("")).toBe("");
  });
});
