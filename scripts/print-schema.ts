/** Prints the Pothos schema to schema/schema.graphql; with --check, fails when the file is stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../src/graphql/schema.ts';

const file = new URL('../schema/schema.graphql', import.meta.url);
const printed = `${printSchema(schema)}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // no printed schema yet
  }
  if (current !== printed) {
    console.error('schema/schema.graphql is stale: run `npm run schema:print` and commit it.');
    process.exit(1);
  }
  console.log('schema/schema.graphql is up to date');
} else {
  writeFileSync(file, printed);
  console.log('wrote schema/schema.graphql');
}
