// The whole state in the URL fragment: JSON, compressed with deflate-raw (CompressionStream),
// base64url-encoded, as `#s=…`. Opening such a link restores the state.

const PREFIX = "#s=";

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The fragment (`#s=…`) holding `state`. */
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return PREFIX + toBase64url(await pipe(json, new CompressionStream("deflate-raw")));
}

/** The state in `hash`, or null when it holds none; throws when it is damaged. */
export async function decodeState(hash) {
  if (!hash.startsWith(PREFIX)) return null;
  const bytes = await pipe(fromBase64url(hash.slice(PREFIX.length)), new DecompressionStream("deflate-raw"));
  return JSON.parse(new TextDecoder().decode(bytes));
}
