/**
 * Which objects the walkers accept as containers, decided from the prototype
 * chain without running a getter, and with at most one trap: the
 * `getPrototypeOf` of a Proxy prototype, read once before it is refused.
 */
import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { containerKind, describeExotic } from "../../src/containers.ts";
import { serializeToolOutput } from "../../src/index.ts";

/** A null-prototype object shaped like some realm's Object.prototype, with `constructor` as given. */
function fakeObjectPrototype(ctor: PropertyDescriptor | undefined): object {
  const proto = Object.create(null) as object;
  if (ctor !== undefined) Object.defineProperty(proto, "constructor", ctor);
  return proto;
}

/** A function whose own `prototype` and `name` are as given (data properties). */
function fakeConstructor(prototype: unknown, name: unknown): () => void {
  const ctor = () => {};
  Object.defineProperty(ctor, "prototype", { value: prototype });
  Object.defineProperty(ctor, "name", { value: name });
  return ctor;
}

describe("objects: the prototype decides", () => {
  const objectCases: ReadonlyArray<readonly [string, () => object, "object" | "exotic"]> = [
    ["a literal", () => ({ a: 1 }), "object"],
    ["a null-prototype object", () => Object.create(null), "object"],
    ["an object from another realm", () => vm.runInNewContext("({ a: 1 })"), "object"],
    [
      "a null-prototype object from another realm",
      () => vm.runInNewContext("Object.create(null)"),
      "object",
    ],
    ["a class instance", () => new (class Widget {})(), "exotic"],
    ["Object.create of a literal", () => Object.create({ inherited: 1 }), "exotic"],
    [
      "a prototype with a null prototype but no constructor",
      () => Object.create(fakeObjectPrototype(undefined)),
      "exotic",
    ],
    [
      "a prototype whose constructor is an accessor",
      () => Object.create(fakeObjectPrototype({ get: () => fakeConstructor(null, "Object") })),
      "exotic",
    ],
    [
      "a prototype whose constructor is not a function",
      () => Object.create(fakeObjectPrototype({ value: "Object" })),
      "exotic",
    ],
    [
      "a prototype whose constructor is a Proxy of a function",
      () => {
        const proto = fakeObjectPrototype(undefined);
        const ctor = new Proxy(fakeConstructor(proto, "Object"), {});
        Object.defineProperty(proto, "constructor", { value: ctor });
        return Object.create(proto);
      },
      "exotic",
    ],
    [
      "a prototype whose constructor points elsewhere",
      () => Object.create(fakeObjectPrototype({ value: fakeConstructor({}, "Object") })),
      "exotic",
    ],
    [
      "a prototype whose constructor is not named Object",
      () => {
        const proto = fakeObjectPrototype(undefined);
        Object.defineProperty(proto, "constructor", { value: fakeConstructor(proto, "Thing") });
        return Object.create(proto);
      },
      "exotic",
    ],
    [
      "a structural Object.prototype (a function named Object pointing back)",
      () => {
        const proto = fakeObjectPrototype(undefined);
        Object.defineProperty(proto, "constructor", { value: fakeConstructor(proto, "Object") });
        return Object.create(proto);
      },
      "object",
    ],
    ["a Map moved onto a null prototype", () => Object.setPrototypeOf(new Map(), null), "exotic"],
    [
      "a Date moved onto another realm's Object.prototype",
      () => Object.setPrototypeOf(new Date(0), vm.runInNewContext("Object.prototype")),
      "exotic",
    ],
    // The fast path for this realm's Object.prototype: a built-in moved there has no own
    // keys that could run code, and is written by its own keys, as a literal would be.
    [
      "a Date moved onto this realm's Object.prototype",
      () => Object.setPrototypeOf(new Date(0), Object.prototype),
      "object",
    ],
  ];

  test.each(objectCases)("%s is %s", (_label, make, kind) => {
    expect(objectCases.length).toBeGreaterThan(0);
    expect(containerKind(make())).toBe(kind);
  });

  test("no getter on the prototype chain runs while deciding", () => {
    let reads = 0;
    const proto = fakeObjectPrototype({
      get: () => {
        reads += 1;
        return fakeConstructor(null, "Object");
      },
    });
    const ctor = fakeConstructor(proto, "Object");
    Object.defineProperty(ctor, "name", {
      get: () => {
        reads += 1;
        return "Object";
      },
    });
    expect(containerKind(Object.create(proto))).toBe("exotic");
    const named = fakeObjectPrototype(undefined);
    Object.defineProperty(named, "constructor", { value: ctor });
    expect(containerKind(Object.create(named))).toBe("exotic");
    expect(reads).toBe(0);
  });
});

describe("arrays: the prototype and its prototype decide", () => {
  const arrayCases: ReadonlyArray<readonly [string, () => object, "array" | "exotic"]> = [
    ["a literal", () => [1], "array"],
    ["an array from another realm", () => vm.runInNewContext("[1, 2]"), "array"],
    ["an Array subclass instance", () => new (class List extends Array {})(), "exotic"],
    ["an array on a plain object prototype", () => Object.setPrototypeOf([], {}), "exotic"],
    ["an array on a null prototype", () => Object.setPrototypeOf([], null), "exotic"],
    [
      "an array on an array whose prototype is null",
      () => Object.setPrototypeOf([], Object.setPrototypeOf([], null)),
      "exotic",
    ],
    [
      "an array on an array whose prototype is Object.prototype (structurally Array.prototype)",
      () => Object.setPrototypeOf([], Object.setPrototypeOf([], Object.prototype)),
      "array",
    ],
    [
      "an array on an array whose prototype is another realm's Object.prototype",
      () =>
        Object.setPrototypeOf(
          [],
          Object.setPrototypeOf([], vm.runInNewContext("Object.prototype")),
        ),
      "array",
    ],
    [
      "an array on an array whose prototype is a class prototype",
      () => Object.setPrototypeOf([], Object.setPrototypeOf([], { custom: true })),
      "exotic",
    ],
  ];

  test.each(arrayCases)("%s is %s", (_label, make, kind) => {
    expect(arrayCases.length).toBeGreaterThan(0);
    expect(containerKind(make())).toBe(kind);
  });

  test("an array on an array on a Proxy: refused without asking the Proxy anything", () => {
    const traps: string[] = [];
    const grand = new Proxy(Object.prototype, {
      getPrototypeOf: (target) => {
        traps.push("getPrototypeOf");
        return Reflect.getPrototypeOf(target);
      },
    });
    const value = Object.setPrototypeOf([], Object.setPrototypeOf([], grand));
    expect(containerKind(value)).toBe("exotic");
    expect(traps).toEqual([]);
  });
});

describe("a Proxy prototype: its getPrototypeOf trap runs once, then it is refused", () => {
  test.each([
    ["an object", () => ({}), "objects with a Proxy prototype are not supported"],
    ["an array", () => [] as unknown[], "arrays with a Proxy prototype are not supported"],
  ])("%s on a Proxy prototype", (_label, make, message) => {
    let traps = 0;
    const value = make();
    const target = Array.isArray(value) ? Array.prototype : Object.prototype;
    Object.setPrototypeOf(
      value,
      new Proxy(target, {
        getPrototypeOf: (inner) => {
          traps += 1;
          return Reflect.getPrototypeOf(inner);
        },
      }),
    );
    expect(containerKind(value)).toBe("exotic");
    expect(traps).toBe(1);
    expect(describeExotic(value)).toBe(message);
    expect(traps).toBe(1);
    expect(serializeToolOutput({ value })).toEqual({ ok: false, message: `$.value: ${message}` });
    expect(traps).toBe(2);
  });

  test("a throwing trap's error leaves the serializer as it is", () => {
    const thrown = new Error("trap threw");
    const value = Object.create(
      new Proxy(Object.prototype, {
        getPrototypeOf: () => {
          throw thrown;
        },
      }),
    );
    expect(() => serializeToolOutput([value])).toThrow(thrown);
  });
});

describe("describeExotic names what was refused", () => {
  test.each([
    ["a Map", () => new Map(), "Map objects are not supported"],
    [
      "a class instance",
      () => new (class Widget {})(),
      "objects with a custom prototype (class instances) are not supported",
    ],
    [
      "an Array subclass",
      () => new (class List extends Array {})(),
      "arrays with a custom prototype are not supported",
    ],
    [
      "a null-prototype Set",
      () => Object.setPrototypeOf(new Set(), null),
      "Set objects are not supported",
    ],
  ])("%s", (_label, make, message) => {
    expect(describeExotic(make())).toBe(message);
  });
});
