/**
 * Type-checks the documentation's modules in one TypeScript program, with
 * the project's compiler settings (tsconfig.json) and `toolbound` entries
 * mapped to their sources. Two settings are relaxed, because an example
 * names values for its reader: unused locals and parameters are allowed.
 */

import { join } from "node:path";
import ts from "typescript";
import type { BlockModule } from "./block-modules.ts";
import { entrySources } from "./entries.ts";
import { ROOT } from "./markdown.ts";

/** The compiler options for documentation modules. */
export function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (parsed === undefined) throw new Error("tsconfig.json could not be read");
  const paths: Record<string, string[]> = {};
  for (const [specifier, source] of entrySources()) paths[specifier] = [source];
  return {
    ...parsed.options,
    noEmit: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    paths,
  };
}

/** The type errors of each module, keyed by its id, each naming the document line. */
export function typeErrors(modules: readonly BlockModule[]): Map<string, string[]> {
  const options = compilerOptions();
  const virtual = new Map(modules.map((module) => [module.id, module]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const module = virtual.get(name);
    return module === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, module.source, language, true);
  };
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.readFile = (name) => virtual.get(name)?.source ?? readFile(name);

  const program = ts.createProgram([...virtual.keys()], options, host);
  const errors = new Map<string, string[]>();
  for (const module of modules) {
    const file = program.getSourceFile(module.id);
    if (file === undefined) throw new Error(`the program lost ${module.id}`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ];
    errors.set(
      module.id,
      diagnostics.map((diagnostic) => {
        const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const origin = module.origins[line] ?? module.id;
        return `${origin}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
      }),
    );
  }
  return errors;
}
