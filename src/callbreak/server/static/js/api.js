// The JSON API and the seat tokens this browser holds.

const TOKEN_KEY = (code) => `callbreak.seat.${code}`;
const NAME_KEY = "callbreak.name";
const TABLES_KEY = "callbreak.tables";

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    let detail = data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    throw new Error(detail || `${response.status} ${response.statusText}`);
  }
  return data;
}

export function seatToken(code) {
  return localStorage.getItem(TOKEN_KEY(code));
}

export function saveSeat(code, token) {
  localStorage.setItem(TOKEN_KEY(code), token);
  const tables = myTables().filter((t) => t.code !== code);
  tables.unshift({ code, at: Date.now() });
  localStorage.setItem(TABLES_KEY, JSON.stringify(tables.slice(0, 20)));
}

export function forgetSeat(code) {
  localStorage.removeItem(TOKEN_KEY(code));
}

export function myTables() {
  try {
    return JSON.parse(localStorage.getItem(TABLES_KEY) || "[]");
  } catch {
    return [];
  }
}

export function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function saveName(name) {
  localStorage.setItem(NAME_KEY, name);
}
