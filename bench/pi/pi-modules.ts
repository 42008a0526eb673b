/**
 * Loads Pi from this folder's own install (`npm run bench:pi` runs `npm ci`
 * here), and describes the small part of its API the comparison uses. The
 * types are written out by hand so that the main typecheck passes without Pi
 * installed; they follow the declarations shipped in
 * `@earendil-works/pi-agent-core@0.85.0` (`runAgentLoop`, `AgentTool`,
 * `StreamFn`, `AgentLoopConfig`) and its dependencies.
 */

import { existsSync, readFileSync } from "node:fs";

/** A Tool-call block of an assistant message; the same shape as the course's `CourseToolCall`. */
export interface PiToolCall {
  readonly type: "toolCall";
  readonly id: string;
  readonly name: string;
  readonly arguments: { readonly text: string; readonly slot: number };
}

/** A text block of a message or Tool result. */
export interface PiText {
  readonly type: "text";
  readonly text: string;
}

/** Token usage and cost, as every assistant message carries it. */
export interface PiUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly totalTokens: number;
  readonly cost: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
    readonly total: number;
  };
}

/** An assistant message, as a model provider's stream ends with it. */
export interface PiAssistantMessage {
  readonly role: "assistant";
  readonly content: readonly (PiText | PiToolCall)[];
  readonly api: string;
  readonly provider: string;
  readonly model: string;
  readonly usage: PiUsage;
  readonly stopReason: "stop" | "toolUse";
  readonly timestamp: number;
}

/** A user message (the prompt that starts the run). */
export interface PiUserMessage {
  readonly role: "user";
  readonly content: string;
  readonly timestamp: number;
}

/** A Tool-result message, as Pi's loop appends it to the transcript. */
export interface PiToolResultMessage {
  readonly role: "toolResult";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: readonly PiText[];
  readonly isError: boolean;
}

/** Any message the loop returns. */
export type PiMessage = PiUserMessage | PiAssistantMessage | PiToolResultMessage;

/** The events a scripted stream pushes: the minimal protocol, `start` then `done`. */
export type PiStreamEvent =
  | { readonly type: "start"; readonly partial: PiAssistantMessage }
  | {
      readonly type: "done";
      readonly reason: "stop" | "toolUse";
      readonly message: PiAssistantMessage;
    };

/** Pi's `AssistantMessageEventStream`: what a stream function returns. */
export interface PiEventStream {
  push(event: PiStreamEvent): void;
  end(result?: PiAssistantMessage): void;
}

/** Pi's `AgentToolResult`. */
export interface PiToolResult {
  readonly content: readonly PiText[];
  readonly details: unknown;
}

/** Pi's `AgentTool`: a TypeBox schema for the arguments and an asynchronous `execute`. */
export interface PiAgentTool {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly parameters: unknown;
  readonly execute: (
    toolCallId: string,
    params: { readonly text: string; readonly slot: number },
    signal?: AbortSignal,
  ) => Promise<PiToolResult>;
}

/** Pi's `StreamFn`: called once per assistant turn instead of a model provider. */
export type PiStreamFn = (model: unknown, context: unknown, options?: unknown) => PiEventStream;

/** The fields of Pi's `AgentLoopConfig` the comparison sets. */
export interface PiLoopConfig {
  readonly model: unknown;
  readonly convertToLlm: (messages: PiMessage[]) => PiMessage[];
  readonly shouldStopAfterTurn?: () => boolean;
}

/** The three modules the comparison needs, loaded from this folder's install. */
export interface PiModules {
  readonly agentCore: {
    runAgentLoop(
      prompts: PiMessage[],
      context: { systemPrompt: string; messages: PiMessage[]; tools: PiAgentTool[] },
      config: PiLoopConfig,
      emit: (event: unknown) => void,
      signal: AbortSignal | undefined,
      streamFn: PiStreamFn,
    ): Promise<PiMessage[]>;
  };
  readonly ai: { createAssistantMessageEventStream(): PiEventStream };
  readonly typebox: {
    readonly Type: {
      Object(properties: Record<string, unknown>): unknown;
      String(): unknown;
      Number(): unknown;
    };
  };
  readonly versions: { readonly agentCore: string; readonly ai: string; readonly typebox: string };
}

/** This folder in the source tree; the compiled module sits four levels below the repository root. */
const PI_FOLDER = new URL("../../../../bench/pi/", import.meta.url);

interface Manifest {
  readonly version?: string;
  readonly main?: string;
  readonly exports?: { readonly ".": { readonly import?: string; readonly default?: string } };
}

async function importInstalled(name: string): Promise<{ module: unknown; version: string }> {
  const packageFolder = new URL(`node_modules/${name}/`, PI_FOLDER);
  const manifestUrl = new URL("package.json", packageFolder);
  if (!existsSync(manifestUrl)) {
    throw new Error(`${name} is not installed in bench/pi: run \`npm run bench:pi\``);
  }
  const manifest = JSON.parse(readFileSync(manifestUrl, "utf8")) as Manifest;
  const entry = manifest.exports?.["."].import ?? manifest.exports?.["."].default ?? manifest.main;
  if (entry === undefined) throw new Error(`${name}: no ESM entry point in its package.json`);
  return {
    module: await import(new URL(entry, packageFolder).href),
    version: manifest.version ?? "?",
  };
}

/**
 * Imports Pi's agent core, its AI package (for the real event-stream class)
 * and TypeBox (for the Tool's schema) from `bench/pi/node_modules`, where the
 * committed lockfile pins them. Throws with a hint when they are missing.
 *
 * @example
 * const pi = await loadPi();
 * pi.versions.agentCore; // "0.85.0"
 */
export async function loadPi(): Promise<PiModules> {
  const agentCore = await importInstalled("@earendil-works/pi-agent-core");
  const ai = await importInstalled("@earendil-works/pi-ai");
  const typebox = await importInstalled("typebox");
  return {
    agentCore: agentCore.module as PiModules["agentCore"],
    ai: ai.module as PiModules["ai"],
    typebox: typebox.module as PiModules["typebox"],
    versions: { agentCore: agentCore.version, ai: ai.version, typebox: typebox.version },
  };
}
