// The folder-level import graph of one folder: each subfolder is a node, an import from a file in one subfolder
// of a file in another is a link (issue 19: "no folder-level import circle among src/features/*").
//   npx tsx scripts/import-graph.ts [folder …] [--no-tests] [--list]
// prints, per folder (default src/features), "<folder>: N links (S import statements), M circles", where a
// circle is a strongly connected group of two or more subfolders; --list adds every link and circle.
// Test files and test support count unless --no-tests: a test in a folder is as much a user of another folder
// as the code beside it.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** The subfolders, sorted. */
  nodes: string[];
  /** `from → to` with the number of import statements (static, dynamic and re-exports) behind the link. */
  links: Map<string, Map<string, number>>;
  /** Each strongly connected group of two or more subfolders, sorted. */
  circles: string[][];
}

const SOURCE = /\.(ts|tsx|js|jsx|mts|cts)$/;
const TEST_FILE = /\.test\.[a-z]+$/;
const TEST_FOLDER = 'testing';

function sourceFiles(dir: string, withTests: boolean): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || (!withTests && entry.name === TEST_FOLDER)) return [];
      return sourceFiles(full, withTests);
    }
    if (!withTests && TEST_FILE.test(entry.name)) return [];
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The subfolder of `root` that `file` lies in, or undefined outside root or at its top. */
function nodeOf(root: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Tarjan's strongly connected components, keeping the groups of two or more. */
function stronglyConnected(nodes: string[], links: Map<string, Map<string, number>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of links.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Reads every source file under `rootDir` and builds its folder-level import graph. */
export function importGraph(rootDir: string, { withTests = true } = {}): ImportGraph {
  const root = path.resolve(rootDir);
  const nodes = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const links = new Map<string, Map<string, number>>();
  for (const file of sourceFiles(root, withTests)) {
    const from = nodeOf(root, file);
    if (!from) continue;
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = nodeOf(root, path.resolve(path.dirname(file), fileName));
      if (!to || to === from) continue;
      const targets = links.get(from) ?? new Map<string, number>();
      targets.set(to, (targets.get(to) ?? 0) + 1);
      links.set(from, targets);
    }
  }
  return { nodes, links, circles: stronglyConnected(nodes, links) };
}

/** "src/features: 26 links (65 import statements), 1 circle" */
export function summarize(rootDir: string, graph: ImportGraph): string {
  const targets = [...graph.links.values()];
  const linkCount = targets.reduce((sum, to) => sum + to.size, 0);
  const statements = targets.reduce((sum, to) => sum + [...to.values()].reduce((a, b) => a + b, 0), 0);
  const circles = graph.circles.length;
  return `${rootDir}: ${linkCount} links (${statements} import statements), ${circles} circle${circles === 1 ? '' : 's'}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const list = args.includes('--list');
  const withTests = !args.includes('--no-tests');
  const folders = args.filter((arg) => !arg.startsWith('--'));
  for (const folder of folders.length > 0 ? folders : ['src/features']) {
    const graph = importGraph(folder, { withTests });
    console.log(summarize(folder, graph));
    if (!list) continue;
    for (const [from, targets] of [...graph.links].sort(([a], [b]) => a.localeCompare(b))) {
      for (const [to, count] of [...targets].sort(([a], [b]) => a.localeCompare(b))) {
        console.log(`  ${from} → ${to} (${count})`);
      }
    }
    for (const circle of graph.circles) console.log(`  circle: ${circle.join(' ↔ ')}`);
  }
}
