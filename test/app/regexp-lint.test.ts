/**
 * The regular-expression check CI runs (npm run lint:regexp, eslint.regexp.config.js) refuses an expression that
 * backtracks super-linearly, and passes the linear rewrite: the class of the LongInput stall stays out of src/.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.ts';

const eslint = new ESLint({ cwd: fromRoot(''), overrideConfigFile: fromRoot('eslint.regexp.config.js') });

async function problemsIn(code: string) {
  const [result] = await eslint.lintText(code, { filePath: fromRoot('src/lint-fixture.ts') });
  return result!.messages.map((m) => m.ruleId);
}

describe('the regular-expression check', () => {
  it('refuses the quadratic trim LongInput answers had', async () => {
    expect(await problemsIn("export const trim = (s: string) => s.replace(/^\\s*\\n|\\s+$/g, '');\n")).toContain('regexp/no-super-linear-move');
  });

  it('refuses exchangeable quantifiers', async () => {
    expect(await problemsIn('export const bearer = (s: string) => /^Bearer\\s+(.+)$/i.exec(s);\n')).toContain('regexp/no-super-linear-backtracking');
  });

  it('passes linear expressions', async () => {
    expect(await problemsIn('export const bearer = (s: string) => /^Bearer\\s(.+)$/i.exec(s);\n')).toEqual([]);
  });
});
