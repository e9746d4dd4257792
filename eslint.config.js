// Shared lint rules for the whole repository: each workspace package runs `eslint .` (sources,
// tests, scripts and configs alike) and the root runs `eslint --no-warn-ignored eslint.config.js scripts`
// for its own files. Import cycles are checked by scripts/check-cycles.mjs (it sees type-only
// imports, across packages too).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/artifacts/**',
      '**/coverage/**',
      '**/.turbo/**',
      'bench/results/**',
      // tsup writes its bundled config next to tsup.config.ts for the length of a build, and turbo
      // runs a package's lint beside its build: a file listed and gone before it is read fails lint.
      '**/*.bundled_*.{mjs,cjs}',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Packages talk only through each other's public exports.
      'no-restricted-imports': ['error', { patterns: ['@org/*/src/*', '@org/*/dist/*'] }],
    },
  },
  // Plain JavaScript (build, bench and maintenance scripts) runs on Node; TypeScript files get
  // their globals from their tsconfig's `lib`/`types`, which the compiler checks.
  {
    files: ['**/*.{js,mjs,cjs}'],
    ignores: ['apps/demo/public/**'],
    languageOptions: { globals: globals.node },
  },
  // Served as is to the demo's browser pages.
  {
    files: ['apps/demo/public/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
