import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import PrivacyPage from './PrivacyPage';

describe('Privacy Policy', () => {
  it('says in plain words how visits are counted', () => {
    const { container } = render(
      <MemoryRouter>
        <PrivacyPage />
      </MemoryRouter>,
    );
    const text = screen.getByText(/Visit counts:/).textContent ?? '';
    for (const words of [
      'We use no cookies and store nothing on your device',
      'a random value that we replace and delete every day',
      'your IP address and browser are not kept',
      'delete these records after 30 days',
      'Do Not Track or Global Privacy Control, we count nothing',
    ]) {
      expect(text).toContain(words);
    }
    // Still the spec's ten sections.
    expect(container.querySelectorAll('section')).toHaveLength(10);
  });
});
