#!/usr/bin/env node
/**
 * The `toolbound` executable (package.json `bin`). See `program.ts` for the
 * commands; this file only starts them.
 */

import { runCli } from "./program.ts";

// A reader that goes away (`toolbound list … | head -1`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

await runCli(process.argv);
