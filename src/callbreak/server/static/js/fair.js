// Fair deals, checked in this browser: the player's own contribution, the commitment it was
// shown before the first card, and the hashes of the reveal (docs/fair-tables.md).
// SHA-256 is written out here because the browser's own (crypto.subtle) exists only on https
// and localhost pages, and a table on a home network is served over plain http.

const CONTRIBUTION_KEY = (code) => `callbreak.contribution.${code}`;
const COMMITMENT_KEY = (code) => `callbreak.commitment.${code}`;

// The first 32 bits of the fractional parts of the square roots (H) and cube roots (K) of the
// first primes, as the SHA-256 standard defines its constants.
const PRIMES = [];
for (let n = 2; PRIMES.length < 64; n += 1) {
  if (PRIMES.every((p) => n % p !== 0)) PRIMES.push(n);
}
const frac32 = (x) => Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;
const H0 = PRIMES.slice(0, 8).map((p) => frac32(Math.sqrt(p)));
const K = PRIMES.map((p) => frac32(Math.cbrt(p)));

/** SHA-256 of a byte array, as a Uint8Array of 32 bytes. */
export function sha256(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 2 ** 29));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i += 1) w[i] = view.getUint32(block + 4 * i);
    for (let i = 16; i < 64; i += 1) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i += 1) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => { h[i] = (h[i] + x) >>> 0; });
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((x, i) => outView.setUint32(4 * i, x));
  return out;
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(text) {
  if (typeof text !== "string" || text.length % 2 || /[^0-9a-f]/i.test(text)) throw new Error(`not hex: ${text}`);
  return Uint8Array.from(text.match(/../g) || [], (pair) => parseInt(pair, 16));
}

const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
};

/** SHA-256(seed ‖ salt) in hex: what the table committed to. */
export function commitmentOf(seedHex, saltHex) {
  return toHex(sha256(concat(fromHex(seedHex), fromHex(saltHex))));
}

/** The match seed (a decimal string) that follows from the seed and the contributions. */
export function matchSeedOf(seedHex, contributions) {
  const label = new TextEncoder().encode("callbreak-match-seed/1");
  const parts = contributions.map((c) => (c === null ? new Uint8Array(32) : fromHex(c)));
  const digest = sha256(concat(label, fromHex(seedHex), ...parts));
  return (BigInt(`0x${toHex(digest.slice(0, 8))}`) >> 1n).toString();
}

/** This browser's contribution for a table: 32 random bytes, made once and kept. */
export function contributionFor(code) {
  let mine = localStorage.getItem(CONTRIBUTION_KEY(code));
  if (!mine) {
    mine = toHex(crypto.getRandomValues(new Uint8Array(32)));
    localStorage.setItem(CONTRIBUTION_KEY(code), mine);
  }
  return mine;
}

export function savedContribution(code) {
  return localStorage.getItem(CONTRIBUTION_KEY(code));
}

/** Keep the first commitment this browser was shown for a table (before any card). */
export function noteCommitment(code, fair) {
  if (!fair || fair.revealed || localStorage.getItem(COMMITMENT_KEY(code))) return;
  localStorage.setItem(COMMITMENT_KEY(code), fair.commitment);
}

/**
 * The checks this browser can make itself on a revealed table, each
 * ``{ name, ok, text }``: the commitment it was shown, the hash of seed and salt, its own
 * contribution, the match seed.  (That every deal follows from the match seed needs the
 * game's shuffle: the server's verifier and ``callbreak replay --verify-seed`` do that.)
 */
export function localChecks(code, fair, seat) {
  const checks = [];
  const seen = localStorage.getItem(COMMITMENT_KEY(code));
  if (seen) {
    checks.push({ name: "seen", ok: seen === fair.commitment,
      text: seen === fair.commitment ? "the commitment is the one this browser was shown before the first card"
        : `the commitment shown before the first card was ${seen.slice(0, 16)}…, not ${fair.commitment.slice(0, 16)}…` });
  }
  const hashed = commitmentOf(fair.seed, fair.salt);
  checks.push({ name: "commitment", ok: hashed === fair.commitment,
    text: hashed === fair.commitment ? "SHA-256 of the revealed seed and salt is the commitment"
      : `SHA-256 of the revealed seed and salt is ${hashed.slice(0, 16)}…, not the commitment` });
  const mine = savedContribution(code);
  if (mine && seat !== null && seat !== undefined) {
    const ok = fair.contributions[seat] === mine;
    checks.push({ name: "contribution", ok,
      text: ok ? "your contribution is in the match seed" : "your contribution is not the one revealed for your seat" });
  }
  const seed = matchSeedOf(fair.seed, fair.contributions);
  checks.push({ name: "match-seed", ok: seed === fair.match_seed,
    text: seed === fair.match_seed ? `the match seed ${seed} follows from the seed and ${fair.contributions.filter((c) => c !== null).length} contribution(s)`
      : `the seed and contributions give match seed ${seed}, not ${fair.match_seed}` });
  return checks;
}
