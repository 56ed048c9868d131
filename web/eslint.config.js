// ESLint for the web app: the recommended rules of ESLint, typescript-eslint
// and React's hooks. `make test` runs it (`npm run lint`).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { defineConfig } from 'eslint/config'

export default defineConfig([
  { ignores: ['node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // A parameter named _x is one a signature needs but the body does not (a stand-in fetch).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // lib/ is below the screens: it may not climb up into the components or the features.
    files: ['src/lib/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/components/**', '**/features/**'], message: 'lib/ imports nothing from components/ or features/.' }] }],
    },
  },
])
