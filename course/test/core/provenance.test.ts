/**
 * The shared provenance registry, in-process: what `register` accepts, and
 * what a copy of the module finds already planted where the registry lives.
 * Each planted shape goes on a host object of the test's own (the real
 * `globalThis` keeps its registry for good once installed).
 */
import { describe, expect, test } from "vitest";
import { NonRecoverableToolError } from "../../src/index.ts";
import {
  BRAND,
  createProvenance,
  FATAL_CODE,
  FATAL_NAME,
  installProvenance,
  PROVENANCE,
} from "../../src/provenance.ts";

type Omit =
  | "name"
  | "code"
  | "nonRecoverable"
  | "message"
  | "brand"
  | "enumerable brand"
  | "brand false"
  | "freeze";

/** A native error built by hand with every field a genuine one has, minus `omit`. */
function handBuilt(omit?: Omit, message: unknown = "hand-built"): Error {
  const error = new Error("hand-built");
  const define = (key: PropertyKey, value: unknown, enumerable = false) =>
    Object.defineProperty(error, key, { value, enumerable, writable: false, configurable: false });
  if (omit !== "name") define("name", FATAL_NAME);
  if (omit !== "code") define("code", FATAL_CODE, true);
  if (omit !== "nonRecoverable") define("nonRecoverable", true, true);
  if (omit !== "message") define("message", message);
  else Reflect.deleteProperty(error, "message");
  if (omit === "enumerable brand") define(BRAND, true, true);
  else if (omit === "brand false") define(BRAND, false);
  else if (omit !== "brand") define(BRAND, true);
  if (omit !== "freeze") Object.freeze(error);
  return error;
}

describe("createProvenance: register accepts only a genuine, frozen, branded native error", () => {
  test("a hand-built genuine error is accepted and then registered", () => {
    const provenance = createProvenance();
    const error = handBuilt();
    expect(provenance.isRegistered(error)).toBe(false);
    expect(provenance.register(error)).toBe(true);
    expect(provenance.isRegistered(error)).toBe(true);
  });

  const forgeries: ReadonlyArray<readonly [string, () => unknown]> = [
    ["null", () => null],
    ["a string", () => "NonRecoverableToolError"],
    ["a function", () => () => {}],
    [
      "a field-only object",
      () =>
        Object.freeze({
          name: FATAL_NAME,
          code: FATAL_CODE,
          nonRecoverable: true,
          message: "m",
          [BRAND]: true,
        }),
    ],
    ["a Proxy of a genuine error", () => new Proxy(new NonRecoverableToolError("real"), {})],
    ["an error without the name", () => handBuilt("name")],
    ["an error without the code", () => handBuilt("code")],
    ["an error without nonRecoverable", () => handBuilt("nonRecoverable")],
    ["an error without a message", () => handBuilt("message")],
    ["an error whose message is not a string", () => handBuilt(undefined, 42)],
    ["an error without the brand", () => handBuilt("brand")],
    ["an error whose brand is false", () => handBuilt("brand false")],
    ["an error with an enumerable brand", () => handBuilt("enumerable brand")],
    ["an error that is not frozen", () => handBuilt("freeze")],
    [
      "an error whose name is an accessor",
      () => {
        const error = new Error("m");
        Object.defineProperty(error, "name", { get: () => FATAL_NAME });
        Object.assign(error, { code: FATAL_CODE, nonRecoverable: true });
        Object.defineProperty(error, BRAND, { value: true });
        return Object.freeze(error);
      },
    ],
  ];

  test.each(forgeries)("refuses %s", (_label, forge) => {
    expect(forgeries.length).toBeGreaterThan(0);
    const provenance = createProvenance();
    const forged = forge();
    expect(provenance.register(forged)).toBe(false);
    expect(provenance.isRegistered(forged)).toBe(false);
  });

  test("the registry is frozen and holds exactly version, register and isRegistered", () => {
    const provenance = createProvenance();
    expect(Object.isFrozen(provenance)).toBe(true);
    expect(Object.keys(provenance).sort()).toEqual(["isRegistered", "register", "version"]);
    expect(provenance.version).toBe(1);
  });
});

describe("installProvenance on a host", () => {
  test("installs a locked registry on a bare host, and a second copy adopts it", () => {
    const host = {};
    const installed = installProvenance(host);
    const descriptor = Object.getOwnPropertyDescriptor(host, PROVENANCE);
    expect(descriptor).toEqual({
      value: installed,
      writable: false,
      enumerable: false,
      configurable: false,
    });
    const adopted = installProvenance(host);
    expect(adopted).not.toBe(installed);
    const error = handBuilt();
    expect(adopted.register(error)).toBe(true);
    expect(installed.isRegistered(error)).toBe(true);
    expect(adopted.isRegistered(error)).toBe(true);
    expect(adopted.register({})).toBe(false);
    expect(Object.isFrozen(adopted)).toBe(true);
  });

  test("an adopted registry's answers are booleans, whatever the planted functions return", () => {
    const host = {};
    const answers: unknown[] = [];
    Object.defineProperty(host, PROVENANCE, {
      value: Object.freeze({
        version: 1,
        register: (value: unknown) => {
          answers.push(value);
          return "yes";
        },
        isRegistered: () => 1,
      }),
    });
    const adopted = installProvenance(host);
    expect(adopted.register("x")).toBe(false);
    expect(adopted.isRegistered("x")).toBe(false);
    expect(answers).toEqual(["x"]);
  });

  test("a host that refuses new properties cannot hold a registry", () => {
    expect(() => installProvenance(Object.preventExtensions({}))).toThrow(
      new TypeError("NonRecoverableToolError: cannot install the shared provenance registry"),
    );
  });

  const valid = () => ({ version: 1, register: () => true, isRegistered: () => true });
  const planted: ReadonlyArray<readonly [string, PropertyDescriptor, string]> = [
    [
      "a writable property",
      { value: Object.freeze(valid()), writable: true },
      "it must be a non-writable, non-configurable data property",
    ],
    [
      "a configurable property",
      { value: Object.freeze(valid()), configurable: true },
      "it must be a non-writable, non-configurable data property",
    ],
    [
      "an accessor",
      { get: () => Object.freeze(valid()) },
      "it must be a non-writable, non-configurable data property",
    ],
    ["a primitive", { value: 1 }, "it must be a frozen, non-Proxy object"],
    ["null", { value: null }, "it must be a frozen, non-Proxy object"],
    ["an unfrozen object", { value: valid() }, "it must be a frozen, non-Proxy object"],
    [
      "a Proxy",
      { value: new Proxy(Object.freeze(valid()), {}) },
      "it must be a frozen, non-Proxy object",
    ],
    [
      "a null-prototype object",
      { value: Object.freeze(Object.assign(Object.create(null), valid())) },
      "it must be a plain object",
    ],
    [
      "an extra field",
      { value: Object.freeze({ ...valid(), extra: 1 }) },
      'unexpected field "extra"',
    ],
    [
      "a missing function",
      { value: Object.freeze({ version: 1, register: () => true }) },
      "it must hold version 1 and two functions",
    ],
    [
      "version 2",
      { value: Object.freeze({ ...valid(), version: 2 }) },
      "it must hold version 1 and two functions",
    ],
    [
      "a non-function register",
      { value: Object.freeze({ ...valid(), register: "yes" }) },
      "register and isRegistered must be functions",
    ],
    [
      "a non-function isRegistered",
      { value: Object.freeze({ ...valid(), isRegistered: 1 }) },
      "register and isRegistered must be functions",
    ],
    [
      "a Proxy register",
      { value: Object.freeze({ ...valid(), register: new Proxy(() => true, {}) }) },
      "its functions must not be Proxies",
    ],
    [
      "a Proxy isRegistered",
      { value: Object.freeze({ ...valid(), isRegistered: new Proxy(() => true, {}) }) },
      "its functions must not be Proxies",
    ],
  ];

  test.each(planted)("refuses %s planted there", (_label, descriptor, why) => {
    expect(planted.length).toBeGreaterThan(0);
    const host = {};
    Object.defineProperty(host, PROVENANCE, descriptor);
    expect(() => installProvenance(host)).toThrow(
      new TypeError(`NonRecoverableToolError: refusing the shared provenance registry: ${why}`),
    );
  });

  test("an inherited enumerable key on the planted object is not counted as a field", () => {
    const proto = Object.freeze({ inherited: true });
    const registry = Object.freeze(Object.assign(Object.create(proto), valid()));
    const host = {};
    Object.defineProperty(host, PROVENANCE, { value: registry });
    // Refused for its prototype, before any key is counted.
    expect(() => installProvenance(host)).toThrow("it must be a plain object");
  });
});
