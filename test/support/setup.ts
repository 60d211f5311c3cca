/** Every test file: what test/support/cleanup.ts collected runs when the file ends. */
import { afterAll } from 'vitest';
import { runFileEnd } from './cleanup.ts';

afterAll(runFileEnd);
