/**
 * Test support: a fake of the part of Restate's handler context a durable
 * round uses, for unit tests that need to count what happens inside a round
 * (the restate-server suites run the real thing).
 */

import { RestateError, serde } from "@restatedev/restate-sdk";
import {
  type DurableContext,
  RestatePromise,
  TerminalError,
} from "../../src/restate/restate-sdk.ts";

/**
 * Appends as an own data property: the test's own lists never run a setter
 * planted on `Array.prototype` (a `push` would).
 */
export function append<T>(list: T[], value: T): void {
  Object.defineProperty(list, list.length, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** A promise that never settles: what the SDK hands on once the attempt has ended. */
const pending = <T>(): Promise<T> => new Promise<T>(() => undefined);

/**
 * The part of Restate's handler context a durable round uses, as the SDK
 * (1.x) behaves on a first run with nothing journaled yet:
 *
 * - `request()`: the invocation id and the attempt's `attemptCompletedSignal`.
 * - `run(name, action)`: runs `action` once when the step is first awaited or
 *   combined; its value goes through the JSON serde into the journal, and the
 *   step resolves with what the journal gives back (a fresh copy, as the SDK
 *   reads it). A TerminalError is journaled as the step's failure (the SDK
 *   rebuilds it from code, message and metadata); any other throw ends the
 *   attempt (the engine would retry it).
 * - `sleep(ms, name)`: a timer, resolving with undefined.
 * - `.map(mapper)` on what these return: the mapper gets a value, or a
 *   Restate failure; a mapper that throws a TerminalError rejects, any other
 *   throw ends the attempt and leaves the promise pending.
 *
 * Every promise is the SDK's own RestatePromise (made with
 * `RestatePromise.resolve`), so the round's `RestatePromise.race` is the
 * SDK's. `commands` lists the journal's commands in the order they were
 * issued, `completed` the steps whose result is journaled; `attemptEnded`
 * rejects when an attempt ends, so a test fails at once instead of hanging.
 */
export class FakeRestateContext {
  readonly commands: string[] = [];
  readonly completed: string[] = [];
  readonly attemptEnded: Promise<never>;
  readonly #attempt = new AbortController();
  readonly #request = { id: "inv_1fakeInvocationId", attemptCompletedSignal: this.#attempt.signal };
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #endAttempt: (reason: unknown) => void = () => undefined;

  constructor() {
    this.attemptEnded = new Promise<never>((_resolve, reject) => {
      this.#endAttempt = reject;
    });
    // Raced by the tests; an attempt that ends while no test races it is no unhandled rejection.
    this.attemptEnded.catch(() => undefined);
  }

  request(): { readonly id: string; readonly attemptCompletedSignal: AbortSignal } {
    return this.#request;
  }

  run<T>(name: string, action: () => T | PromiseLike<T>): RestatePromise<T> {
    if (typeof name !== "string" || typeof action !== "function") {
      throw new TypeError("the fake context models ctx.run(name, action) only");
    }
    append(this.commands, name);
    return this.#promise(async () => {
      let value: T;
      try {
        value = await action();
      } catch (thrown) {
        if (thrown instanceof TerminalError) {
          throw new TerminalError(thrown.message, {
            errorCode: thrown.code,
            // Rebuilt from the journal, where metadata is a list of pairs, possibly empty.
            metadata: { ...thrown.metadata },
          });
        }
        this.#end(thrown);
        return pending<T>();
      }
      const journaled = serde.json.deserialize(serde.json.serialize(value)) as T;
      append(this.completed, name);
      return journaled;
    });
  }

  sleep(duration: number, name?: string): RestatePromise<void> {
    if (typeof duration !== "number") {
      throw new TypeError("the fake context models ctx.sleep(milliseconds, name) only");
    }
    append(this.commands, name ?? "sleep");
    return this.#promise(
      () =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            this.#timers.delete(timer);
            resolve();
          }, duration);
          this.#timers.add(timer);
        }),
    );
  }

  /** Clears the timers still running (a deadline that lost its race). */
  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  /** The handler context the round is given. */
  asContext(): DurableContext {
    return this as unknown as DurableContext;
  }

  /** Ends the attempt, as the SDK's abortAttempt does: the attempt's signal aborts. */
  #end(reason: unknown): void {
    this.#attempt.abort(reason);
    this.#endAttempt(reason);
  }

  /** The SDK's RestatePromise over `start`, started once, when first awaited or combined. */
  #promise<T>(start: () => Promise<T>): RestatePromise<T> {
    let started: Promise<T> | undefined;
    const settled = (): Promise<T> => {
      started ??= start();
      return started;
    };
    const lazy: PromiseLike<T> = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable starts the work only when first awaited.
      then: (onValue, onFailure) => settled().then(onValue, onFailure),
    };
    // The journal's values are plain data, never promises: `Awaited<T>` is `T`.
    const promise = RestatePromise.resolve(lazy) as RestatePromise<T>;
    promise.map = <U>(mapper: (value?: T, failure?: TerminalError) => U): RestatePromise<U> =>
      this.#promise(() =>
        settled().then(
          (value) => this.#mapped(mapper, value, undefined),
          (failure: unknown) => {
            // The SDK hands only Restate's own failures to a mapper.
            if (failure instanceof RestateError) {
              return this.#mapped(mapper, undefined, failure as TerminalError);
            }
            throw failure;
          },
        ),
      );
    return promise;
  }

  #mapped<T, U>(
    mapper: (value?: T, failure?: TerminalError) => U,
    value: T | undefined,
    failure: TerminalError | undefined,
  ): U | Promise<U> {
    try {
      return mapper(value, failure);
    } catch (thrown) {
      if (thrown instanceof TerminalError) throw thrown;
      this.#end(thrown);
      return pending<U>();
    }
  }
}
