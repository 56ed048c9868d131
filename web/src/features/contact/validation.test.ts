import { describe, expect, it } from 'vitest';
import cases from '../../../../testdata/validation-cases.json';
import { validateContact, type ContactValues } from './validation';

describe('contact rules follow the shared validation table', () => {
  it('has contact cases', () => {
    expect(cases.contact.length).toBeGreaterThan(10);
  });

  it.each(cases.contact.map((c) => [c.name, c] as const))('contact: %s', (_name, c) => {
    expect(validateContact(c.input as ContactValues)).toEqual(c.errors);
  });
});
