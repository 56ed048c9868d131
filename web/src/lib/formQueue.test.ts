import { afterEach, describe, expect, it } from 'vitest';
import { QUEUE_FLAG, dropQueued, mayHaveQueued, queueForm, queuedForms } from './formQueue';

describe('mayHaveQueued', () => {
  afterEach(() => localStorage.clear());

  it('says no on a visit with nothing kept, so a form page leaves the queue closed', () => {
    expect(mayHaveQueued()).toBe(false);
  });

  it('says yes from the moment a form is kept until the queue is found empty', async () => {
    await queueForm({ key: 'k1', fn: 'contact-form-submit', body: { email: 'a@example.com' }, at: 1 });
    expect(localStorage.getItem(QUEUE_FLAG)).toBe('1');
    expect(mayHaveQueued()).toBe(true);
    await dropQueued('k1');
    expect(mayHaveQueued()).toBe(true); // the flag stays until someone looks
    expect(await queuedForms()).toEqual([]);
    expect(mayHaveQueued()).toBe(false);
  });

  it('says yes on a later visit whose flag an earlier one left', () => {
    localStorage.setItem(QUEUE_FLAG, '1');
    expect(mayHaveQueued()).toBe(true);
  });
});
