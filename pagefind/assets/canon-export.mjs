// canon export pagefind's indexer: Pagefind's own Node API (the npm package `pagefind`) indexes
// the pages canon sends and writes the bundle. Run by `canon export pagefind` as
//   node --input-type=module -e SCRIPT PAGEFIND_PACKAGE_DIR OUTPUT_DIR LANGUAGE
// stdin: one JSON object a line, {"url": URL, "html": HTML} per page (bundle_pages.h).
// stdout, at the end: one JSON line {"pages": N, "errors": [MESSAGE, ...]}. Exit 1 when the
// index cannot be made or written; a page Pagefind refuses is an error in the list.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [packageDir, outputPath, language] = process.argv.slice(1);
const pagefind = await import(pathToFileURL(path.join(packageDir, "lib", "index.js")).href);

const fail = async (what, errors) => {
  process.stderr.write(`pagefind: ${what}: ${errors.join("; ")}\n`);
  await pagefind.close();
  process.exit(1);
};

const created = await pagefind.createIndex(language ? { forceLanguage: language } : {});
if (!created.index) await fail("cannot create an index", created.errors);
const index = created.index;

const errors = [];
let pages = 0;
const inFlight = new Set();
const MAX_IN_FLIGHT = 16;  // Pagefind's service indexes concurrently; bound what waits on it
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line) continue;
  const page = JSON.parse(line);
  const added = index.addHTMLFile({ url: page.url, content: page.html }).then((answer) => {
    if (answer.errors.length) errors.push(`${page.url}: ${answer.errors.join("; ")}`);
    else pages += 1;
  });
  inFlight.add(added);
  added.finally(() => inFlight.delete(added));
  if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
}
await Promise.all(inFlight);
const written = await index.writeFiles({ outputPath });
if (written.errors.length) await fail(`cannot write the bundle to ${outputPath}`, written.errors);
process.stdout.write(JSON.stringify({ pages, errors }) + "\n");
await pagefind.close();
