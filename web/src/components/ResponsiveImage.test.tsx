import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ResponsiveImage, imageSet } from './ResponsiveImage';

describe('ResponsiveImage', () => {
  it('reserves its size, loads lazily with srcset, and shows the placeholder until loaded', () => {
    const set = imageSet('team-founder');
    render(<ResponsiveImage src={set.src} srcSet={set.srcSet} sizes="160px" placeholder={set.placeholder} alt="Portrait" width={200} height={200} />);
    const img = screen.getByRole('img', { name: 'Portrait' });
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('width', '200');
    expect(img).toHaveAttribute('srcset', '/images/team-founder-200.webp 200w, /images/team-founder-400.webp 400w');
    const frame = img.parentElement!;
    expect(frame).toHaveAttribute('data-image-state', 'loading');
    expect(frame.style.backgroundImage || getComputedStyle(frame).backgroundImage).toContain('team-founder-placeholder.webp');
    fireEvent.load(img);
    expect(frame).toHaveAttribute('data-image-state', 'loaded');
  });

  it('keeps the placeholder when the image fails, and loads eagerly above the fold', () => {
    render(<ResponsiveImage src="/images/missing.webp" alt="Hero" width={640} height={440} eager />);
    const img = screen.getByRole('img', { name: 'Hero' });
    expect(img).toHaveAttribute('loading', 'eager');
    fireEvent.error(img);
    expect(img.parentElement).toHaveAttribute('data-image-state', 'failed');
    expect(img.style.opacity).toBe('0');
  });
});
