// The islands' one API client: JSON in and out, the bearer token from localStorage (the spec's
// behaviour), the session's CSRF header, and error bodies turned into messages.
import { clearToken, csrfToken, exchangeToken, expiresSoon, storedToken } from "./session.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(messageOf(status, body));
    this.status = status;
    this.body = body ?? {};
  }

  /** Field messages of a 400: {field: "first message"}. */
  get fields() {
    const fields = {};
    for (const [name, value] of Object.entries(this.body)) {
      if (name !== "detail") fields[name] = Array.isArray(value) ? value.join(" ") : String(value);
    }
    return fields;
  }
}

function messageOf(status, body) {
  if (body?.detail) return body.detail;
  if (body?.non_field_errors) return body.non_field_errors.join(" ");
  if (status === 400) return "Please correct the fields below.";
  return `Something went wrong (HTTP ${status}). Please try again.`;
}

async function send(path, { method, body }, token) {
  const headers = { Accept: "application/json", "X-CSRFToken": csrfToken() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Call the API; resolves to the JSON answer, rejects with ApiError. */
export async function api(path, { method = "GET", body } = {}) {
  let token = storedToken();
  if (token && expiresSoon(token)) {
    // About to expire (access tokens live 15 minutes): renew it first, without a failed call.
    clearToken();
    token = await exchangeToken();
  }
  let response = await send(path, { method, body }, token);
  if (response.status === 401) {
    // An expired or revoked token: exchange the session for a new one and try once more.
    clearToken();
    response = await send(path, { method, body }, await exchangeToken());
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}
