import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../test/storage.js";
import {
  clearToken,
  csrfToken,
  exchangeToken,
  signedInEmail,
  storedToken,
  TOKEN_KEY,
} from "./session.js";

function page({ cookie = "", userEmail } = {}) {
  vi.stubGlobal("document", { cookie, body: { dataset: userEmail ? { userEmail } : {} } });
}

beforeEach(() => {
  vi.stubGlobal("localStorage", memoryStorage());
  vi.stubGlobal("fetch", vi.fn());
  page();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("csrfToken", () => {
  it("reads the csrftoken cookie wherever it is, decoded", () => {
    page({ cookie: "csrftoken=a%2Fb" });
    expect(csrfToken()).toBe("a/b");
    page({ cookie: "theme=light; csrftoken=xyz; lang=en" });
    expect(csrfToken()).toBe("xyz");
  });

  it("is empty without that cookie, even when another name ends with it", () => {
    page({ cookie: "theme=light" });
    expect(csrfToken()).toBe("");
    page({ cookie: "notcsrftoken=evil" });
    expect(csrfToken()).toBe("");
  });
});

describe("signedInEmail", () => {
  it("is the body's data-user-email, or empty when signed out", () => {
    page({ userEmail: "ada@example.com" });
    expect(signedInEmail()).toBe("ada@example.com");
    page();
    expect(signedInEmail()).toBe("");
  });
});

describe("stored token", () => {
  it("lives in localStorage under the spec's key", () => {
    expect(TOKEN_KEY).toBe("accessToken");
    expect(storedToken()).toBeNull();
    localStorage.setItem("accessToken", "t1");
    expect(storedToken()).toBe("t1");
    clearToken();
    expect(storedToken()).toBeNull();
  });
});

describe("exchangeToken", () => {
  it("asks nothing and gives null when signed out", async () => {
    await expect(exchangeToken()).resolves.toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("PUTs the e-mail over the session and keeps the new token", async () => {
    page({ cookie: "csrftoken=c1", userEmail: "ada+bike@example.com" });
    fetch.mockResolvedValueOnce(new Response(JSON.stringify({ token: "t2" }), { status: 200 }));
    await expect(exchangeToken()).resolves.toBe("t2");
    expect(fetch).toHaveBeenCalledExactlyOnceWith("/api/user/ada%2Bbike%40example.com", {
      method: "PUT",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": "c1" },
      body: '{"email":"ada+bike@example.com"}',
    });
    expect(localStorage.getItem("accessToken")).toBe("t2");
  });

  it("gives null and keeps nothing when the server refuses", async () => {
    page({ userEmail: "ada@example.com" });
    fetch.mockResolvedValueOnce(new Response("{}", { status: 403 }));
    await expect(exchangeToken()).resolves.toBeNull();
    expect(storedToken()).toBeNull();
  });
});
