// ESLint flat config: typescript-eslint's recommended rules everywhere, React hooks rules for
// the app, and the import direction of ARCHITECTURE.md enforced with no-restricted-imports.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The top-level rooms outside the browser's src/. */
const ROOMS = ['core', 'shared', 'server', 'skydata', 'cli', 'bench', 'scripts'];
const notBrowser = ['server', 'skydata', 'cli', 'bench', 'scripts'].map((room) => `**/${room}/**`);
/** Every room but `room` itself, and the browser's src/. */
const outside = (room) => [...ROOMS.filter((other) => other !== room).map((other) => `**/${other}/**`), '**/src/**'];

const forbid = (...groups) => [
  'error',
  {
    patterns: groups.map((group) => ({
      group: [group],
      message:
        'docs/architecture.md: imports flow src/app → src/globe → src/workers → core → wasm; ' +
        'server and skydata → shared, core; cli and bench → server, skydata, core',
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
    // Code that runs anywhere (browser, workers, Node): the wasm bindings and the sky's formats.
    files: ['core/**'],
    rules: {
      'no-restricted-imports': forbid(...outside('core'), 'react*'),
    },
  },
  {
    // The contract between the app and the server: it imports nothing of the project.
    files: ['shared/**'],
    rules: { 'no-restricted-imports': forbid(...outside('shared'), 'react*') },
  },
  {
    // The decoder workers: the browser's, and the same worker on Node threads for the command line.
    files: ['src/workers/**'],
    rules: {
      'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/service-worker/**', ...notBrowser, 'react*'),
    },
  },
  {
    // The service worker stands beside the app: it reads the data repository's path from the
    // core; the app reads its cache names (src/service-worker/caches.ts).
    files: ['src/service-worker/**'],
    rules: { 'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/workers/**', ...notBrowser, 'react*') },
  },
  {
    files: ['src/globe/**'],
    rules: { 'no-restricted-imports': forbid('**/app/**', '**/service-worker/**', ...notBrowser, 'react*') },
  },
  {
    // The layers decode through the pool the globe hands them (LayerContext.decoder): only
    // Globe.ts takes the page's pool from src/workers/browser-pool.ts.
    files: ['src/globe/layers/**', 'src/globe/tiles/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbid('**/app/**', '**/service-worker/**', ...notBrowser, 'react*')[1].patterns,
            {
              group: ['**/workers/browser-pool'],
              message: 'docs/globe-layers.md: a layer decodes in the pool of its context (LayerContext.decoder)',
            },
          ],
        },
      ],
    },
  },
  {
    // The app reaches the workers through the globe, and the server only over HTTP.
    files: ['src/app/**'],
    rules: { 'no-restricted-imports': forbid('**/workers/**', ...notBrowser) },
  },
  {
    files: ['server/**'],
    rules: {
      'no-restricted-imports': forbid(
        '**/src/**',
        '**/skydata/**',
        '**/cli/**',
        '**/bench/**',
        '**/scripts/**',
        'react*',
      ),
    },
  },
  {
    // The sky builder and the import's room (skydata/import/).
    files: ['skydata/**'],
    rules: {
      'no-restricted-imports': forbid(
        '**/src/**',
        '**/server/**',
        '**/cli/**',
        '**/bench/**',
        '**/scripts/**',
        'react*',
      ),
    },
  },
  {
    // The command line and its benches sit above the server and the data builder; the benches
    // also run the decoder's worker on Node threads (src/workers/node-pool.ts), the one door
    // from outside src/ into the browser's folder.
    files: ['cli/**', 'bench/**'],
    rules: {
      'no-restricted-imports': forbid('**/app/**', '**/globe/**', '**/service-worker/**', '**/scripts/**', 'react*'),
    },
  },
);
