/**
 * The Tool outputs the benchmark feeds to the serializers: ordinary JSON-like
 * outputs, and pathological ones that only a bounded serializer survives
 * cheaply. Everything is deterministic (a seeded generator), so runs compare.
 */

/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the
 * same sequence on every run and machine.
 *
 * @example
 * const next = seededRandom(7);
 * next(); // a float in [0, 1), always the same first value for seed 7
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The numbers 0…count-1 in a seeded random order (Fisher–Yates).
 *
 * @example
 * shuffledIndices(4, 1); // e.g. [2, 0, 3, 1], the same on every run
 */
export function shuffledIndices(count: number, seed: number): number[] {
  const next = seededRandom(seed);
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    const kept = order[index] as number;
    order[index] = order[other] as number;
    order[other] = kept;
  }
  return order;
}

const WORDS = [
  "boundary",
  "tool",
  "result",
  "cancel",
  "budget",
  "schema",
  "signal",
  "model",
  "transcript",
  "bounded",
  "frozen",
  "linked",
];

function sentence(next: () => number, words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index += 1) {
    parts.push(WORDS[Math.floor(next() * WORDS.length)] as string);
  }
  return parts.join(" ");
}

/**
 * A weather-report-like object of about 1 KB of JSON (48 values, 4 levels
 * deep): well inside every serializer budget.
 *
 * @example
 * JSON.stringify(ordinaryOneKb()).length; // about 1,000
 */
export function ordinaryOneKb(): object {
  const next = seededRandom(1);
  return {
    location: { city: "Lisbon", country: "PT", latitude: 38.7223, longitude: -9.1393 },
    current: {
      temperature: 21.4,
      humidity: 0.62,
      wind: { speed: 14.2, direction: "NW", gusts: 22.9 },
      conditions: "partly cloudy",
    },
    forecast: Array.from({ length: 6 }, (_, day) => ({
      day: `2026-05-0${day + 1}`,
      high: Math.round(20 + next() * 8),
      low: Math.round(12 + next() * 5),
      summary: sentence(next, 9),
    })),
    source: "scripted fixture for the benchmark",
    stale: false,
    alerts: null,
  };
}

/**
 * A search-result-like object of about 4 KB of JSON (13 results with long
 * snippets; 82 values): large, yet still inside every serializer budget, so
 * nothing is truncated and both sides write the whole value.
 *
 * @example
 * JSON.stringify(ordinaryFourKb()).length; // about 3,900 (the output cap is 4,096)
 */
export function ordinaryFourKb(): object {
  const next = seededRandom(2);
  return {
    query: "bounded serialization of tool output",
    total: 13,
    results: Array.from({ length: 13 }, (_, index) => ({
      rank: index + 1,
      title: sentence(next, 4),
      url: `https://example.org/articles/${index + 1}`,
      snippet: sentence(next, 24),
      score: Math.round(next() * 1000) / 1000,
    })),
  };
}

/**
 * Ordinary argument text of about `characters` characters (never more): a
 * batch of documents a model hands a Tool to store, each with a title, a body
 * of a few sentences, tags, a score, a flag, a nested author and a null; the
 * mix of strings, numbers, literals, small objects and short arrays that real
 * arguments have. Deterministic, like every value here.
 *
 * @example
 * ordinaryArgumentText(100_000).length; // a little under 100,000
 */
export function ordinaryArgumentText(characters: number): string {
  const next = seededRandom(3);
  const documents: object[] = [];
  const head = '{"collection":"articles","overwrite":false,"documents":[';
  let length = head.length + 2;
  for (let id = 1; ; id += 1) {
    const document = {
      id: `doc-${id}`,
      title: sentence(next, 5),
      body: sentence(next, 40),
      tags: [sentence(next, 1), sentence(next, 1), sentence(next, 1)],
      score: Math.round(next() * 10_000) / 100,
      views: Math.floor(next() * 100_000),
      published: next() < 0.5,
      author: { name: sentence(next, 2), team: sentence(next, 1) },
      expires: null,
    };
    const added = JSON.stringify(document).length + (documents.length === 0 ? 0 : 1);
    if (length + added > characters) break;
    documents.push(document);
    length += added;
  }
  return JSON.stringify({ collection: "articles", overwrite: false, documents });
}

/**
 * An array of small records `{ id, name, active }`; 100 of them make an
 * ordinary output, 100,000 a pathological one.
 *
 * @example
 * records(2); // [{ id: 0, name: "record 0", active: true }, { id: 1, name: "record 1", active: false }]
 */
export function records(count: number): object[] {
  return Array.from({ length: count }, (_, id) => ({
    id,
    name: `record ${id}`,
    active: id % 2 === 0,
  }));
}

/**
 * A flat one-byte string of `characters` characters (made from a buffer, so
 * the engine holds it flat, as a string read from a file or socket would be).
 *
 * @example
 * longString(8_000_000).length; // 8000000
 */
export function longString(characters: number): string {
  return Buffer.alloc(characters, "tool output ").toString("latin1");
}

/**
 * A plain object with `keys` own enumerable properties; past about a thousand
 * keys V8 keeps it in dictionary mode, as a parsed or built-up map would be.
 *
 * @example
 * Object.keys(wideObject(3)); // ["key0", "key1", "key2"]
 */
export function wideObject(keys: number): Record<string, number> {
  const value: Record<string, number> = {};
  for (let index = 0; index < keys; index += 1) value[`key${index}`] = index;
  return value;
}

/**
 * An array with `slots` slots and no elements at all (every slot a hole).
 *
 * @example
 * sparseArray(1_000_000).length; // 1000000, and 0 in sparseArray(...) is false
 */
export function sparseArray(slots: number): unknown[] {
  const value: unknown[] = [];
  value.length = slots;
  return value;
}

/**
 * A chain `{ next: { next: … { next: null } } }` nested `depth` levels deep.
 *
 * @example
 * nestedChain(2); // { next: { next: null } }
 */
export function nestedChain(depth: number): object {
  let value: { next: unknown } = { next: null };
  for (let level = 1; level < depth; level += 1) value = { next: value };
  return value;
}

const HEX = "0123456789abcdef";

/**
 * A positive BigInt of exactly `bits` bits (its top bit set, the rest seeded
 * random hex digits), built in linear time from hexadecimal text.
 *
 * @example
 * bigIntOfBits(8); // between 128 and 255
 */
export function bigIntOfBits(bits: number): bigint {
  const next = seededRandom(bits);
  const digits = Math.ceil(bits / 4);
  const hex: string[] = [];
  for (let index = 0; index < digits; index += 1) hex.push(HEX[Math.floor(next() * 16)] as string);
  const value = BigInt(`0x${hex.join("")}`);
  // Keep exactly `bits` bits, then set the top one so the size is exact.
  return BigInt.asUintN(bits, value) | (1n << BigInt(bits - 1));
}
