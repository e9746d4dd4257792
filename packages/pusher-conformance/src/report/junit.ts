import type { CaseResult } from '../case.js';
import type { Summary } from './summary.js';

const entities: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

/** XML 1.0 allows tab, newline, carriage return and printable characters; a server's answer quoted in a reason may hold others. */
function allowedInXml(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
}

function escapeXml(text: string): string {
  return [...text].filter(allowedInXml).join('').replace(/[<>&"']/g, (char) => entities[char]!);
}

/** JUnit XML: one testsuite per group, one testcase per case (name = id, the docs section in a property). */
export function formatJunit(results: readonly CaseResult[], summary: Summary): string {
  const groups = new Map<string, CaseResult[]>();
  for (const result of results) groups.set(result.group, [...(groups.get(result.group) ?? []), result]);
  const suites = [...groups].map(([group, members]) => {
    const failures = members.filter((result) => result.status === 'fail').length;
    const skipped = members.filter((result) => result.status === 'skip').length;
    const time = members.reduce((sum, result) => sum + result.durationMs, 0) / 1_000;
    const cases = members.map((result) => {
      const body =
        result.status === 'fail'
          ? `<failure message="${escapeXml(result.reason ?? 'failed')}">${escapeXml(`${result.title}\ndocs: ${result.docs}\n${result.reason ?? ''}`)}</failure>`
          : result.status === 'skip'
            ? `<skipped message="${escapeXml(result.reason ?? 'skipped')}"/>`
            : '';
      const properties = `<properties><property name="docs" value="${escapeXml(result.docs)}"/><property name="extension" value="${result.extension}"/></properties>`;
      return `    <testcase classname="pusher-conformance.${escapeXml(group)}" name="${escapeXml(result.id)}" time="${(result.durationMs / 1_000).toFixed(3)}">${properties}${body}</testcase>`;
    });
    return `  <testsuite name="${escapeXml(group)}" tests="${members.length}" failures="${failures}" skipped="${skipped}" errors="0" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="pusher-conformance" tests="${summary.total}" failures="${summary.failed}" skipped="${summary.skipped}" time="${(summary.durationMs / 1_000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
