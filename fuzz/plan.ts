/**
 * The fuzz plan: how many cases each property gets, split into chunks that
 * each have their own seed (`seed + chunk index`), so a long run can be
 * resumed from any chunk and a failing chunk replayed on its own.
 */

/** What the runner asked for, passed to the Vitest worker as JSON in an environment variable. */
export interface FuzzRequest {
  readonly seed: number;
  readonly runs: number;
  readonly chunk: number;
  readonly fromChunk: number;
  readonly properties: readonly string[];
  readonly path?: string;
}

/** One chunk of the plan. */
export interface FuzzChunk {
  readonly index: number;
  readonly property: string;
  readonly seed: number;
  readonly runs: number;
}

/** The environment variable that carries the request. */
export const FUZZ_REQUEST_VARIABLE = "TOOLBOUND_FUZZ_REQUEST";

/**
 * Splits `request.runs` cases between the properties by weight (each gets at
 * least one chunk's worth when any runs are asked for), then into chunks.
 *
 * @example
 * planChunks({ seed: 7, runs: 30, chunk: 10, fromChunk: 0, properties: ["a"] }, () => 1);
 * // [{ index: 0, property: "a", seed: 7, runs: 10 }, { index: 1, … seed: 8 }, { index: 2, … seed: 9 }]
 */
export function planChunks(
  request: FuzzRequest,
  weightOf: (property: string) => number,
): FuzzChunk[] {
  const totalWeight = request.properties.reduce((sum, name) => sum + weightOf(name), 0);
  const chunks: FuzzChunk[] = [];
  let assigned = 0;
  request.properties.forEach((property, position) => {
    const last = position === request.properties.length - 1;
    const share = last
      ? request.runs - assigned
      : Math.round((request.runs * weightOf(property)) / totalWeight);
    assigned += share;
    for (let done = 0; done < share; done += request.chunk) {
      const index = chunks.length;
      chunks.push({
        index,
        property,
        seed: request.seed + index,
        runs: Math.min(request.chunk, share - done),
      });
    }
  });
  return chunks;
}

/** Reads and checks the request the runner left in the environment. */
export function readRequest(environment: NodeJS.ProcessEnv): FuzzRequest {
  const text = environment[FUZZ_REQUEST_VARIABLE];
  if (text === undefined) {
    throw new Error(`run the fuzz through "npm run fuzz" (${FUZZ_REQUEST_VARIABLE} is not set)`);
  }
  const request = JSON.parse(text) as FuzzRequest;
  for (const key of ["seed", "runs", "chunk", "fromChunk"] as const) {
    if (!Number.isSafeInteger(request[key]) || request[key] < 0) {
      throw new Error(`fuzz request field ${key} must be a non-negative integer`);
    }
  }
  if (request.chunk === 0) throw new Error("fuzz request field chunk must be positive");
  return request;
}
