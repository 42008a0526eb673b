/**
 * Generators of hostile Tool output. A generated value is a plain-data recipe
 * (so fast-check can shrink and print it); `buildHostile` turns it into the
 * real object graph, wiring every getter, `toJSON` and Proxy trap to a
 * `Touches` tally. Covers getters that count and throw, `toJSON`, Proxies
 * (live, revoked, callable, from another realm, or used as a prototype), cycles and shared
 * references, sparse and accessor arrays, exotic prototypes (Date, Map, class
 * instances, `node:vm` objects), huge and surrogate-laden strings, `__proto__`
 * and `constructor` keys, enormous BigInts, and deep and wide structures.
 */

import vm from "node:vm";
import fc from "fast-check";
import { awkwardNumber, awkwardString, hostileKey, longString } from "./json-arbitraries.ts";
import { countingHandler, proxyPrototype, type Touches } from "./touches.ts";

/** Exotic objects the serializer must refuse (or, for `vm-object`, accept as plain). */
export type ExoticKind =
  | "date"
  | "map"
  | "set"
  | "regexp"
  | "class"
  | "boxed"
  | "typed"
  | "error"
  | "promise"
  | "custom-array"
  | "inherited-enumerable"
  | "vm-date"
  | "vm-object"
  | "vm-array"
  | "null-proto";

/** A plain-data description of a hostile value. */
export type Recipe =
  | { readonly kind: "primitive"; readonly value: null | boolean | number | string }
  | {
      readonly kind: "special";
      readonly which: "undefined" | "symbol" | "function" | "nan" | "inf";
    }
  | { readonly kind: "bigint"; readonly value: bigint }
  | { readonly kind: "huge-bigint"; readonly bits: number; readonly negative: boolean }
  | { readonly kind: "huge-string"; readonly seed: string; readonly times: number }
  | { readonly kind: "object"; readonly entries: ReadonlyArray<readonly [string, Recipe]> }
  | { readonly kind: "array"; readonly items: readonly Recipe[] }
  | {
      readonly kind: "sparse";
      readonly length: number;
      readonly filled: ReadonlyArray<readonly [number, Recipe]>;
    }
  | {
      readonly kind: "getter";
      readonly key: string;
      readonly throws: boolean;
      readonly inArray: boolean;
    }
  | { readonly kind: "to-json"; readonly entries: ReadonlyArray<readonly [string, Recipe]> }
  | {
      readonly kind: "proxy";
      readonly variant: "live" | "revoked" | "callable" | "other-realm" | "array";
      readonly target: Recipe;
    }
  | {
      readonly kind: "proxy-prototype";
      readonly throws: boolean;
      readonly entries: ReadonlyArray<readonly [string, Recipe]>;
    }
  | { readonly kind: "exotic"; readonly which: ExoticKind }
  | { readonly kind: "ancestor"; readonly up: number }
  | { readonly kind: "shared"; readonly inner: Recipe; readonly copies: number }
  | {
      readonly kind: "deep";
      readonly depth: number;
      readonly arrays: boolean;
      readonly leaf: Recipe;
    }
  | { readonly kind: "wide"; readonly width: number; readonly arrays: boolean };

const realm = vm.createContext({});
const OtherProxy = vm.runInContext("Proxy", realm) as ProxyConstructor;

class Widget {
  visible = 1;
}

function exotic(which: ExoticKind, touches: Touches): object {
  switch (which) {
    case "date":
      return new Date(0);
    case "map":
      return new Map([["k", 1]]);
    case "set":
      return new Set([1]);
    case "regexp":
      return /x/g;
    case "class":
      return new Widget();
    case "boxed":
      return Object("boxed") as object;
    case "typed":
      return new Uint8Array(4);
    case "error":
      return new Error("output error");
    case "promise": {
      const promise = Promise.reject(new Error("never observed by the serializer"));
      promise.catch(() => {});
      return promise;
    }
    case "custom-array": {
      const list = [1, 2];
      Object.setPrototypeOf(list, Object.create(Array.prototype));
      return list;
    }
    case "inherited-enumerable": {
      const proto = {};
      Object.defineProperty(proto, "leak", {
        enumerable: true,
        get() {
          touches.getters += 1;
          throw new Error("inherited getter ran");
        },
      });
      return Object.create(proto) as object;
    }
    case "vm-date":
      return vm.runInContext("new Date(0)", realm) as object;
    case "vm-object":
      return vm.runInContext('({ from: "another realm", list: [1, 2] })', realm) as object;
    case "vm-array":
      return vm.runInContext("[1, [2], {}]", realm) as object;
    case "null-proto": {
      const bare: object = Object.create(null);
      define(bare, "constructor", "not a function");
      return bare;
    }
  }
}

function define(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Builds the object graph a recipe describes. `ancestors` are the containers
 * on the path from the root, so an `ancestor` recipe can close a cycle.
 */
export function buildHostile(recipe: Recipe, touches: Touches, ancestors: object[] = []): unknown {
  switch (recipe.kind) {
    case "primitive":
      return recipe.value;
    case "special":
      if (recipe.which === "undefined") return undefined;
      if (recipe.which === "symbol") return Symbol("output");
      if (recipe.which === "nan") return Number.NaN;
      if (recipe.which === "inf") return Number.NEGATIVE_INFINITY;
      return () => "never called";
    case "bigint":
      return recipe.value;
    case "huge-bigint": {
      const magnitude = 1n << BigInt(recipe.bits);
      return recipe.negative ? -magnitude : magnitude;
    }
    case "huge-string":
      return recipe.seed.repeat(recipe.times);
    case "object": {
      const target: object = {};
      for (const [key, value] of recipe.entries) {
        define(target, key, buildHostile(value, touches, [...ancestors, target]));
      }
      return target;
    }
    case "array": {
      const list: unknown[] = [];
      for (const item of recipe.items) list.push(buildHostile(item, touches, [...ancestors, list]));
      return list;
    }
    case "sparse": {
      const list: unknown[] = [];
      if (recipe.length > 0) {
        // A far write then a delete: a holey array in dictionary mode, cheap at any length.
        list[recipe.length - 1] = 0;
        delete list[recipe.length - 1];
      }
      for (const [index, item] of recipe.filled) {
        if (index < recipe.length) list[index] = buildHostile(item, touches, [...ancestors, list]);
      }
      return list;
    }
    case "getter": {
      const target: object = recipe.inArray ? [0, 1] : { before: 1 };
      Object.defineProperty(target, recipe.inArray ? 1 : recipe.key, {
        enumerable: true,
        get() {
          touches.getters += 1;
          if (recipe.throws) throw new Error("getter ran");
          return "getter ran";
        },
      });
      return target;
    }
    case "to-json": {
      const target: object = {};
      for (const [key, value] of recipe.entries) {
        define(target, key, buildHostile(value, touches, [...ancestors, target]));
      }
      define(target, "toJSON", () => {
        touches.toJSON += 1;
        return "toJSON ran";
      });
      return target;
    }
    case "proxy": {
      const built = buildHostile(recipe.target, touches, ancestors);
      const target =
        recipe.variant === "array"
          ? [built]
          : recipe.variant === "callable"
            ? () => built
            : typeof built === "object" && built !== null
              ? built
              : { inner: built };
      const handler = countingHandler(touches);
      if (recipe.variant === "other-realm") return new OtherProxy(target, handler);
      if (recipe.variant === "revoked") {
        const { proxy, revoke } = Proxy.revocable(target, handler);
        revoke();
        return proxy;
      }
      return new Proxy(target, handler);
    }
    case "proxy-prototype": {
      const target: object = Object.create(proxyPrototype(touches, recipe.throws));
      for (const [key, value] of recipe.entries) {
        define(target, key, buildHostile(value, touches, [...ancestors, target]));
      }
      return target;
    }
    case "exotic":
      return exotic(recipe.which, touches);
    case "ancestor":
      return ancestors.length === 0
        ? null
        : ancestors[Math.max(0, ancestors.length - 1 - recipe.up)];
    case "shared": {
      const inner = buildHostile(recipe.inner, touches, ancestors);
      return Array.from({ length: recipe.copies }, () => inner);
    }
    case "deep": {
      let value = buildHostile(recipe.leaf, touches, ancestors);
      for (let level = 0; level < recipe.depth; level += 1) {
        value = recipe.arrays ? [value] : { next: value };
      }
      return value;
    }
    case "wide": {
      if (recipe.arrays) return Array.from({ length: recipe.width }, (_, index) => index);
      const target: { [key: string]: number } = {};
      for (let index = 0; index < recipe.width; index += 1) target[`key${index}`] = index;
      return target;
    }
  }
}

const exoticKinds: readonly ExoticKind[] = [
  "date",
  "map",
  "set",
  "regexp",
  "class",
  "boxed",
  "typed",
  "error",
  "promise",
  "custom-array",
  "inherited-enumerable",
  "vm-date",
  "vm-object",
  "vm-array",
  "null-proto",
];

const leaf: fc.Arbitrary<Recipe> = fc.oneof(
  fc.constantFrom(null, true, false).map((value): Recipe => ({ kind: "primitive", value })),
  awkwardNumber.map((value): Recipe => ({ kind: "primitive", value })),
  awkwardString.map((value): Recipe => ({ kind: "primitive", value })),
  longString.map((value): Recipe => ({ kind: "primitive", value })),
  fc
    .constantFrom("undefined", "symbol", "function", "nan", "inf")
    .map((which): Recipe => ({ kind: "special", which })),
  fc.bigInt().map((value): Recipe => ({ kind: "bigint", value })),
  fc
    .record({
      bits: fc.oneof(fc.integer({ min: 4090, max: 4100 }), fc.integer({ min: 0, max: 2_000_000 })),
      negative: fc.boolean(),
    })
    .map((shape): Recipe => ({ kind: "huge-bigint", ...shape })),
  fc
    .record({
      seed: fc.string({
        unit: fc.constantFrom("a", "\ud83d\ude00", "\ud800", '"', "\u0001"),
        minLength: 1,
        maxLength: 3,
      }),
      times: fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: 1000, max: 5000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 400_000 }) },
      ),
    })
    .map((shape): Recipe => ({ kind: "huge-string", ...shape })),
  fc.constantFrom(...exoticKinds).map((which): Recipe => ({ kind: "exotic", which })),
  fc
    .record({ key: hostileKey, throws: fc.boolean(), inArray: fc.boolean() })
    .map((shape): Recipe => ({ kind: "getter", ...shape })),
  fc
    .record({ width: fc.integer({ min: 100, max: 3000 }), arrays: fc.boolean() })
    .map((shape): Recipe => ({ kind: "wide", ...shape })),
  fc.integer({ min: 0, max: 4 }).map((up): Recipe => ({ kind: "ancestor", up })),
);

const { recipe } = fc.letrec<{ recipe: Recipe }>((tie) => ({
  recipe: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 6, arbitrary: leaf },
    {
      weight: 3,
      arbitrary: fc
        .uniqueArray(fc.tuple(hostileKey, tie("recipe")), {
          maxLength: 6,
          selector: ([key]) => key,
        })
        .map((entries): Recipe => ({ kind: "object", entries })),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(tie("recipe"), { maxLength: 6 })
        .map((items): Recipe => ({ kind: "array", items })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          length: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(1_000_000)),
          filled: fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), tie("recipe")), {
            maxLength: 3,
          }),
        })
        .map((shape): Recipe => ({ kind: "sparse", ...shape })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uniqueArray(fc.tuple(hostileKey, tie("recipe")), {
          maxLength: 3,
          selector: ([key]) => key,
        })
        .map((entries): Recipe => ({ kind: "to-json", entries })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          variant: fc.constantFrom("live", "revoked", "callable", "other-realm", "array"),
          target: tie("recipe"),
        })
        .map((shape): Recipe => ({ kind: "proxy", ...shape })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          throws: fc.boolean(),
          entries: fc.uniqueArray(fc.tuple(hostileKey, tie("recipe")), {
            maxLength: 3,
            selector: ([key]) => key,
          }),
        })
        .map((shape): Recipe => ({ kind: "proxy-prototype", ...shape })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ inner: tie("recipe"), copies: fc.integer({ min: 2, max: 40 }) })
        .map((shape): Recipe => ({ kind: "shared", ...shape })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          // A 100,000-deep chain is rare: building one costs more than serializing it.
          depth: fc.oneof(
            { weight: 30, arbitrary: fc.integer({ min: 28, max: 40 }) },
            { weight: 1, arbitrary: fc.constant(100_000) },
          ),
          arrays: fc.boolean(),
          leaf: tie("recipe"),
        })
        .map((shape): Recipe => ({ kind: "deep", ...shape })),
    },
  ),
}));

/** Recipes of hostile Tool output; build them with `buildHostile`. */
export const hostileRecipe: fc.Arbitrary<Recipe> = recipe;
