/**
 * ToolRegistry: owns immutable Tool definitions and registers batches atomically.
 */

import { type CallObserver, type ObserverSlot, readObserver } from "./call-observer.js";
import {
  type AnyCourseTool,
  type RegisteredCourseTool,
  snapshotDefinition,
} from "./definitions.js";
import { contractError } from "./errors.js";
import {
  addSlot,
  freeze,
  getOwnPropertyDescriptor,
  isArray,
  isProxy,
  mapGet,
  mapHas,
  mapIteratorNext,
  mapSet,
  mapSize,
  mapValues,
  NativeMap,
  NativeTypeError,
} from "./intrinsics.js";
import { refuseRegistryOption } from "./output-budget.js";
import type { OutputFormat } from "./output-format.js";
import { type OutputLevel, type OutputOptions, readOutputLevel } from "./output-settings.js";
import { type OwnField, readOwnField } from "./own-fields.js";

let lookup: (registry: ToolRegistry, name: string) => RegisteredCourseTool | undefined;
let outputOf: (registry: ToolRegistry) => OutputLevel | undefined;
let brandCheck: (value: unknown) => boolean;
let setOutput: (registry: ToolRegistry, level: OutputLevel) => void;
let slotOf: (value: unknown) => ObserverSlot | undefined;
let observed: (registry: ToolRegistry, slot: ObserverSlot) => ToolRegistry;
let copyOf: (registry: ToolRegistry) => ToolRegistry;
let toolsOf: (registry: ToolRegistry) => Map<string, RegisteredCourseTool>;

/**
 * Options of a registry: output settings for every call of its Tools (see
 * {@link OutputOptions}), which a Tool's own definition fields and a call's
 * own options override field by field.
 *
 * @example
 * const registry = new ToolRegistry(tools, { outputBudget: { maxCharacters: 50_000 }, truncate: "head-and-tail" });
 */
export type ToolRegistryOptions = OutputOptions;

/** Reads registry options once each; a bad value is a TypeError naming the field and the rule. */
function readRegistryOptions(options: unknown): OutputLevel | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null || isProxy(options)) {
    throw new NativeTypeError("ToolRegistry options must be a plain object (not a Proxy)");
  }
  return readOutputLevel(options, refuseRegistryOption, (key, thrown) => {
    throw new NativeTypeError(`ToolRegistry options: ${key} threw when read`, { cause: thrown });
  });
}

/** Reads one batch slot by index (never through the array's iterator or methods). */
function readBatchEntry(batch: readonly unknown[], index: number): unknown {
  if (getOwnPropertyDescriptor(batch, index) === undefined) {
    throw contractError("INVALID_TOOL_BATCH", `Tool batch has a hole at index ${index}`);
  }
  let field: OwnField;
  try {
    field = readOwnField(batch, `${index}`);
  } catch (thrown) {
    throw contractError("INVALID_TOOL_BATCH", `Tool batch entry ${index} threw when read`, {
      cause: thrown,
    });
  }
  return field.found ? field.value : undefined;
}

function readBatchLength(batch: unknown): number {
  // isProxy first: Array.isArray looks through a Proxy. Array.isArray alone then
  // refuses primitives, null, functions and every other non-array.
  if (isProxy(batch) || !isArray(batch)) {
    throw contractError("INVALID_TOOL_BATCH", "Tool batch must be an array (not a Proxy)");
  }
  // A real array's `length` is an own, non-configurable data property holding
  // an integer: reading it runs no code, whatever realm or subclass it is from.
  return (batch as readonly unknown[]).length;
}

/**
 * Holds a run's Tools by name. Definitions are snapshotted on the way in;
 * `registerMany` is atomic: every definition is read and checked, by index,
 * before the registry changes at all.
 *
 * @example
 * const registry = new ToolRegistry([echo]);
 * registry.names; // ["echo"]
 * const frozenForRun = registry.snapshot();
 */
export class ToolRegistry {
  readonly #tools = new NativeMap<string, RegisteredCourseTool>();
  #output: OutputLevel | undefined;
  /** Set only through `withCallObserver` (the internal surface); copied by `snapshot()`. */
  #observer: ObserverSlot | undefined;

  static {
    lookup = (registry, name) => mapGet(registry.#tools, name);
    outputOf = (registry) => registry.#output;
    brandCheck = (value) => typeof value === "object" && value !== null && #tools in value;
    setOutput = (registry, level) => {
      registry.#output = level;
    };
    slotOf = (value) =>
      typeof value === "object" && value !== null && #observer in value
        ? (value as ToolRegistry).#observer
        : undefined;
    observed = (registry, slot) => {
      const copy = registry.#copy();
      copy.#observer = slot;
      return copy;
    };
    copyOf = (registry) => registry.#copy();
    toolsOf = (registry) => registry.#tools;
  }

  /**
   * Registers `definitions` (default none) as one atomic batch. `options`
   * (default none) sets output settings for every call of this registry's
   * Tools; an invalid option is a TypeError and nothing is registered.
   */
  constructor(definitions?: readonly AnyCourseTool[], options?: ToolRegistryOptions);
  /**
   * The course's signature: any array, checked at run time (what the course's
   * modules pass, as the course's interface pins it). Typed definitions take
   * the overload above, which keeps their callbacks contextually typed.
   */
  constructor(definitions?: readonly unknown[], options?: ToolRegistryOptions);
  constructor(definitions: readonly unknown[] = [], options?: ToolRegistryOptions) {
    this.#output = readRegistryOptions(options);
    this.registerMany(definitions);
  }

  /** Registers one definition; throws DUPLICATE_TOOL_NAME if its name is taken. */
  register(definition: AnyCourseTool): void;
  /** The course's signature: any value, checked at run time. */
  register(definition: unknown): void;
  register(definition: unknown): void {
    const tool = snapshotDefinition(definition, "Tool definition");
    if (mapHas(this.#tools, tool.name)) {
      throw contractError("DUPLICATE_TOOL_NAME", `Tool name "${tool.name}" is already registered`);
    }
    mapSet(this.#tools, tool.name, tool);
  }

  /**
   * Registers a batch atomically. Throws INVALID_TOOL_BATCH (not an array, a
   * Proxy, a hole, an unreadable entry), INVALID_TOOL_DEFINITION (an entry is
   * not a valid definition) or DUPLICATE_TOOL_NAME (inside the batch or
   * against the registry); on any failure the registry is unchanged.
   */
  registerMany(definitions: readonly AnyCourseTool[]): void;
  /** The course's signature: any array, checked entry by entry at run time. */
  registerMany(definitions: readonly unknown[]): void;
  registerMany(definitions: readonly unknown[]): void {
    const length = readBatchLength(definitions);
    const pending = new NativeMap<string, RegisteredCourseTool>();
    for (let index = 0; index < length; index += 1) {
      const entry = readBatchEntry(definitions, index);
      const tool = snapshotDefinition(entry, `Tool definition at index ${index}`);
      if (mapHas(pending, tool.name) || mapHas(this.#tools, tool.name)) {
        throw contractError(
          "DUPLICATE_TOOL_NAME",
          `Tool name "${tool.name}" is already registered`,
        );
      }
      mapSet(pending, tool.name, tool);
    }
    // Phase two: nothing below can fail.
    const values = mapValues(pending);
    for (let step = mapIteratorNext(values); step.done !== true; step = mapIteratorNext(values)) {
      mapSet(this.#tools, step.value.name, step.value);
    }
  }

  /** How many Tools are registered. */
  get size(): number {
    return mapSize(this.#tools);
  }

  /** The registered names in insertion order, as a new frozen array on every read. */
  get names(): readonly string[] {
    return registryNames(this);
  }

  /** The frozen definition registered under `name`, or undefined. It can be registered elsewhere. */
  get(name: string): RegisteredCourseTool | undefined {
    // Names are strings: the Map answers undefined for anything else, and runs nothing.
    return mapGet(this.#tools, name);
  }

  /**
   * A new registry with the same members (the same frozen snapshots) and the
   * same options, independent afterwards.
   */
  snapshot(): ToolRegistry {
    return this.#copy();
  }

  #copy(): ToolRegistry {
    const copy = new ToolRegistry();
    // The settings are frozen: sharing them is copying them; so is the observer's slot.
    copy.#output = this.#output;
    copy.#observer = this.#observer;
    const values = mapValues(this.#tools);
    for (let step = mapIteratorNext(values); step.done !== true; step = mapIteratorNext(values)) {
      mapSet(copy.#tools, step.value.name, step.value);
    }
    return copy;
  }
}

/** True for a ToolRegistry made by this copy of the module (a private-field brand check). */
export function isToolRegistry(value: unknown): value is ToolRegistry {
  return brandCheck(value);
}

/**
 * The names registered in `registry`, in insertion order, as a new frozen
 * array: what the `names` getter answers, read from the private map, so that a
 * getter a Tool put on `ToolRegistry.prototype` in its place is never asked.
 *
 * @example
 * registryNames(registry); // ["add", "echo"]
 */
export function registryNames(registry: ToolRegistry): readonly string[] {
  const names: string[] = [];
  const values = mapValues(toolsOf(registry));
  for (let step = mapIteratorNext(values); step.done !== true; step = mapIteratorNext(values)) {
    // Defined, not assigned: an index setter planted on Array.prototype never sees a name
    // nor leaves a hole that an index getter there would answer for.
    addSlot(names, names.length, step.value.name);
  }
  return freeze(names);
}

/** The Tool registered under `name` in `registry`, read from its private map. */
export function lookupTool(registry: ToolRegistry, name: string): RegisteredCourseTool | undefined {
  return lookup(registry, name);
}

/**
 * A snapshot of `registry` whose own output settings give `format` when they
 * set none: the default of a surface that hands the model text (a Tool's
 * definition and a call's options still win, field by field, as does a
 * format the registry's options set).
 */
export function snapshotWithFormat(registry: ToolRegistry, format: OutputFormat): ToolRegistry {
  // The private copy, not `registry.snapshot()`: a Tool may have replaced the method on
  // ToolRegistry.prototype with one that answers a registry of other Tools.
  const copy = copyOf(registry);
  const own = outputOf(registry);
  if (own?.format !== undefined) return copy;
  const level: OutputLevel =
    own === undefined
      ? freeze({
          outputBudget: undefined,
          truncate: undefined,
          spill: undefined,
          maxSpillCharacters: undefined,
          onSpillError: undefined,
          format,
        })
      : freeze({ ...own, format });
  setOutput(copy, level);
  return copy;
}

/** The output settings `registry` was constructed with, if any. */
export function registryOutput(registry: ToolRegistry): OutputLevel | undefined {
  return outputOf(registry);
}

/**
 * The observer slot of `value` when it is a ToolRegistry with an observer, else
 * undefined: one private-field check, nothing allocated, no code of `value` run.
 */
export function registryObserver(value: unknown): ObserverSlot | undefined {
  return slotOf(value);
}

/**
 * A snapshot of `registry` (the same Tools and options) whose every call is
 * watched by `observer` (see {@link CallObserver}); `registry` itself is left
 * as it was. Throws a TypeError for a value that is not a ToolRegistry or an
 * observer without its four hooks.
 *
 * @example
 * const watched = withCallObserver(registry, { start: () => ({}), resume() {}, execute: (_s, _c, _t, run) => run(), end: (_s, facts) => log(facts) });
 */
export function withCallObserver<State>(
  registry: ToolRegistry,
  observer: CallObserver<State>,
): ToolRegistry {
  if (!isToolRegistry(registry)) {
    throw new NativeTypeError("withCallObserver needs a ToolRegistry");
  }
  return observed(registry, readObserver(observer));
}

/** The observer object a registry's calls are watched by, if any (for the surfaces' own hooks). */
export function callObserverOf(value: unknown): object | undefined {
  return slotOf(value)?.observer;
}
