// Mutation testing of the Tool boundary: `npm run test:mutation`.
// Mutates the core only, and runs only the tests that exercise the core directly
// (the course tests, the core tests and the property tests) against each mutant.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
const config = {
  packageManager: "npm",
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: ["course/src/**/*.ts"],
  testFiles: ["course/test/**/*.test.ts", "test/property/**/*.test.ts"],
  vitest: { configFile: "test/property/vitest.mutation.config.ts", related: false },
  coverageAnalysis: "perTest",
  // Static mutants (in code that runs once, at module load: captured intrinsics,
  // constants) need every test in a fresh module graph per mutant, half of the
  // whole run's time; docs/mutation-testing.md says what they are and why skipped.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10000,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};

export default config;
