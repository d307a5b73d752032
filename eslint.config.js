// ESLint flat config: typescript-eslint's recommended rules everywhere, React hooks rules for
// the app, and the import direction of ARCHITECTURE.md enforced with no-restricted-imports.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const forbid = (...groups) => [
  'error',
  {
    patterns: groups.map((group) => ({
      group: [group],
      message:
        'ARCHITECTURE.md: imports flow app → globe → workers → core → wasm; server → shared/core; ' +
        'skydata → shared/core; cli → server/skydata/core',
    })),
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'build/', 'dist/', 'var/', 'test-results/', 'playwright-report/', 'assembly/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/core/**'],
    rules: { 'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/workers/**', '**/server/**', 'react*') },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/workers/**', '**/server/**', '**/core/**'),
    },
  },
  {
    files: ['workers/**'],
    rules: { 'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/server/**', 'react*') },
  },
  {
    // The service worker stands beside the app: it reads the data repository's path from the
    // core; the app reads its cache names (src/service-worker/caches.ts).
    files: ['src/service-worker/**'],
    rules: { 'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/workers/**', '**/server/**', 'react*') },
  },
  { files: ['src/globe/**'], rules: { 'no-restricted-imports': forbid('**/app/**', '**/server/**', 'react*') } },
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/workers/**', 'react*') },
  },
  {
    // The app reaches the workers through the globe, and the server only over HTTP.
    files: ['src/app/**'],
    rules: {
      'no-restricted-imports': forbid('**/server/**', '**/workers/**', '**/cli/**', '**/skydata/**', '**/scripts/**'),
    },
  },
  {
    files: ['skydata/**'],
    rules: {
      'no-restricted-imports': forbid(
        '**/server/**',
        '**/app/**',
        '**/globe/**',
        '**/workers/**',
        '**/cli/**',
        '**/scripts/**',
        'react*',
      ),
    },
  },
  {
    // The command line sits above the server and the data builder; workers/node-pool.ts runs the
    // decoder (and the bench's probes) on Node worker threads for it.
    files: ['cli/**'],
    rules: { 'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/scripts/**', 'react*') },
  },
);
