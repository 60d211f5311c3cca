/** What checking costs a process, from Linux's /proc: resident memory, its high-water mark, CPU and wall time. */
import { readFileSync, writeFileSync } from 'node:fs';

/** A process's resident memory now (VmRSS) or at its highest (VmHWM), in bytes. */
export const residentBytes = (field: 'VmRSS' | 'VmHWM' = 'VmRSS', pid: number | 'self' = 'self'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Resets this process's VmHWM to its current RSS (Linux ≥ 4.0); false where the kernel does not allow it. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

export interface Cost<T> {
  value: T;
  /** How far resident memory rose above where it stood before. */
  growthBytes: number;
  cpuMs: number;
  wallMs: number;
  /** False when the high-water mark could not be reset: growth is then from the process's start, an overestimate. */
  peakReset: boolean;
}

/** Runs `work` and measures it. */
export async function measure<T>(work: () => Promise<T>): Promise<Cost<T>> {
  const peakReset = resetPeak();
  const before = residentBytes();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const peak = peakReset ? residentBytes('VmHWM') : process.resourceUsage().maxRSS * 1024;
  return { value, growthBytes: peak - before, cpuMs: (used.user + used.system) / 1000, wallMs, peakReset };
}
