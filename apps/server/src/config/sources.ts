import type { LoadedConfig } from './load-config.js';

/** Where a value of the effective configuration came from. */
export type ValueSource = { kind: 'default' } | { kind: 'file' } | { kind: 'env'; variable: string } | { kind: 'generated' };

export type KeyPath = readonly (string | number)[];

/** `default`, `file`, `env (REALTIME_PORT)` or `generated`: the words `config print` uses. */
export function describeSource(source: ValueSource): string {
  return source.kind === 'env' ? `env (${source.variable})` : source.kind;
}

/** The keys of the one app generated when none is configured; its other keys are the apps' defaults. */
const generatedKeys: ReadonlySet<string | number> = new Set(['id', 'key', 'secret', 'name']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value printed on one line: a scalar, an array of scalars (such as
 * `allowed_origins`), or an empty object or array.
 */
function isLeaf(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => typeof item !== 'object' || item === null);
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return true;
}

function presentIn(input: unknown, path: KeyPath): boolean {
  let node = input;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node !== undefined;
}

/**
 * The source of every leaf of the validated configuration: the environment
 * variable that set it, else the file (or what the environment put in its
 * place, such as REALTIME_APP_* replacing the app list), else the generated
 * app, else the schema's default. Leaves in document order.
 */
export function configSources(loaded: LoadedConfig): { path: KeyPath; source: ValueSource }[] {
  const found: { path: KeyPath; source: ValueSource }[] = [];
  const sourceOf = (path: KeyPath): ValueSource => {
    const variable = loaded.envSources.get(path.join('.'));
    if (variable) return { kind: 'env', variable };
    if (loaded.generatedApp && path[0] === 'applications' && path[1] === 0 && path.length === 3 && generatedKeys.has(path[2]!)) return { kind: 'generated' };
    return presentIn(loaded.input, path) ? { kind: 'file' } : { kind: 'default' };
  };
  // The configuration is schema-shaped (a few levels deep): no depth guard needed.
  const visit = (value: unknown, path: KeyPath): void => {
    if (value === undefined) return;
    if (isLeaf(value)) {
      found.push({ path, source: sourceOf(path) });
      return;
    }
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
    else for (const [key, item] of Object.entries(value as Record<string, unknown>)) visit(item, [...path, key]);
  };
  visit(loaded.config, []);
  return found;
}

/**
 * A key path as `config print` shows it, in the error messages' form
 * (`applications.0.secret`), with a key that holds a dot or other
 * punctuation quoted: `logging.scopes["socket.connection"]`.
 */
export function formatKeyPath(path: KeyPath): string {
  return path
    .map((segment, index) => {
      if (typeof segment === 'number' || /^[A-Za-z0-9_$-]+$/.test(segment)) return index === 0 ? String(segment) : `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join('');
}
