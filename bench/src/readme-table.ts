const startMarker = '<!-- latest:start';
const endMarker = '<!-- latest:end -->';

/** What the README says about the machine beyond the figures a run collects. */
export const readmeConditions =
  'Conditions: the machine line below. The committed table was taken on a 2-vCPU Firecracker VM shared with other agents ' +
  'running test suites on the same two CPUs; single runs vary by up to 2x (the JSON keeps every run), so read the ' +
  'interleaved medians and the per-core rows.';

/**
 * The README with the block between the latest:start and latest:end markers
 * replaced by `report` (a results Markdown file: its title is dropped and its
 * sections become level-4 headings); undefined when the markers are missing.
 */
export function withLatestTable(readme: string, report: string): string | undefined {
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start < 0 || end < start) return undefined;
  const afterStart = readme.indexOf('-->', start) + 3;
  const body = report
    .replace(/^# .*\n+/, '')
    .trim()
    .replace(/^## /gm, '#### ');
  return `${readme.slice(0, afterStart)}\n${readmeConditions}\n\n${body}\n${readme.slice(end)}`;
}
