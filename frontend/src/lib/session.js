// The signed-in session as the spec keeps it: an access token in localStorage "accessToken",
// obtained by exchanging the signed-in user's e-mail (PUT /api/user/{email}) over the session.
export const TOKEN_KEY = "accessToken";

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export function signedInEmail() {
  return document.body.dataset.userEmail || "";
}

export function storedToken() {
  return localStorage.getItem(TOKEN_KEY);
}

// SPEC §9: a token is treated as expired 30 s before it expires (access tokens live 15 minutes).
export const EXPIRY_MARGIN_SECONDS = 30;

/** Seconds until the JWT `token` expires; null when it carries no readable `exp`. */
export function secondsLeft(token, now = Date.now()) {
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const { exp } = JSON.parse(atob(payload));
    return typeof exp === "number" ? exp - now / 1000 : null;
  } catch {
    return null;
  }
}

/** Whether `token` has expired or will within the margin (unknown expiry: no). */
export function expiresSoon(token, now = Date.now()) {
  const left = secondsLeft(token, now);
  return left !== null && left < EXPIRY_MARGIN_SECONDS;
}

export function clearToken() {
  localStorage.removeItem(TOKEN_KEY);
}

/** Ask the server for a fresh access token for the signed-in user; null when signed out. */
export async function exchangeToken() {
  const email = signedInEmail();
  if (!email) return null;
  const response = await fetch(`/api/user/${encodeURIComponent(email)}`, {
    method: "PUT",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) return null;
  const { token } = await response.json();
  localStorage.setItem(TOKEN_KEY, token);
  return token;
}
