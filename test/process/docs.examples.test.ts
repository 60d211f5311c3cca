/**
 * The examples of README.md and docs/, run as a reader pastes them: one real server (`src/main.ts` on a
 * fresh embedded PGlite, as `npm start` runs it), the `export …` line its first start prints pasted into
 * one bash, then every ```sh runnable block in reading order (README.md, then docs/ in the order of the
 * README's map) in that same shell, so variables and helpers carry over as in a terminal. A block
 * passes when no command in it fails; a ```… output block right after it must match what it printed
 * (see `matchOutput`). `<!-- server-env: NAME=value … -->` before a block restarts the server with those
 * settings, as the prose there asks the reader to. Every ```sh block is marked `runnable` or `norun`,
 * every ```graphql block must validate against schema/schema.graphql, every ```json block must parse,
 * and every relative link must lead to a file and heading that exist.
 *
 * The examples start their webhook receiver on port 4001 (EXAMPLE_RECEIVER_PORT), as a reader would. Two
 * runs at once on one machine (two checkouts, CI and a developer) would then share that port, and one
 * run's receiver would get the other's deliveries: the test runs each block with a free port in its
 * place and writes 4001 back into what the block printed before comparing it with the output block.
 *
 * DOCS_EXAMPLES_OUT=FILE writes each block's actual output there (for writing the docs).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, killLeftovers, startServer, type ServerProcess } from '../support/server-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BLOCK_TIMEOUT_MS = 120_000;
/** The fixed port of the examples' webhook receiver; the test puts a free one in its place. */
export const EXAMPLE_RECEIVER_PORT = 4001;

// ---------------------------------------------------------------- reading the documents

export interface Fence {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  flags: string[];
  text: string;
  /** Settings a `<!-- server-env: … -->` comment since the previous fence asks the server to run with. */
  serverEnv?: Record<string, string>;
}

/** The fenced code blocks of a Markdown file, in order. */
export function fencesOf(file: string): Fence[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const fences: Fence[] = [];
  let serverEnv: Record<string, string> | undefined;
  for (let i = 0; i < lines.length; i++) {
    const comment = /^<!--\s*server-env:(.*?)-->\s*$/.exec(lines[i]!);
    if (comment) {
      serverEnv = Object.fromEntries(
        comment[1]!
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map((pair) => pair.split('=') as [string, string]),
      );
      continue;
    }
    const fence = /^`{3,}/.exec(lines[i]!)?.[0];
    if (!fence) continue;
    // The info string: a language right after the fence (or none), then flags.
    const [lang = '', ...flags] = lines[i]!.slice(fence.length).split(/\s+/);
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== fence; i++) body.push(lines[i]!);
    fences.push({ file, line: start + 1, lang, flags: flags.filter(Boolean), text: body.join('\n'), ...(serverEnv ? { serverEnv } : {}) });
    serverEnv = undefined;
  }
  return fences;
}

/** README.md, then the docs in the order of the table that maps them in the README. */
export function documents(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const linked = [...new Set([...readme.matchAll(/^\| \[docs\/[\w.-]+\.md\]\((docs\/[\w.-]+\.md)\)/gm)].map((m) => m[1]!))];
  return ['README.md', ...linked];
}

// ---------------------------------------------------------------- comparing outputs

/** Values that differ from run to run: ids, times, keys, tokens, cursors, ports. */
const VOLATILE: [RegExp, string][] = [
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>'],
  [/\d{4}-\d{2}-\d{2}/g, '<date>'],
  [/fl_[a-z0-9]{12}_[\w-]{43}/g, '<api-key>'],
  [/fladm_[\w-]{43}/g, '<admin-token>'],
  [/whsec_[A-Za-z0-9+/=]+/g, '<secret>'],
  [/\b(msg|evt|ep|upl)_[A-Za-z0-9]+/g, '$1_<id>'],
  [/\b[a-z][a-z0-9]{23}\b/g, '<id>'],
  [/\beyJ[\w+/=-]*/g, '<cursor>'],
  [/(127\.0\.0\.1|localhost):(?!4001\b)\d+/g, '$1:<port>'],
];
const mask = (text: string) => VOLATILE.reduce((masked, [pattern, replacement]) => masked.replace(pattern, replacement), text);

/** `text` with one local port in place of another: in `host:port` addresses and `--port port` options. */
export function withPort(text: string, from: number, to: number): string {
  return text.replace(new RegExp(`(\\b(?:127\\.0\\.0\\.1|localhost):|--port[ =])${from}\\b`, 'g'), `$1${to}`);
}

/** Keys whose string values are ids, times, tokens or secrets: any string of that kind matches. */
const VOLATILE_KEY = /^id$|Id$|Ids$|At$|^prefix$|^key$|^secret$|[Tt]oken$|[Cc]ursor$|^timestamp$|^node$|^signature$/;

/** Splits text into the JSON values it holds, one or more a line or one spread over several lines. */
function jsonValues(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (!pending && !line.trim()) continue;
    pending += `${line}\n`;
    try {
      values.push(JSON.parse(pending));
      pending = '';
    } catch {
      // not complete yet
    }
  }
  return pending.trim() ? undefined : values;
}

/**
 * Where `actual` differs from `expected`, or undefined. Objects have the same keys (in any order);
 * arrays the same length (an expected last element "…" allows more); strings are equal once ids,
 * times and tokens are masked, and under keys like `id` or `createdAt` any string matches; the string
 * "…" matches any value; other values are equal.
 */
function jsonDifference(expected: unknown, actual: unknown, path: string, key = ''): string | undefined {
  if (expected === '…') return undefined;
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(expected) !== kind(actual)) return `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  if (Array.isArray(expected)) {
    const list = actual as unknown[];
    const open = expected.at(-1) === '…';
    const items = open ? expected.slice(0, -1) : expected;
    if (open ? list.length < items.length : list.length !== items.length) return `${path}: expected ${items.length}${open ? ' or more' : ''} items, got ${list.length}`;
    for (const [index, item] of items.entries()) {
      const difference = jsonDifference(item, list[index], `${path}[${index}]`, key);
      if (difference) return difference;
    }
    return undefined;
  }
  if (kind(expected) === 'object') {
    const want = expected as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    const missing = Object.keys(want).filter((name) => !(name in got));
    const extra = Object.keys(got).filter((name) => !(name in want));
    if (missing.length || extra.length) return `${path}: keys differ (missing ${JSON.stringify(missing)}, unexpected ${JSON.stringify(extra)})`;
    for (const name of Object.keys(want)) {
      const difference = jsonDifference(want[name], got[name], `${path}.${name}`, name);
      if (difference) return difference;
    }
    return undefined;
  }
  if (typeof expected === 'string') {
    if (VOLATILE_KEY.test(key) && (actual as string).length > 0) return undefined;
    return mask(expected) === mask(actual as string) ? undefined : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  return expected === actual ? undefined : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** Text: equal once masked, line ends and trailing blanks aside; "…" in the expected text stands for anything. */
function textDifference(expected: string, actual: string): string | undefined {
  const normalise = (text: string) =>
    mask(text.replace(/\r\n/g, '\n'))
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trim();
  const want = normalise(expected);
  const got = normalise(actual);
  const pattern = new RegExp(
    `^${want
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*?')}$`,
  );
  return pattern.test(got) ? undefined : `expected:\n${want}\ngot:\n${got}`;
}

/** How the output of a block differs from the output block shown after it, or undefined. */
export function matchOutput(expected: Fence, actual: string): string | undefined {
  if (expected.lang === 'json') {
    const want = jsonValues(expected.text);
    const got = jsonValues(actual);
    if (!want) return `the output block at ${expected.file}:${expected.line} is not JSON`;
    if (!got) return `the output is not JSON:\n${actual}`;
    if (want.length !== got.length) return `expected ${want.length} JSON values, got ${got.length}:\n${actual}`;
    for (const [index, value] of want.entries()) {
      const difference = jsonDifference(value, got[index], `value ${index + 1}`);
      if (difference) return `${difference}\nin:\n${actual}`;
    }
    return undefined;
  }
  return textDifference(expected.text, actual);
}

// ---------------------------------------------------------------- the reader's shell

/** One bash, fed block after block like a terminal the reader pastes into. */
class ReaderShell {
  private readonly child: ChildProcessWithoutNullStreams;
  private stdout = '';
  private stderr = '';
  private blocks = 0;

  constructor(
    private readonly scratch: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn('bash', ['--noprofile', '--norc'], { cwd: ROOT, env, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    // Unset variables are errors, a failing command anywhere in a pipeline counts, and every failing
    // command is reported (the shell goes on, as a terminal would).
    this.child.stdin.write(`set -u -o pipefail\ntrap 'echo "__FAILED__ line $LINENO (exit $?): $BASH_COMMAND" >&2' ERR\n`);
  }

  /** Runs `script` in the shell (sourced, so its variables stay) and returns what it printed. */
  async run(script: string): Promise<{ stdout: string; stderr: string; failures: string[] }> {
    const n = ++this.blocks;
    const file = join(this.scratch, `block-${n}.sh`);
    writeFileSync(file, `${script}\n`);
    const done = `__DONE_${n}__`;
    const [outStart, errStart] = [this.stdout.length, this.stderr.length];
    // Sourced with stdin from /dev/null, so no command can swallow what is written to the shell next.
    this.child.stdin.write(`source ${file} < /dev/null\necho ${done}; echo ${done} >&2\n`);
    const deadline = Date.now() + BLOCK_TIMEOUT_MS;
    while (!(this.stdout.includes(`${done}\n`, outStart) && this.stderr.includes(`${done}\n`, errStart))) {
      if (this.child.exitCode !== null) throw new Error(`the shell exited (${this.child.exitCode}):\n${this.stderr.slice(errStart)}`);
      if (Date.now() > deadline) throw new Error(`no end within ${BLOCK_TIMEOUT_MS} ms; so far:\n${this.stdout.slice(outStart)}\n${this.stderr.slice(errStart)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const stdout = this.stdout.slice(outStart, this.stdout.indexOf(`${done}\n`, outStart));
    const stderr = this.stderr.slice(errStart, this.stderr.indexOf(`${done}\n`, errStart));
    const failures = stderr.split('\n').filter((line) => line.startsWith('__FAILED__'));
    return { stdout, stderr, failures };
  }

  async close() {
    if (this.child.exitCode !== null) return;
    this.child.stdin.end('kill $(jobs -p) 2>/dev/null; exit 0\n');
    await once(this.child, 'exit');
  }
}

// ---------------------------------------------------------------- the tests

const files = documents();
const all = files.flatMap(fencesOf);
const isShell = (fence: Fence) => ['sh', 'bash', 'shell', 'console'].includes(fence.lang);
const runnable = all.filter((fence) => isShell(fence) && fence.flags.includes('runnable'));

describe('the documents', () => {
  it("list every file of docs/ in the README's map", () => {
    const inDocs = readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`);
    expect(files.slice(1).sort()).toEqual(inDocs.sort());
  });

  it('mark every shell block runnable or norun, and hold runnable examples in the README', () => {
    const unmarked = all.filter((fence) => isShell(fence) && !fence.flags.includes('runnable') && !fence.flags.includes('norun'));
    expect(unmarked.map((fence) => `${fence.file}:${fence.line}`)).toEqual([]);
    expect(runnable.filter((fence) => fence.file === 'README.md').length).toBeGreaterThanOrEqual(5);
  });

  it(`start their webhook receivers on port ${EXAMPLE_RECEIVER_PORT}, which the test replaces with a free one`, () => {
    const receivers = runnable.flatMap((fence) =>
      fence.text
        .split('\n')
        .filter((line) => line.includes('webhook-receiver.mjs'))
        .map((line) => `${fence.file}:${fence.line}: ${line}`),
    );
    expect(receivers.length).toBeGreaterThan(0);
    // Without --port the receiver listens on its default, 4001, which the test would not replace.
    expect(receivers.filter((line) => !/--port[ =]\d+/.test(line))).toEqual([]);
    const ports = runnable.flatMap((fence) => [...fence.text.matchAll(/--port[ =](\d+)/g)].map((match) => `${fence.file}:${fence.line}: ${match[1]}`));
    expect(ports.filter((port) => !port.endsWith(`: ${EXAMPLE_RECEIVER_PORT}`))).toEqual([]);
  });

  it('hold GraphQL that is valid against schema/schema.graphql', () => {
    const schema = buildSchema(readFileSync(join(ROOT, 'schema/schema.graphql'), 'utf8'));
    const problems = all
      .filter((fence) => fence.lang === 'graphql')
      .flatMap((fence) => {
        try {
          return validate(schema, parse(fence.text)).map((error) => `${fence.file}:${fence.line}: ${error.message}`);
        } catch (error) {
          return [`${fence.file}:${fence.line}: ${(error as Error).message}`];
        }
      });
    expect(problems).toEqual([]);
  });

  it('hold JSON that parses', () => {
    const problems = all
      .filter((fence) => fence.lang === 'json' && !fence.flags.includes('output'))
      .filter((fence) => jsonValues(fence.text) === undefined)
      .map((fence) => `${fence.file}:${fence.line}`);
    expect(problems).toEqual([]);
  });

  it('link to files and headings that exist', () => {
    const slugs = new Map<string, Set<string>>();
    const headingsOf = (file: string) => {
      if (!slugs.has(file)) {
        const seen = new Map<string, number>();
        const set = new Set<string>();
        let fenced = false;
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          if (/^```/.test(line)) fenced = !fenced;
          const heading = !fenced && /^#{1,6}[ \t](.*)$/.exec(line);
          if (!heading) continue;
          // GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
          const base = heading[1]!
            .trim()
            .toLowerCase()
            .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
            .replace(/ /g, '-');
          const count = seen.get(base) ?? 0;
          seen.set(base, count + 1);
          set.add(count ? `${base}-${count}` : base);
        }
        slugs.set(file, set);
      }
      return slugs.get(file)!;
    };
    const problems: string[] = [];
    const markdown = [...files, ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)];
    for (const file of new Set(markdown)) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?\n```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // http(s), mailto
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const absolute = path ? resolve(dirname(join(ROOT, file)), path) : join(ROOT, file);
        if (!existsSync(absolute)) problems.push(`${file}: ${target} (no such file)`);
        else if (anchor && absolute.endsWith('.md') && !headingsOf(absolute).has(anchor)) problems.push(`${file}: ${target} (no such heading in ${relative(ROOT, absolute)})`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('every runnable example, against a started server', () => {
  let server: ServerProcess;
  let shell: ReaderShell;
  let scratch: string;
  let serverEnv: Record<string, string>;
  let currentExtra: Record<string, string> = {};
  let receiverPort: number;
  const written: string[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'formloom-docs-'));
    // As the reader's `npm start` would run, on its own port and data dir (a real port, not 0: it stays
    // the same when an example restarts the server). The shell gets the DATA_DIR, where the CLI finds the
    // admin token, but not PORT: the CLI finds the server from the FORMLOOM_URL of the banner's line.
    serverEnv = { PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: join(scratch, 'data') };
    server = await startServer(serverEnv);
    receiverPort = await freePort();
    shell = new ReaderShell(scratch, { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', TMPDIR: scratch, DATA_DIR: serverEnv.DATA_DIR });
  }, 120_000);

  afterAll(async () => {
    await shell?.close();
    await server?.stop();
    killLeftovers();
    if (process.env.DOCS_EXAMPLES_OUT) writeFileSync(process.env.DOCS_EXAMPLES_OUT, written.join('\n'));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs the line the first start prints for the walk-through', async () => {
    const line = /^export BASE=.*$/m.exec(server.stdout())?.[0];
    expect(line, server.stdout()).toBeDefined();
    const { failures } = await shell.run(line!);
    expect(failures).toEqual([]);
    const { stdout } = await shell.run('echo "$BASE $FORMLOOM_URL $SITE $TEMPLATE ${KEY:0:3}"');
    expect(stdout.trim()).toBe(`${server.url} ${server.url} ${server.demo!.environmentId} ${server.demo!.templateId} fl_`);
  });

  for (const fence of runnable) {
    const index = all.indexOf(fence);
    const next = all[index + 1];
    const output = next?.flags.includes('output') ? next : undefined;
    it(
      `${fence.file}:${fence.line}`,
      async () => {
        if (fence.serverEnv && JSON.stringify(fence.serverEnv) !== JSON.stringify(currentExtra)) {
          // The prose asks the reader to restart the server with these settings: so does the test.
          expect(await server.stop()).toBe(0);
          currentExtra = fence.serverEnv;
          server = await startServer({ ...serverEnv, ...currentExtra });
        }
        const ran = await shell.run(withPort(fence.text, EXAMPLE_RECEIVER_PORT, receiverPort));
        const [stdout, stderr] = [ran.stdout, ran.stderr].map((text) => withPort(text, receiverPort, EXAMPLE_RECEIVER_PORT)) as [string, string];
        const { failures } = ran;
        written.push(`--- ${fence.file}:${fence.line}\n${stdout}${stderr ? `--- stderr\n${stderr}` : ''}`);
        expect(failures, `${stdout}\n${stderr}`).toEqual([]);
        if (output) expect(matchOutput(output, stdout)).toBeUndefined();
      },
      BLOCK_TIMEOUT_MS + 60_000,
    );
  }
});
