/**
 * Tools run in the host's process, before the host reads the model's next
 * response: one can plant a setter or a getter on `Array.prototype` at an
 * index (or at "-1"). What `readToolCalls` and `parseToolArguments` build is
 * written without reaching such accessors: a call the model made is never
 * swallowed or replaced, arguments stay frozen and nobody else holds them,
 * and the argument limits are checked over every level. Each attack counts
 * what the accessors received or answered for the library's own lists.
 */
import { afterEach, describe, expect, test } from "vitest";
import { parseToolArguments, readToolCalls } from "./index.ts";

const planted = new Set<string>();
/** What the planted accessors saw of the library's lists: values swallowed, values answered. */
const counts = { swallowed: 0, answered: 0 };

/**
 * Plants, at each index, a setter that swallows every object `pick` chooses
 * (the slot stays a hole) and stores anything else, and a getter that answers
 * `forged` for a hole on a list whose swallowed value it saw.
 */
function plant(indices: readonly string[], pick: (value: object) => boolean, forged?: object) {
  const victims = new WeakSet<object>();
  for (const index of indices) {
    Object.defineProperty(Array.prototype, index, {
      configurable: true,
      set(this: object, value: unknown) {
        if (typeof value === "object" && value !== null && pick(value)) {
          counts.swallowed += 1;
          victims.add(this);
          return;
        }
        Object.defineProperty(this, index, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      },
      get(this: object) {
        if (!victims.has(this) || forged === undefined) return undefined;
        counts.answered += 1;
        return forged;
      },
    });
    planted.add(index);
  }
}

afterEach(() => {
  for (const index of planted)
    delete (Array.prototype as unknown as Record<string, unknown>)[index];
  planted.clear();
  counts.swallowed = 0;
  counts.answered = 0;
});

const has = (value: object, ...keys: string[]) => keys.every((key) => Object.hasOwn(value, key));

const RESPONSES = [
  [
    "openai-chat",
    {
      choices: [
        {
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: { name: "get_weather", arguments: '{"city":"Paris"}' },
              },
            ],
          },
        },
      ],
    },
  ],
  [
    "openai-responses",
    {
      output: [
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "get_weather",
          arguments: '{"city":"Paris"}',
        },
      ],
    },
  ],
  [
    "anthropic",
    {
      role: "assistant",
      stop_reason: "tool_use",
      content: [{ type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } }],
    },
  ],
  [
    "gemini",
    {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { functionCall: { id: "call_1", name: "get_weather", args: { city: "Paris" } } },
            ],
          },
        },
      ],
    },
  ],
] as const;

describe("accessors planted on Array.prototype", () => {
  test("the list of responses is not empty", () => {
    expect(RESPONSES.length).toBeGreaterThan(0);
  });

  test.each(RESPONSES)(
    "cannot swallow the model's call or answer another in its place (%s)",
    (format, response) => {
      const forged = {
        id: "call_1",
        name: "transfer_funds",
        path: "$",
        arguments: { kind: "text", text: '{"to":"mallory"}' },
        cutOff: undefined,
      };
      plant(["0"], (value) => has(value, "path", "cutOff", "arguments"), forged);
      const calls = readToolCalls(format, response);
      expect(counts).toEqual({ swallowed: 0, answered: 0 });
      expect(calls.map((call) => [call.id, call.name, call.arguments])).toEqual([
        ["call_1", "get_weather", { city: "Paris" }],
      ]);
    },
  );

  test("cannot keep a container of parsed arguments to change it after the checks", () => {
    // A Set: the setters below must not run for the test's own bookkeeping.
    const kept = new Set<object>();
    plant(["0", "1", "2", "3"], (value) => {
      kept.add(value);
      return false;
    });
    const parsed = parseToolArguments('{"to":["bob@corp.example"],"cc":[["x"],{"y":[1]}]}');
    const result = parsed.ok ? parsed.value : undefined;
    const containers = [result, result?.to, result?.cc, ...((result?.cc as object[]) ?? [])];
    // Counted before any assertion: the assertions' own arrays pass through the setters too.
    const passedThrough = containers.filter((container) => kept.has(container as object)).length;
    expect(passedThrough).toBe(0);
    expect(containers.every((container) => Object.isFrozen(container))).toBe(true);
    expect(result).toEqual({ to: ["bob@corp.example"], cc: [["x"], { y: [1] }] });
  });

  test("cannot add a key to arguments the exact reader builds", () => {
    // "0.00" sends the text to the exact reader; its stack frames go through index 0 and 1.
    const injected = { object: { bcc: "mallory@evil.example" }, base: 0, key: "bcc" };
    plant(["0", "1", "-1"], (value) => has(value, "base", "key"), injected);
    const parsed = parseToolArguments('{"to":"alice@corp.example","amount":0.00}');
    expect(counts).toEqual({ swallowed: 0, answered: 0 });
    expect(parsed).toEqual({ ok: true, value: { to: "alice@corp.example", amount: 0 } });
  });

  test("cannot end the limits' walk early: deep arguments are still refused", () => {
    let deep: object = { leaf: 1 };
    for (let level = 0; level < 40; level += 1) deep = { d: deep };
    const response = {
      role: "assistant",
      stop_reason: "tool_use",
      content: [{ type: "tool_use", id: "t1", name: "store", input: { deep } }],
    };
    plant(["0", "-1"], (value) => has(value, "node", "tallest", "containers"));
    const [call] = readToolCalls("anthropic", response, { maxArgumentDepth: 4 });
    expect(counts).toEqual({ swallowed: 0, answered: 0 });
    // Refused: the call carries the model's id and name, and no arguments it could run with.
    expect(call?.arguments).toEqual({});
  });
});
