/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The app is built into the Go package that embeds it (internal/webapp/dist).
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: '../internal/webapp/dist',
    emptyOutDir: true,
    sourcemap: false,
    assetsInlineLimit: 2048,
  },
  server: {
    // `npm run dev` talks to a `salaula serve` on :8080.
    proxy: {
      '/auth/v1': 'http://localhost:8080',
      '/functions/v1': 'http://localhost:8080',
      '/storage/v1': 'http://localhost:8080',
      '/config.json': 'http://localhost:8080',
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
