import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// jsdom has no layout: give the app the browser APIs it calls.
window.scrollTo = (() => {}) as typeof window.scrollTo;
