import { Document, isCollection, isNode } from 'yaml';
import type { LoadedConfig } from './load-config.js';
import { configMasker, mask, maskConfig } from './mask-secrets.js';
import { secretsInValue } from './safe-config-errors.js';
import { configSources, describeSource, formatKeyPath, type KeyPath } from './sources.js';

/** The validated configuration as `config print` shows it: secrets masked, a source for every value. */
export interface EffectiveConfig {
  file: string | null;
  config: unknown;
  /** Leaves in document order, with the masked key path (a key is cut like a value if it holds a secret). */
  sources: { path: KeyPath; source: string }[];
  generatedApp: boolean;
}

export function effectiveConfig(loaded: LoadedConfig, file: string | undefined): EffectiveConfig {
  // Every secret of the file and the environment (both are in `input`), and the generated app's.
  const known = secretsInValue(loaded.input);
  secretsInValue(loaded.config.applications, known);
  const masker = configMasker(known);
  return {
    file: file ?? null,
    config: maskConfig(masker, loaded.config),
    sources: configSources(loaded).map(({ path, source }) => ({ path: path.map((segment) => (typeof segment === 'string' ? masker.secrets(segment) : segment)), source: describeSource(source) })),
    generatedApp: loaded.generatedApp,
  };
}

/** `{ "file", "config", "sources": { "<key path>": "<source>" } }`, for scripts. */
export function renderJson(effective: EffectiveConfig): string {
  const sources = Object.fromEntries(effective.sources.map(({ path, source }) => [formatKeyPath(path), source]));
  return `${JSON.stringify({ file: effective.file, config: effective.config, sources }, null, 2)}\n`;
}

/** The configuration as YAML, each value followed by `# <source>`: for people. */
export function renderYaml(effective: EffectiveConfig): string {
  const document = new Document(effective.config);
  const header = [
    ` realtime-server: effective configuration (${effective.file ? `file ${effective.file}` : 'no config file'}).`,
    ` Secrets are shown as ${mask}. After each value, where it came from: file, env (VARIABLE) or default.`,
  ];
  if (effective.generatedApp) {
    header.push(' generated: no applications are configured, so the server makes one up at each start; the one below was made up for this printout only.');
  }
  document.commentBefore = header.join('\n');
  for (const { path, source } of effective.sources) {
    const node = document.getIn(path, true);
    if (!isNode(node)) continue;
    node.comment = ` ${source}`;
    // Arrays of scalars and empty collections on one line, so that the comment sits after the value.
    if (isCollection(node)) node.flow = true;
  }
  return document.toString({ lineWidth: 0 });
}
