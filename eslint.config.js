// Shared lint rules for every package; each package runs `eslint src`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/artifacts/**', 'bench/results/**'] },
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
);
