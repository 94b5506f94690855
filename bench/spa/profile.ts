// A V8 CPU profile of the page (CDP Profiler) summed by function, with each function's place in the source
// through the build's source maps (a build made with --sourcemap): where the main thread's script time goes.
// Used by the --profile runs of bench/spa/trading.ts and bench/trading/signal-to-order.ts.
import fs from 'node:fs';
import path from 'node:path';
import { ms, printTable } from './harness';

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

type Mapper = (url: string, line: number, column: number) => string | undefined;

/** Maps bundle positions to `source:line` with the .map files of the served build, when they are there. */
async function sourceMapper(staticDir: string, baseUrl: string): Promise<Mapper> {
  let traceMapping: typeof import('@jridgewell/trace-mapping') | undefined;
  try {
    // A dependency of the build tools (not of this project): the mapping is a nicety, not a requirement.
    traceMapping = await import('@jridgewell/trace-mapping');
  } catch {
    return () => undefined;
  }
  const maps = new Map<string, InstanceType<typeof traceMapping.TraceMap> | undefined>();
  return (url, line, column) => {
    if (!url.startsWith(baseUrl) || !traceMapping) return undefined;
    const file = path.join(staticDir, new URL(url).pathname);
    if (!maps.has(file)) {
      const mapFile = `${file}.map`;
      maps.set(
        file,
        fs.existsSync(mapFile) ? new traceMapping.TraceMap(fs.readFileSync(mapFile, 'utf8')) : undefined,
      );
    }
    const map = maps.get(file);
    if (!map) return undefined;
    const found = traceMapping.originalPositionFor(map, { line: line + 1, column });
    if (!found.source) return undefined;
    const source = found.source.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, 'node_modules/');
    return `${found.name ? `${found.name} ` : ''}${source}:${found.line}`;
  };
}

/** Microseconds on the monotonic clock V8 stamps profiles with (the same in every process on Linux). */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * Prints the functions with the most self time, and the source files (or packages) they sum to; with `window`
 * (monotonicMicros() readings), only the samples taken within it.
 */
export async function profileSummary(
  profile: CpuProfile,
  staticDir: string,
  baseUrl: string,
  window?: { fromUs: number; toUs: number },
): Promise<void> {
  const map = await sourceMapper(staticDir, baseUrl);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  let total = 0;
  let at = profile.startTime;
  for (const [index, id] of profile.samples.entries()) {
    at += profile.timeDeltas[index] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    const dt = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    selfMs.set(id, (selfMs.get(id) ?? 0) + dt);
    total += dt;
  }
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, time] of selfMs) {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    const mapped = map(url, lineNumber, columnNumber);
    const shortUrl = url.replace(baseUrl, '');
    const where =
      mapped ??
      `${functionName || '(anonymous)'} ${shortUrl}${url ? `:${lineNumber + 1}:${columnNumber}` : ''}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + time);
    const file = mapped
      ? mapped
          .replace(/^\S+ /, '')
          .replace(/:\d+$/, '')
          .replace(/^(node_modules\/(@[^/]+\/)?[^/]+).*/, '$1')
      : functionName.startsWith('(')
        ? functionName
        : shortUrl || '(native)';
    byFile.set(file, (byFile.get(file) ?? 0) + time);
  }
  const top = (entries: Map<string, number>, count: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, time]) => [name, ms(time, 0), `${((100 * time) / total).toFixed(1)} %`]);
  console.log(
    `\nCPU profile: ${ms(total, 0)} sampled on the main thread${window ? ` in ${ms((window.toUs - window.fromUs) / 1000, 0)}` : ''}; self time by function:`,
  );
  printTable([['function source:line', 'self', 'share'], ...top(byFunction, 25)]);
  console.log('\nself time by source file or package:');
  printTable([['source', 'self', 'share'], ...top(byFile, 15)]);
}
