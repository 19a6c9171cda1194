import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ADAPTERS = ['**/storage/sqlite/**', '**/storage/postgres/**', '**/storage/open-store*'];
// gitignore semantics: a file under an excluded folder cannot be let back in, so the port's files are named by omission.
const STORAGE_INTERNALS = ['**/storage/*.ts', '!**/storage/store.ts', '!**/storage/store-error.ts', ...ADAPTERS];
const CLI = ['**/cli/**'];
const API = [...ADAPTERS, ...CLI];

/** A config block forbidding `files` to import any of the pattern groups. */
function layer(files, groups, message, ignores = []) {
  return [{ files: [files], ignores, rules: { 'no-restricted-imports': ['error', { patterns: groups.map((group) => ({ group, message })) }] } }];
}

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'dist', 'dist.*', 'web/dist', 'coverage', '.venv-datahub*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // The direction of imports (docs/architecture.md). ESLint's own no-restricted-imports says it, with no plugin to
  // keep up. A later block replaces an earlier one's options for the files both match, so each block lists all it forbids.
  ...layer('src/api/**', [API], 'The API layer calls services; only src/app.ts picks a storage adapter.'),
  ...layer(
    'src/api/restli/**',
    [API, ['**/graphql/**']],
    'Rest.li and GraphQL share the domain, never each other; only src/app.ts picks a storage adapter.',
  ),
  ...layer(
    'src/api/graphql/**',
    [API, ['**/restli/**']],
    'Rest.li and GraphQL share the domain, never each other; only src/app.ts picks a storage adapter.',
  ),
  ...layer(
    'src/tasks/**',
    [STORAGE_INTERNALS, ['**/api/**', ...CLI]],
    'Tasks see the storage port (store.ts, ports/), never its adapters or helpers.',
  ),
  ...layer(
    'src/{catalog,auth}/**',
    [STORAGE_INTERNALS, ['**/api/**', '**/tasks/**', ...CLI]],
    'The domain sees the storage port only, and nothing above it.',
  ),
  ...layer('src/storage/**', [['**/api/**', '**/tasks/**', '**/auth/**', '**/catalog/**', ...CLI]], 'Storage knows no layer above it.', [
    'src/storage/open-store.ts',
  ]),
);
