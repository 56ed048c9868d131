import { describe, expect, it } from 'vitest';
import { count, localPhone, subjectLabel } from './words';

describe('words', () => {
  it('counts in the right number', () => {
    expect(count(1, 'operator')).toBe('1 operator');
    expect(count(0, 'visitor')).toBe('0 visitors');
    expect(count(4, 'session')).toBe('4 sessions');
    expect(count(1, 'person', 'people')).toBe('1 person');
  });
  it('shows subjects by their labels', () => {
    expect(subjectLabel('careers')).toBe('Careers');
    expect(subjectLabel('general Inquiry')).toBe('General Inquiry');
    expect(subjectLabel('something new')).toBe('something new');
  });
  it('writes Zambian numbers the local way', () => {
    expect(localPhone('+260971234567')).toBe('097 123 4567');
    expect(localPhone('+260211123456')).toBe('0211 123 456');
    expect(localPhone('12345')).toBe('12345');
    expect(localPhone('')).toBe('');
  });
});
