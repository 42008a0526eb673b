/**
 * For the Tool contract guide's opening example: the model's call to delete
 * a file, the run's signal, and the Tools the host's gate keeps from running.
 */
const call = {
  type: "toolCall",
  id: "call-1",
  name: "delete_file",
  arguments: { path: "notes.txt" },
} as const;
const signal = new AbortController().signal;
const protectedTools = ["delete_file"];
