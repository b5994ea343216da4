import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../test/storage.js";
import { ApiError, api } from "./api.js";

describe("ApiError", () => {
  it("takes the message from detail", () => {
    const error = new ApiError(409, { detail: "Pay or delete an unpaid order first." });
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(409);
    expect(error.message).toBe("Pay or delete an unpaid order first.");
  });

  it("joins non_field_errors when there is no detail", () => {
    const error = new ApiError(400, { non_field_errors: ["First.", "Second."] });
    expect(error.message).toBe("First. Second.");
  });

  it("asks to correct the fields for any other 400", () => {
    expect(new ApiError(400, { phone: ["Phone is required"] }).message).toBe(
      "Please correct the fields below.",
    );
  });

  it("names the HTTP status of other failures", () => {
    const error = new ApiError(500, null);
    expect(error.message).toBe("Something went wrong (HTTP 500). Please try again.");
    expect(error.body).toEqual({});
    expect(error.fields).toEqual({});
  });

  it("lists field messages, lists joined, detail left out", () => {
    const error = new ApiError(400, {
      detail: "Not a field.",
      quantity: ["Too many.", "Really."],
      phone: "Phone is required",
      count: 3,
    });
    expect(error.fields).toEqual({
      quantity: "Too many. Really.",
      phone: "Phone is required",
      count: "3",
    });
  });
});

describe("api", () => {
  let fetchMock;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    vi.stubGlobal("localStorage", memoryStorage({ accessToken: "old-token" }));
    vi.stubGlobal("document", {
      cookie: "theme=light; csrftoken=abc%2B1",
      body: { dataset: { userEmail: "ada@example.com" } },
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const json = (status, body) => new Response(JSON.stringify(body), { status });

  it("GETs with the stored token and the CSRF header, and resolves to the JSON", async () => {
    fetchMock.mockResolvedValueOnce(json(200, [{ _id: "o1" }]));
    await expect(api("/api/booking?email=ada@example.com")).resolves.toEqual([{ _id: "o1" }]);
    expect(fetchMock).toHaveBeenCalledExactlyOnceWith("/api/booking?email=ada@example.com", {
      method: "GET",
      headers: {
        Accept: "application/json",
        "X-CSRFToken": "abc+1",
        Authorization: "Bearer old-token",
      },
      credentials: "same-origin",
      body: undefined,
    });
  });

  it("sends a body as JSON", async () => {
    fetchMock.mockResolvedValueOnce(json(200, { modifiedCount: 1 }));
    await api("/api/booking/o1", { method: "PUT", body: { status: "approved" } });
    const [, init] = fetchMock.mock.calls[0];
    expect(init.method).toBe("PUT");
    expect(init.headers["Content-Type"]).toBe("application/json");
    expect(init.body).toBe('{"status":"approved"}');
  });

  it("sends no Authorization header without a stored token", async () => {
    localStorage.clear();
    fetchMock.mockResolvedValueOnce(json(200, {}));
    await api("/api/allparts");
    expect(fetchMock.mock.calls[0][1].headers).not.toHaveProperty("Authorization");
  });

  it("on 401 exchanges the session for a new token and tries once more", async () => {
    fetchMock
      .mockResolvedValueOnce(json(401, { detail: "Token expired." }))
      .mockResolvedValueOnce(json(200, { token: "new-token" }))
      .mockResolvedValueOnce(json(200, { ok: true }));
    await expect(api("/api/bookings")).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(fetchMock.mock.calls[1][0]).toBe("/api/user/ada%40example.com");
    expect(fetchMock.mock.calls[2][1].headers.Authorization).toBe("Bearer new-token");
    expect(localStorage.getItem("accessToken")).toBe("new-token");
  });

  it("on 401 when signed out drops the stale token and retries without one", async () => {
    document.body.dataset = {};
    fetchMock
      .mockResolvedValueOnce(json(401, { detail: "Token expired." }))
      .mockResolvedValueOnce(json(200, []));
    await expect(api("/api/allparts")).resolves.toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls[1][1].headers).not.toHaveProperty("Authorization");
    expect(localStorage.getItem("accessToken")).toBeNull();
  });

  const jwt = (secondsLeft) => {
    const exp = Math.floor(Date.now() / 1000) + secondsLeft;
    const payload = btoa(JSON.stringify({ exp, token_type: "access" })).replace(/=+$/, "");
    return `header.${payload.replace(/\+/g, "-").replace(/\//g, "_")}.signature`;
  };

  it("renews a token that expires within 30 seconds before calling", async () => {
    const fresh = jwt(900);
    localStorage.setItem("accessToken", jwt(20));
    fetchMock
      .mockResolvedValueOnce(json(200, { token: fresh }))
      .mockResolvedValueOnce(json(200, { ok: true }));
    await expect(api("/api/bookings")).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls[0][0]).toBe("/api/user/ada%40example.com");
    expect(fetchMock.mock.calls[0][1].headers).not.toHaveProperty("Authorization");
    expect(fetchMock.mock.calls[1][1].headers.Authorization).toBe(`Bearer ${fresh}`);
    expect(localStorage.getItem("accessToken")).toBe(fresh);
  });

  it("renews an expired token too", async () => {
    localStorage.setItem("accessToken", jwt(-600));
    fetchMock
      .mockResolvedValueOnce(json(200, { token: "new-token" }))
      .mockResolvedValueOnce(json(200, []));
    await api("/api/bookings");
    expect(fetchMock.mock.calls[1][1].headers.Authorization).toBe("Bearer new-token");
  });

  it("uses a token with more than 30 seconds left as it is", async () => {
    const token = jwt(14 * 60);
    localStorage.setItem("accessToken", token);
    fetchMock.mockResolvedValueOnce(json(200, []));
    await api("/api/bookings");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0][1].headers.Authorization).toBe(`Bearer ${token}`);
  });

  it("a revoked token (401 before it expires) is exchanged once, then the call succeeds", async () => {
    localStorage.setItem("accessToken", jwt(600));
    fetchMock
      .mockResolvedValueOnce(json(401, { detail: "This token has been revoked." }))
      .mockResolvedValueOnce(json(200, { token: "new-token" }))
      .mockResolvedValueOnce(json(200, { ok: true }));
    await expect(api("/api/bookings")).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(localStorage.getItem("accessToken")).toBe("new-token");
  });

  it("when the expiring token cannot be renewed (signed out), calls without one", async () => {
    document.body.dataset = {};
    localStorage.setItem("accessToken", jwt(5));
    fetchMock.mockResolvedValueOnce(json(200, []));
    await expect(api("/api/allparts")).resolves.toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0][1].headers).not.toHaveProperty("Authorization");
    expect(localStorage.getItem("accessToken")).toBeNull();
  });

  it("rejects with an ApiError that carries the status and the body's message", async () => {
    fetchMock.mockResolvedValueOnce(json(409, { detail: "The order is not paid yet." }));
    const error = await api("/api/booking/o1", { method: "PUT", body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe("The order is not paid yet.");
  });

  it("rejects with a general message when the error body is not JSON", async () => {
    fetchMock.mockResolvedValueOnce(new Response("<h1>Bad Gateway</h1>", { status: 502 }));
    await expect(api("/api/bookings")).rejects.toThrow(
      "Something went wrong (HTTP 502). Please try again.",
    );
  });
});
