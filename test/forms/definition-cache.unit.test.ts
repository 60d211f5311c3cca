/** The stored steps parsed once per form version (src/forms/definition-cache.ts). */
import { describe, expect, it } from 'vitest';
import { stepsOf } from '../../src/forms/definition-cache.ts';

const text = (name: string) => JSON.stringify([{ id: 's1', name, components: [{ id: 'c1', type: 'ShortInput', content: { question: 'Q?' } }] }]);

describe('stepsOf', () => {
  it('parses a version once: the same text gives the same steps', () => {
    const first = stepsOf('form-a', 1, text('One'));
    expect(first[0]!.name).toBe('One');
    expect(stepsOf('form-a', 1, text('One'))).toBe(first);
  });

  it('parses again when the text is not the one kept for the version, and apart per version and form', () => {
    const kept = stepsOf('form-b', 1, text('One'));
    expect(stepsOf('form-b', 1, text('Changed'))[0]!.name).toBe('Changed');
    expect(stepsOf('form-b', 2, text('One'))).not.toBe(kept);
    expect(stepsOf('form-c', 1, text('One'))).not.toBe(kept);
  });

  it('hands out frozen steps, so no request changes what the next one reads', () => {
    const steps = stepsOf('form-d', 1, text('One'));
    expect(() => {
      steps[0]!.components[0]!.content.question = 'Other';
    }).toThrow(TypeError);
  });

  it('keeps a bounded number of versions, the most recently used', () => {
    const early = stepsOf('form-e', 1, text('One'));
    for (let version = 1; version <= 300; version++) stepsOf('form-f', version, text('One'));
    expect(stepsOf('form-e', 1, text('One'))).not.toBe(early);
  });
});
