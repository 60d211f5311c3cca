/**
 * fast-check's seed, fixed (FC_SEED, default 42). @fast-check/vitest names a property test after its
 * seed (`… (with seed=N)`); a random seed renames it on every run, so a runner that selects tests by
 * name (Stryker's per-test coverage) never finds it again. vitest.mutate.config.ts loads this file.
 */
import { fc } from '@fast-check/vitest';

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(process.env.FC_SEED ?? 42) });
