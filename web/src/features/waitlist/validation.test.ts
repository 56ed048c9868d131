import { describe, expect, it } from 'vitest';
import cases from '../../../../testdata/validation-cases.json';
import { validateWaitlist, type WaitlistValues } from './validation';

describe('waitlist rules follow the shared validation table', () => {
  it('has waitlist cases', () => {
    expect(cases.waitlist.length).toBeGreaterThan(5);
  });

  it.each(cases.waitlist.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(validateWaitlist(c.input as WaitlistValues)).toEqual(c.errors);
  });
});
