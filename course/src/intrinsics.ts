/**
 * Built-ins the Tool boundary relies on, captured once when the module loads.
 *
 * Why: a Tool, a validator or any code in the same process can patch globals
 * (`Promise.prototype.then`, `Reflect.apply`, `Map.prototype.set`) or override
 * instance methods (`signal.addEventListener`) after we load. Every defence in
 * this folder calls the copies below, never the live globals, with one
 * exception the course fixes: the serializer's key walk calls the global
 * `Object.hasOwn` as it is at call time (see `output-walk.ts`).
 */

type AnyFunction = (...args: never[]) => unknown;

const ReflectApply = Reflect.apply;
const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const ReflectGetPrototypeOf = Reflect.getPrototypeOf;
const ReflectDefineProperty = Reflect.defineProperty;
const ReflectGet = Reflect.get;

const FunctionPrototypeCall = Function.prototype.call;
const FunctionPrototypeBind = Function.prototype.bind;

/**
 * Turns `proto.method` into `method(receiver, ...args)`: `call` bound to the
 * captured original (fast in V8, and immune to later patches of `call`).
 */
function uncurryThis<This, Args extends unknown[], Result>(
  method: (this: This, ...args: Args) => Result,
): (receiver: This, ...args: Args) => Result {
  return ReflectApply(FunctionPrototypeBind, FunctionPrototypeCall, [method]) as (
    receiver: This,
    ...args: Args
  ) => Result;
}

function getterOf<This, Value>(proto: object, key: PropertyKey): (receiver: This) => Value {
  const descriptor = ReflectGetOwnPropertyDescriptor(proto, key);
  const get = descriptor?.get;
  if (typeof get !== "function") {
    throw new TypeError(`toolbound: the runtime lacks the ${String(key)} getter it needs`);
  }
  return uncurryThis(get as (this: This) => Value);
}

export const apply = ReflectApply;
export const getOwnPropertyDescriptor = ReflectGetOwnPropertyDescriptor;
export const getPrototypeOf = ReflectGetPrototypeOf;
export const defineProperty = ReflectDefineProperty;

/**
 * Adds an own data slot to a fresh array by definition, not assignment:
 * assigning a new index consults Array.prototype, where an index setter
 * planted by a Tool would receive the value (and could swallow it).
 *
 * @example
 * const names: string[] = [];
 * addSlot(names, 0, "echo");
 */
export function addSlot<T>(list: T[], index: number, value: T): void {
  ReflectDefineProperty(list, index, {
    __proto__: null,
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  } as PropertyDescriptor);
}
export const reflectGet = ReflectGet;
const freeze = Object.freeze;

export { freeze };
export const isFrozen = Object.isFrozen;
export const isArray = Array.isArray;
export const hasOwn: (target: object, key: PropertyKey) => boolean = uncurryThis(
  Object.prototype.hasOwnProperty as (this: object, key: PropertyKey) => boolean,
);
export const ObjectPrototype: object = Object.prototype;
export const ArrayPrototype: object = Array.prototype;
export const NativeArray = Array;
export const NativeTypeError = TypeError;
export const NativeBigInt = BigInt;
export const NativeError = Error;

export const NativePromise = Promise;
export const promiseThen = uncurryThis(Promise.prototype.then) as <T>(
  promise: Promise<T>,
  onFulfilled: (value: T) => void,
  onRejected: (reason: unknown) => void,
) => Promise<void>;

export const NativeMap = Map;
export const mapGet = uncurryThis(Map.prototype.get) as <K, V>(
  map: Map<K, V>,
  key: K,
) => V | undefined;
export const mapSet = uncurryThis(Map.prototype.set) as <K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
) => Map<K, V>;
export const mapHas = uncurryThis(Map.prototype.has) as <K, V>(map: Map<K, V>, key: K) => boolean;
export const mapValues = uncurryThis(Map.prototype.values) as <K, V>(
  map: Map<K, V>,
) => IterableIterator<V>;
export const mapSize = getterOf<Map<unknown, unknown>, number>(Map.prototype, "size");
export const mapIteratorNext = uncurryThis(
  (ReflectGetPrototypeOf(new Map().keys()) as { next: AnyFunction }).next,
) as <T>(iterator: IterableIterator<T>) => IteratorResult<T>;

export const NativeSet = Set;
export const setAdd = uncurryThis(Set.prototype.add) as <T>(set: Set<T>, value: T) => Set<T>;
export const setHas = uncurryThis(Set.prototype.has) as <T>(set: Set<T>, value: T) => boolean;
export const setDelete = uncurryThis(Set.prototype.delete) as <T>(set: Set<T>, value: T) => boolean;
export const setClear = uncurryThis(Set.prototype.clear) as <T>(set: Set<T>) => void;
export const setSize = getterOf<Set<unknown>, number>(Set.prototype, "size");
export const setValues = uncurryThis(Set.prototype.values) as <T>(
  set: Set<T>,
) => IterableIterator<T>;
export const setIteratorNext = uncurryThis(
  (ReflectGetPrototypeOf(new Set().values()) as { next: AnyFunction }).next,
) as <T>(iterator: IterableIterator<T>) => IteratorResult<T>;

export const NativeWeakMap = WeakMap;
export const weakMapGet = uncurryThis(WeakMap.prototype.get) as <K extends WeakKey, V>(
  map: WeakMap<K, V>,
  key: K,
) => V | undefined;
export const weakMapSet = uncurryThis(WeakMap.prototype.set) as <K extends WeakKey, V>(
  map: WeakMap<K, V>,
  key: K,
  value: V,
) => WeakMap<K, V>;
export const weakMapDelete = uncurryThis(WeakMap.prototype.delete) as <K extends WeakKey, V>(
  map: WeakMap<K, V>,
  key: K,
) => boolean;

export const NativeWeakRef = WeakRef;
export const weakRefDeref = uncurryThis(WeakRef.prototype.deref) as <T extends WeakKey>(
  ref: WeakRef<T>,
) => T | undefined;

export const NativeWeakSet = WeakSet;
export const weakSetAdd = uncurryThis(WeakSet.prototype.add) as <T extends WeakKey>(
  set: WeakSet<T>,
  value: T,
) => WeakSet<T>;
export const weakSetHas = uncurryThis(WeakSet.prototype.has) as <T extends WeakKey>(
  set: WeakSet<T>,
  value: unknown,
) => boolean;

export const NativeUint8Array = Uint8Array;
const TypedArrayPrototype = ReflectGetPrototypeOf(Uint8Array.prototype) as object;
/** A typed array's length, read through the intrinsic getter (a subclass's own `length` never runs). */
export const typedArrayLength = getterOf<Uint8Array, number>(TypedArrayPrototype, "length");
/** Copies a typed array into another by internal slots: no species lookup, no getter, no trap. */
export const typedArraySet = uncurryThis(
  (TypedArrayPrototype as { set: (source: ArrayLike<number>, offset?: number) => void }).set,
) as (target: Uint8Array, source: Uint8Array, offset?: number) => void;
const NativeTextDecoder = TextDecoder;
const textDecode = uncurryThis(TextDecoder.prototype.decode) as (
  decoder: TextDecoder,
  input: Uint8Array,
) => string;
const asciiDecoder = new NativeTextDecoder("utf-8");
const strictUtf8Decoder = new NativeTextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** Bytes that hold only ASCII as a string, by the native decoder (one call, no per-byte concatenation). */
export const asciiText = (bytes: Uint8Array): string => textDecode(asciiDecoder, bytes);
/** Whether `bytes` are well-formed UTF-8 (the fatal native decoder throws otherwise). */
export function isWellFormedUtf8(bytes: Uint8Array): boolean {
  try {
    textDecode(strictUtf8Decoder, bytes);
    return true;
  } catch {
    return false;
  }
}

export const stringCharCodeAt = uncurryThis(String.prototype.charCodeAt);
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean })
  .isWellFormed;
/**
 * `String.prototype.isWellFormed` as it was at load (no lone surrogate), or
 * undefined on a runtime without it. Native: constant time for a string V8
 * stores one byte per character.
 */
export const stringIsWellFormed: ((text: string) => boolean) | undefined =
  typeof nativeIsWellFormed === "function" ? uncurryThis(nativeIsWellFormed) : undefined;
export const stringSlice = uncurryThis(String.prototype.slice);
export const stringTrim = uncurryThis(String.prototype.trim);
const regExpExec = RegExp.prototype.exec;
const regExpTestMethod = RegExp.prototype.test;

/**
 * A frozen RegExp whose `exec` is an own copy of the original: `test` looks
 * `exec` up on the receiver, so a patched `RegExp.prototype.exec` would
 * otherwise decide what our escaping considers safe.
 */
export function sealedRegExp(pattern: RegExp): RegExp {
  ReflectDefineProperty(pattern, "exec", { value: regExpExec });
  return freeze(pattern);
}

export const regExpTest = (pattern: RegExp, text: string): boolean =>
  ReflectApply(regExpTestMethod, pattern, [text]) as boolean;
export const numberIsFinite = Number.isFinite;
export const mathMin = Math.min;
export const mathMax = Math.max;
export const isSafeInteger = Number.isSafeInteger;

/** AbortSignal's own `aborted` and `reason`, read through the prototype getters. */
export const signalAborted = getterOf<AbortSignal, boolean>(AbortSignal.prototype, "aborted");
export const signalReason = getterOf<AbortSignal, unknown>(AbortSignal.prototype, "reason");
/** The intrinsic `aborted` getter itself: signals.ts tells a patched prototype by it. */
export const abortedGetter: unknown = ReflectGetOwnPropertyDescriptor(
  AbortSignal.prototype,
  "aborted",
)?.get;
export const addEventListener = uncurryThis(EventTarget.prototype.addEventListener);
export const removeEventListener = uncurryThis(EventTarget.prototype.removeEventListener);
export const AbortSignalPrototype: object = AbortSignal.prototype;
export const NativeDOMException = DOMException;
const abortSignalAny = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
if (typeof abortSignalAny !== "function") {
  throw new TypeError("toolbound needs AbortSignal.any (Node.js >= 20.3) to watch cancellation");
}
/** `AbortSignal.any` as it was at load: a signal that aborts after all of `signals`' listeners ran. */
export const anySignal = (signals: AbortSignal[]): AbortSignal =>
  ReflectApply(abortSignalAny, AbortSignal, [signals]) as AbortSignal;
export const NativeAbortController = AbortController;
export const controllerAbort = uncurryThis(AbortController.prototype.abort);
export const controllerSignal = getterOf<AbortController, AbortSignal>(
  AbortController.prototype,
  "signal",
);
const nativeSetTimeout = globalThis.setTimeout;
const nativeClearTimeout = globalThis.clearTimeout;
/** The timer functions as they were at load (a patched global must not decide a deadline). */
export const startTimer = (callback: () => void, milliseconds: number): unknown =>
  ReflectApply(nativeSetTimeout, globalThis, [callback, milliseconds]);
export const stopTimer = (timer: unknown): void => {
  ReflectApply(nativeClearTimeout, globalThis, [timer]);
};

const processObject = (globalThis as { process?: { emitWarning?: unknown } }).process;
const nativeEmitWarning = processObject?.emitWarning;
/**
 * `process.emitWarning` as it was at load, for reports that must not stop a
 * call (a failing spill hook); a runtime without it gets nothing reported.
 */
export const emitWarning = (warning: Error): void => {
  if (typeof nativeEmitWarning === "function") {
    ReflectApply(nativeEmitWarning, processObject, [warning]);
  }
};

interface UtilTypes {
  isProxy(value: unknown): boolean;
  isDate(value: unknown): boolean;
  isMap(value: unknown): boolean;
  isSet(value: unknown): boolean;
  isWeakMap(value: unknown): boolean;
  isWeakSet(value: unknown): boolean;
  isRegExp(value: unknown): boolean;
  isBoxedPrimitive(value: unknown): boolean;
  isPromise(value: unknown): boolean;
  isNativeError(value: unknown): boolean;
  isArrayBufferView(value: unknown): boolean;
  isUint8Array(value: unknown): boolean;
  isAnyArrayBuffer(value: unknown): boolean;
  isModuleNamespaceObject(value: unknown): boolean;
  isGeneratorObject(value: unknown): boolean;
  isMapIterator(value: unknown): boolean;
  isSetIterator(value: unknown): boolean;
}

/**
 * Loads `node:util`'s internal-slot checks without a static import, so that a
 * runtime without them fails closed here, at load, with a clear error rather
 * than serializing a Proxy by running its traps.
 */
function loadUtilTypes(): UtilTypes {
  const processObject = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
  const getBuiltinModule = processObject?.getBuiltinModule;
  const util =
    typeof getBuiltinModule === "function"
      ? (ReflectApply(getBuiltinModule, processObject, ["node:util"]) as { types?: UtilTypes })
      : undefined;
  const types = util?.types;
  if (typeof types?.isProxy !== "function" || typeof types.isNativeError !== "function") {
    throw new TypeError(
      "toolbound needs process.getBuiltinModule('node:util').types.isProxy to refuse Proxies " +
        "without running their traps; this runtime does not provide it (Node.js >= 20.16 does)",
    );
  }
  return types;
}

const utilTypes = loadUtilTypes();

interface NativeBase64 {
  /** The base64 text of `bytes`. */
  readonly encode: (bytes: Uint8Array) => string;
  /** Decodes `text` into `into`, leniently; answers the bytes written. */
  readonly decode: (text: string, into: Uint8Array) => number;
}

/**
 * Node's own base64 coding (`Buffer.prototype.base64Slice` and
 * `base64Write`, captured at load and called on our own byte arrays), or
 * undefined where the runtime lacks them or they fail a self-test: then
 * the JavaScript coder in `base64.ts` is used. Lenient decoding is made
 * strict by the caller, which compares a re-encoding with the input.
 */
function loadNativeBase64(): NativeBase64 | undefined {
  const processObject = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
  const getBuiltinModule = processObject?.getBuiltinModule;
  if (typeof getBuiltinModule !== "function") return undefined;
  const module = ReflectApply(getBuiltinModule, processObject, ["node:buffer"]) as
    | { Buffer?: { prototype?: { base64Slice?: unknown; base64Write?: unknown } } }
    | undefined;
  const slice = module?.Buffer?.prototype?.base64Slice;
  const write = module?.Buffer?.prototype?.base64Write;
  if (typeof slice !== "function" || typeof write !== "function") return undefined;
  const coder: NativeBase64 = {
    encode: (bytes) => ReflectApply(slice, bytes, [0, typedArrayLength(bytes)]) as string,
    decode: (text, into) => ReflectApply(write, into, [text, 0, typedArrayLength(into)]) as number,
  };
  try {
    const sample = new Uint8Array([1, 2, 3, 4, 250]);
    const decoded = new Uint8Array(5);
    if (coder.encode(sample) !== "AQIDBPo=" || coder.decode("AQIDBPo=", decoded) !== 5) {
      return undefined;
    }
    return decoded[4] === 250 ? coder : undefined;
  } catch {
    return undefined;
  }
}

/** Node's native base64 coder, or undefined (see `loadNativeBase64`). */
export const nativeBase64 = loadNativeBase64();
const bind = (name: keyof UtilTypes): ((value: unknown) => boolean) => {
  const check = utilTypes[name];
  if (typeof check !== "function") {
    throw new TypeError(`toolbound: the runtime lacks util.types.${name}`);
  }
  // These checks ignore their receiver: the captured function itself is the fastest call.
  return check;
};

/** True for any Proxy, live, revoked, callable or from another realm; never runs a trap. */
export const isProxy = bind("isProxy");
export const isNativePromise = bind("isPromise");
export const isNativeError = bind("isNativeError");
/** True for a Uint8Array (a Buffer too) by its internal slot; false for a Proxy of one, without a trap. */
export const isUint8Array = bind("isUint8Array");

const exoticKinds: ReadonlyArray<readonly [(value: unknown) => boolean, string]> = [
  [bind("isDate"), "Date objects"],
  [bind("isMap"), "Map objects"],
  [bind("isSet"), "Set objects"],
  [bind("isWeakMap"), "WeakMap objects"],
  [bind("isWeakSet"), "WeakSet objects"],
  [bind("isRegExp"), "RegExp objects"],
  [bind("isBoxedPrimitive"), "boxed primitives"],
  [bind("isPromise"), "Promise objects"],
  [bind("isNativeError"), "Error objects"],
  [bind("isArrayBufferView"), "typed arrays and DataViews"],
  [bind("isAnyArrayBuffer"), "ArrayBuffers"],
  [bind("isModuleNamespaceObject"), "module namespace objects"],
  [bind("isGeneratorObject"), "generator objects"],
  [bind("isMapIterator"), "Map iterators"],
  [bind("isSetIterator"), "Set iterators"],
];

/** Names the built-in kind of an object with internal slots (a Date, a Map), or undefined. */
export function exoticKind(value: object): string | undefined {
  for (let index = 0; index < exoticKinds.length; index += 1) {
    // By index, not destructured: destructuring runs the live array iterator, which a Tool
    // may have patched (to throw, so that an error result could never be written).
    const entry = exoticKinds[index] as readonly [(value: unknown) => boolean, string];
    if (entry[0](value)) return entry[1];
  }
  return undefined;
}
