/**
 * For examples that run one call of an `add` Tool: the model's call and the
 * run's signal.
 */
const call = {
  type: "toolCall",
  id: "call-1",
  name: "add",
  arguments: { left: 20, right: 22 },
} as const;
const signal = new AbortController().signal;
