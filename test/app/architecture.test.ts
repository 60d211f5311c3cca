/**
 * The rules of the module graph (docs/architecture.md, "Layout"):
 * - dependency-cruiser (.dependency-cruiser.cjs) finds no import cycle and no crossed boundary in src/,
 *   type-only imports included; on a fixture with a type-only cycle and a service importing GraphQL it
 *   finds both, so the check can fail;
 * - no code outside src/components/ names a component type: everything type-specific is a hook of the
 *   type's module (src/components/module.ts). Comments and prose (a description mentioning a type) may.
 *   The one place a type's GraphQL member must be named by hand, the export's form query, selects every
 *   member of the Component union.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { COMPONENT_TYPES } from '../../src/components/catalogue.ts';
import { ROOT } from '../../src/paths.ts';

const run = promisify(execFile);
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/** Runs dependency-cruiser with the project's rules over `target` in `cwd`; its exit code and report. */
async function cruise(cwd: string, target: string): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await run(DEPCRUISE, ['--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err', target], { cwd });
    return { code: 0, report: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, report: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('the module graph', () => {
  it('has no import cycle and crosses no boundary, type imports included', async () => {
    const { code, report } = await cruise(ROOT, 'src');
    expect(report, report).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  });

  it('reports a cycle made only of type imports, and a service importing GraphQL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'formloom-depcruise-'));
    try {
      mkdirSync(join(dir, 'src', 'shapes'), { recursive: true });
      mkdirSync(join(dir, 'src', 'graphql'), { recursive: true });
      writeFileSync(join(dir, 'tsconfig.json'), readFileSync(join(ROOT, 'tsconfig.json')));
      writeFileSync(join(dir, 'src', 'shapes', 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b?: B }\n");
      writeFileSync(join(dir, 'src', 'shapes', 'b.ts'), "import type { A } from './a.ts';\nexport interface B { a?: A }\n");
      writeFileSync(join(dir, 'src', 'graphql', 'builder.ts'), 'export const builder = {};\n');
      writeFileSync(join(dir, 'src', 'shapes', 'shapes.service.ts'), "import type { builder } from '../graphql/builder.ts';\nexport type Builder = typeof builder;\n");
      const { code, report } = await cruise(dir, 'src');
      expect(code).not.toBe(0);
      expect(report).toMatch(/no-cycles: src\/shapes\/(a|b)\.ts/);
      expect(report).toMatch(/services-no-graphql-or-http: src\/shapes\/shapes\.service\.ts → src\/graphql\/builder\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- component type names

/** Files that may name component types: the modules themselves, the first start's demo data, tests, generated code. */
const MAY_NAME_TYPES = [/^src\/components\//, /^src\/bootstrap\.ts$/, /\.test\.ts$/, /^src\/graphql\/generated\//];

/**
 * Where code in `text` names one of `types`: an identifier or property name, a string that is the name,
 * or a name quoted inside a string or template (SQL, `'X'`) or in a type's CSS class (`fl-t-X`). A
 * string of prose (it holds a blank) may mention a type; so may comments.
 */
export function componentTypeNames(file: string, text: string, types: readonly string[]): string[] {
  // A type named like a JavaScript global (Number, Date) is found only as a string: the identifier is the global's.
  const known = new Set(types.filter((type) => !(type in globalThis)));
  const names = new Set(types);
  const quoted = new RegExp(`['"](${types.join('|')})['"]|fl-t-(${types.join('|')})\\b`);
  const word = new RegExp(`\\b(${[...known].join('|')})\\b`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${file}:${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      if (known.has(node.text)) at(node, node.text);
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const value = node.text;
      const prose = /\s/.test(value);
      if (names.has(value) || quoted.test(value) || (!prose && word.test(value))) at(node, JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}…` : value));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('component types', () => {
  it('are named in code only by their modules in src/components/', () => {
    const found = sourceFiles(join(ROOT, 'src'))
      .map((path) => relative(ROOT, path))
      .filter((file) => !MAY_NAME_TYPES.some((pattern) => pattern.test(file)))
      .flatMap((file) => componentTypeNames(file, readFileSync(join(ROOT, file), 'utf8'), COMPONENT_TYPES));
    expect(found).toEqual([]);
  });

  it('are found where code switches on them, and not in comments or prose', () => {
    const code = [
      "if (component.type === 'FileUploader') return;",
      'const styles = { Dropdown: 1 };',
      'theme.componentStyles.NextButton;',
      "const query = sql`select 1 where a->>'type' = 'Disclaimer'`;",
      'const css = `.fl-t-Header h1 { margin: 0 }`;',
      "const list = ['ShortInput'];",
      '// A Header takes no answer.',
      "const description = 'Choice types (Dropdown, GraphicOptions): every option.';",
    ].join('\n');
    expect(componentTypeNames('sample.ts', code, COMPONENT_TYPES).map((hit) => hit.replace(/^sample\.ts:/, ''))).toEqual([
      '1: "FileUploader"',
      '2: Dropdown',
      '3: NextButton',
      `4: ${JSON.stringify("select 1 where a->>'type' = 'Disclaimer'")}`,
      `5: ${JSON.stringify('.fl-t-Header h1 { margin: 0 }')}`,
      '6: "ShortInput"',
    ]);
  });
});

// ---------------------------------------------------------------- function length

/** Longest function allowed in src/ (docs/development.md, "Code"). */
const MAX_FUNCTION_LINES = 120;
/** Longest function allowed in src/public/: its handlers are small functions over the request context. */
const MAX_PUBLIC_FUNCTION_LINES = 80;
/** Not held to it: generated code. */
const LENGTH_EXEMPT = [/^src\/graphql\/generated\//];

/** Every function (declaration, method, arrow, accessor) in `text` longer than `max` lines, as `file:line name (n lines)`. */
export function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)';
      if (lines > max) found.push(`${file}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('functions in src/', () => {
  it(`are at most ${MAX_FUNCTION_LINES} lines long`, () => {
    const found = sourceFiles(join(ROOT, 'src'))
      .map((path) => relative(ROOT, path))
      .filter((file) => !LENGTH_EXEMPT.some((pattern) => pattern.test(file)))
      .flatMap((file) => longFunctions(file, readFileSync(join(ROOT, file), 'utf8'), file.startsWith('src/public/') ? MAX_PUBLIC_FUNCTION_LINES : MAX_FUNCTION_LINES));
    expect(found).toEqual([]);
  });

  it(`in src/public/ are at most ${MAX_PUBLIC_FUNCTION_LINES} lines long`, () => {
    const files = sourceFiles(join(ROOT, 'src', 'public')).map((path) => relative(ROOT, path));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => longFunctions(file, readFileSync(join(ROOT, file), 'utf8'), MAX_PUBLIC_FUNCTION_LINES))).toEqual([]);
  });

  it('are measured whatever their form: declarations, arrows, methods, nested ones', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  step(${i});`).join('\n');
    const code = [
      `function declared() {\n${body(3)}\n}`,
      `export function long() {\n${body(4)}\n}`,
      `const arrow = () => {\n${body(4)}\n};`,
      `class A {\n  method() {\n${body(4)}\n  }\n}`,
      `function outer() {\n  const inner = function () {\n${body(4)}\n  };\n}`,
    ].join('\n');
    expect(longFunctions('sample.ts', code, 5)).toEqual([
      'sample.ts:6 long (6 lines)',
      'sample.ts:12 arrow (6 lines)',
      'sample.ts:19 method (6 lines)',
      'sample.ts:26 outer (8 lines)',
      'sample.ts:27 inner (6 lines)',
    ]);
  });
});
