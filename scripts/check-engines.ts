/**
 * Fails when a package in package-lock.json declares an `engines.node` range that a supported Node
 * line does not meet. The supported lines are the alternatives of package.json's own `engines.node`
 * (`^22.15.0 || ^24.0.0` → 22.15.0 and 24.0.0), each checked at its lowest version, the one a user
 * may run. Run by .ci/run; `tsx scripts/check-engines.ts` by hand.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';

interface LockPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: unknown } | unknown[];
}

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines?: { node?: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, LockPackage> };

const declared = pkg.engines?.node;
if (!declared || !semver.validRange(declared)) {
  console.error(`package.json engines.node must be a valid range (got ${JSON.stringify(declared)})`);
  process.exit(1);
}
const minimums = new semver.Range(declared).set.map((comparators) => semver.minVersion(new semver.Range(comparators.map(String).join(' ')))!.version);

const problems: string[] = [];
let checked = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  if (path === '') continue; // formloom itself
  const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
  if (range === undefined) continue;
  const name = `${path.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'}${entry.dev ? ' (dev)' : ''}${entry.optional ? ' (optional)' : ''}`;
  checked++;
  if (typeof range !== 'string' || !semver.validRange(range)) {
    problems.push(`${name}: engines.node ${JSON.stringify(range)} is not a range npm understands`);
    continue;
  }
  const unmet = minimums.filter((version) => !semver.satisfies(version, range));
  if (unmet.length > 0) problems.push(`${name} needs node ${range}, not met by ${unmet.join(', ')}`);
}

if (problems.length > 0) {
  console.error(`engines: package.json supports node ${declared} (checked at ${minimums.join(', ')}), but:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`engines: ${checked} locked packages declaring engines.node all accept node ${minimums.join(' and ')} (package.json: ${declared})`);
