// HTTP calls to the server and the seat tokens kept in localStorage.
import { lang } from "./i18n.js";

let csrf = null; // the session's CSRF token (GET /api/me), sent with every state change
export function useCsrf(token) { csrf = token; }

// A seat token goes in the Authorization header, never in a URL (URLs end up in access logs).
// ``keepalive``: the request outlives the page (sent as it closes).
export async function call(method, path, body, token, keepalive = false) {
  const headers = { "accept-language": lang, ...(body ? { "content-type": "application/json" } : {}) }; // server texts in the page's language
  if (token) headers.authorization = `Bearer ${token}`;
  if (csrf && method !== "GET") headers["x-csrf-token"] = csrf;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined, keepalive });
  if (!response.ok) throw await refusal(response);
  return response.json().catch(() => ({}));
}

// The server's refusal (its JSON ``detail``) as an Error to show.
async function refusal(response) {
  const data = await response.json().catch(() => ({}));
  return new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail));
}

export const api = {
  games: () => call("GET", "/api/games"),
  tables: () => call("GET", "/api/tables"),
  table: (code) => call("GET", `/api/tables/${code}`),
  create: (body) => call("POST", "/api/tables", body),
  join: (code, seat, name, invite) => call("POST", `/api/tables/${code}/join`, { seat, name, invite }),
  invite: (code, token) => call("GET", `/api/tables/${code}/invite`, undefined, token),
  renewInvite: (code, token) => call("POST", `/api/tables/${code}/invite`, undefined, token), // the old link stops working
  qr: async (code, token) => { // the SVG text: a seated player's QR code holds the invitation
    const response = await fetch(`/api/tables/${code}/qr.svg`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!response.ok) throw new Error(response.statusText);
    return response.text();
  },
  rematch: (code, token) => call("POST", `/api/tables/${code}/rematch`, undefined, token),
  replay: (code, token, start) => call("GET", `/api/tables/${code}/replay?start=${start}`, undefined, token), // one page
  review: (code, token) => call("GET", `/api/tables/${code}/review`, undefined, token),
  replayHint: (code, step, token) => call("GET", `/api/tables/${code}/replay/${step}/hint`, undefined, token),
  tutorial: (game, name) => call("POST", `/api/tutorials/${game}`, { name }),
  lessons: (game) => call("GET", `/api/tutorials/${game}`),
  me: () => call("GET", "/api/me"),
  guest: (name) => call("POST", "/api/me/guest", { name }),
  mySeats: () => call("GET", "/api/me/seats"),
  myGames: () => call("GET", "/api/me/games"),
  mySeat: (code) => call("GET", `/api/tables/${code}/mine`),
  exportData: async () => { // the player's data as a Blob to save; a refusal (past the hourly limit) throws its message
    const response = await fetch("/api/me/export", { headers: { "accept-language": lang } });
    if (!response.ok) throw await refusal(response);
    return response.blob();
  },
  createAccount: (handle, password) => call("POST", "/api/me/account", { handle, password }),
  signIn: (handle, password) => call("POST", "/api/session", { handle, password }),
  signOut: () => call("DELETE", "/api/session"),
  passkeys: () => call("GET", "/api/me/passkeys"),
  passkeyOptions: () => call("POST", "/api/me/passkeys/options"),
  addPasskey: (challenge, credential) => call("POST", "/api/me/passkeys", { challenge, credential }),
  removePasskey: (id) => call("DELETE", `/api/me/passkeys/${encodeURIComponent(id)}`),
  passkeySignInOptions: () => call("POST", "/api/session/passkey/options"),
  signInWithPasskey: (challenge, credential) => call("POST", "/api/session/passkey", { challenge, credential }),
  signOutEverywhere: () => call("DELETE", "/api/sessions"),
  ratings: (code) => call("GET", `/api/tables/${code}/ratings`),
  leaderboard: (game, players) => call("GET", `/api/leaderboards/${game}${players ? `?players=${players}` : ""}`),
  match: (game, players, preset) => call("POST", "/api/match", { game, players, ...(preset ? { preset } : {}) }),
  leaveMatch: (closing = false) => call("DELETE", "/api/match", undefined, undefined, closing),
};

const KEY = (code) => `codecrack:seat:${code}`;

export const seats = {
  get(code) {
    try { return JSON.parse(localStorage.getItem(KEY(code))); } catch { return null; }
  },
  set(code, seat, token) { localStorage.setItem(KEY(code), JSON.stringify({ seat, token, at: Date.now() })); },
  // The tables this browser holds a seat at, the latest first: [{code, seat, token, at}].
  mine() {
    const found = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith("codecrack:seat:")) found.push({ code: key.slice(15), ...seats.get(key.slice(15)) });
    }
    return found.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
  },
  name() { return localStorage.getItem("codecrack:name") || ""; },
  setName(name) { localStorage.setItem("codecrack:name", name); },
};
