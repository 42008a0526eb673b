/**
 * Which objects the JSON-like walkers (the call snapshot and the serializer)
 * accept as containers: plain arrays and objects of any realm, and
 * null-prototype objects. Everything else is "exotic" and refused.
 *
 * What may run here: nothing of a container itself (the caller has refused a
 * Proxy container before any of its traps could run), and nothing of its
 * prototype but one `getPrototypeOf` trap when the prototype is a Proxy. The
 * course's plain-object check reads the prototype's own prototype (to
 * recognise another realm's `Object.prototype`) before it decides, and the
 * course observes that read: an abort raised in that trap must make the call
 * reject, by the cancellation check after output inspection. So the read
 * comes first, as there, and the Proxy prototype is refused right after it;
 * no other trap of it runs, and its answer is never used.
 */

import {
  ArrayPrototype,
  exoticKind,
  getPrototypeOf,
  isArray,
  isProxy,
  ObjectPrototype,
} from "./intrinsics.js";
import { ownDataValue } from "./own-fields.js";

/**
 * Whether `proto`, whose own prototype was already read as `protoOfProto`, is
 * some realm's `Object.prototype`: not a Proxy, no prototype of its own, and an
 * own `constructor` function named "Object" pointing back at it. Own data
 * properties only, so no getter runs.
 */
function isObjectPrototypeShape(proto: object, protoOfProto: unknown): boolean {
  if (isProxy(proto) || protoOfProto !== null) return false;
  const ctor = ownDataValue(proto, "constructor");
  if (typeof ctor !== "function" || isProxy(ctor)) return false;
  return ownDataValue(ctor, "prototype") === proto && ownDataValue(ctor, "name") === "Object";
}

/**
 * True when `proto` is some realm's `Object.prototype`. Its own prototype is
 * read first, Proxy or not (see the module comment); a Proxy is then refused.
 */
export function isPlainObjectPrototype(proto: unknown): boolean {
  if (proto === ObjectPrototype) return true;
  if (typeof proto !== "object" || proto === null) return false;
  return isObjectPrototypeShape(proto, getPrototypeOf(proto));
}

/**
 * True when `proto` is some realm's `Array.prototype`: itself an Array exotic
 * object (only the intrinsic is) whose prototype is a plain Object.prototype.
 * Its own prototype is read once, first, as for objects; a Proxy `proto` is
 * then refused, and a Proxy two levels up is refused without being asked.
 */
export function isPlainArrayPrototype(proto: unknown): boolean {
  if (proto === ArrayPrototype) return true;
  if (typeof proto !== "object" || proto === null) return false;
  const protoOfProto = getPrototypeOf(proto);
  if (isProxy(proto) || !isArray(proto)) return false;
  if (protoOfProto === ObjectPrototype) return true;
  if (typeof protoOfProto !== "object" || protoOfProto === null || isProxy(protoOfProto)) {
    return false;
  }
  return isObjectPrototypeShape(protoOfProto, getPrototypeOf(protoOfProto));
}

/** Classification of a non-Proxy object for the JSON-like walkers. */
export type ContainerKind = "array" | "object" | "exotic";

/**
 * Decides whether a non-Proxy object is a plain array, a plain object (any
 * realm, or a null prototype), or something else. The caller must have refused
 * Proxies first: `Array.isArray` and `getPrototypeOf` would consult one. Runs
 * at most one trap, the `getPrototypeOf` of a Proxy prototype; call it once
 * per container.
 */
export function containerKind(value: object): ContainerKind {
  const proto = getPrototypeOf(value);
  if (isArray(value)) return isPlainArrayPrototype(proto) ? "array" : "exotic";
  // The common case, a literal of this realm: no built-in with internal slots
  // is created with this prototype, and one moved onto it has no own keys that
  // could run code, so the slot checks below are skipped. (A typed array or a
  // String object moved onto it is walked as an object of its indices, which
  // `for…in` lists before the walk's first count: only Tool code can make one,
  // and docs/security-model.md says what it costs. Checking its slot here cost
  // every call about 3% more instructions.)
  if (proto === ObjectPrototype) return "object";
  if (proto !== null && !isPlainObjectPrototype(proto)) return "exotic";
  return exoticKind(value) === undefined ? "object" : "exotic";
}

/**
 * Describes why `containerKind` answered "exotic", for an error message. Runs
 * no trap: a non-Proxy value's prototype is read without asking anyone.
 */
export function describeExotic(value: object): string {
  const kind = exoticKind(value);
  if (kind !== undefined) return `${kind} are not supported`;
  const what = isArray(value) ? "arrays" : "objects";
  if (isProxy(getPrototypeOf(value))) return `${what} with a Proxy prototype are not supported`;
  if (isArray(value)) return "arrays with a custom prototype are not supported";
  return "objects with a custom prototype (class instances) are not supported";
}
