#!/usr/bin/env node
// Fails when src/ has an import cycle, between files or between the top-level folders of src/.
// Every static `import … from`, `export … from`, side-effect `import '…'` and dynamic `import('…')` of a relative
// path counts, type-only ones included: a type import is still a dependency of the importer on the imported module,
// and the point of the check is that dependencies point one way. Unit tests (*.test.ts) and test fixtures are left
// out; they sit beside their sources and import whatever they exercise, but nothing imports them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const srcDir = join(root, 'src');

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'testing') walk(path, out);
    }
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// Comments could hold example imports; strip them before scanning (strings that contain `//` are rare enough in
// import lines not to matter, and a false edge only ever makes the check stricter).
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const specifier = /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file) {
  const text = stripComments(readFileSync(file, 'utf8'));
  const found = new Set();
  for (const m of text.matchAll(specifier)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    const candidates = [target, `${target}.ts`, join(target, 'index.ts')];
    const hit = candidates.find((c) => {
      try {
        return statSync(c).isFile();
      } catch {
        return false;
      }
    });
    if (hit === undefined) throw new Error(`${relative(root, file)}: cannot resolve import '${spec}'`);
    if (hit.startsWith(srcDir + sep)) found.add(hit);
  }
  return found;
}

// Tarjan's strongly connected components; every component of more than one node (or a self-edge) is a cycle.
function cycles(graph) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const result = [];
  const visit = (v) => {
    const s = { index, low: index, onStack: true };
    index++;
    state.set(v, s);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      const ws = state.get(w);
      if (ws === undefined) {
        visit(w);
        s.low = Math.min(s.low, state.get(w).low);
      } else if (ws.onStack) s.low = Math.min(s.low, ws.index);
    }
    if (s.low === s.index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        state.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? new Set()).has(v)) result.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!state.has(v)) visit(v);
  return result;
}

// One concrete loop inside a component, so the report names the edges to cut rather than just the members.
function loopWithin(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = previous.get(v); p !== undefined; p = previous.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const fileGraph = new Map();
const folderGraph = new Map();
const folderEdgeExamples = new Map();
const folderOf = (file) => relative(srcDir, file).split(sep)[0];
for (const file of walk(srcDir, [])) {
  const from = relative(srcDir, file);
  const targets = importsOf(file);
  fileGraph.set(from, new Set([...targets].map((t) => relative(srcDir, t))));
  const fromFolder = folderOf(file);
  if (!fromFolder.endsWith('.ts')) {
    if (!folderGraph.has(fromFolder)) folderGraph.set(fromFolder, new Set());
    for (const t of targets) {
      const toFolder = folderOf(t);
      if (toFolder === fromFolder || toFolder.endsWith('.ts')) continue;
      folderGraph.get(fromFolder).add(toFolder);
      const key = `${fromFolder} -> ${toFolder}`;
      if (!folderEdgeExamples.has(key)) folderEdgeExamples.set(key, `${from} -> ${relative(srcDir, t)}`);
    }
  }
}

const verbose = process.argv.includes('--verbose');
let failed = false;
for (const component of cycles(folderGraph)) {
  failed = true;
  const loop = loopWithin(folderGraph, component);
  console.error(`folder cycle among src/{${component.join(', ')}}: ${loop.join(' -> ')}`);
  for (let i = 0; i + 1 < loop.length; i++) console.error(`  ${folderEdgeExamples.get(`${loop[i]} -> ${loop[i + 1]}`)}`);
  if (verbose) {
    for (const a of component)
      for (const b of component) {
        const example = folderEdgeExamples.get(`${a} -> ${b}`);
        if (example !== undefined) console.error(`    ${a} -> ${b}: ${example}`);
      }
  }
}
for (const component of cycles(fileGraph)) {
  failed = true;
  console.error(`file cycle: ${loopWithin(fileGraph, component).join(' -> ')}${component.length > 2 ? ` (${component.length} files)` : ''}`);
  if (verbose) console.error(`  ${component.join('\n  ')}`);
}
if (failed) {
  console.error('import cycles found: make dependencies point one way (see docs/architecture.md, "Layering")');
  process.exit(1);
}
