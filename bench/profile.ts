/** Summarises a V8 .cpuprofile: self time by package/area and the hottest functions. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: an npm package, a folder of this repo, node internals, or V8. */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const own = /\/(src|bench)\/(.+)$/.exec(url);
  return own ? `${own[1]}/${own[2]!.split('/')[0]}` : url;
}

export function summarizeCpuProfile(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // Shares of busy time: idle samples (waiting for I/O or for load) are left out.
  let total = 0;
  let idle = 0;
  for (const [id, micros] of selfMicros) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') idle += micros;
    else total += micros;
  }
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const { callFrame } = byId.get(id)!;
    if (callFrame.functionName === '(idle)') continue;
    const area = areaOf(callFrame.url, callFrame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + micros);
    const name = `${callFrame.functionName || '(anonymous)'}  ${area}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const pct = (micros: number) => `${((100 * micros) / total).toFixed(1).padStart(5)} %`;
  const lines = [`  ${(total / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle; share of busy time by area (self time):`];
  for (const [area, micros] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`    ${pct(micros)}  ${area}`);
  lines.push('  hottest functions (self time):');
  for (const [name, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(micros)}  ${name}`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of process.argv.slice(2)) console.log(summarizeCpuProfile(file));
}
