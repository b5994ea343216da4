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
