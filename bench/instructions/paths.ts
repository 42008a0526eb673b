/** The call paths `npm run bench:instructions` counts, as the child process takes them. */
export const PATHS = ["bare", "executeToolCall", "prepare+run"] as const;

/** One of {@link PATHS}. */
export type CallPath = (typeof PATHS)[number];
