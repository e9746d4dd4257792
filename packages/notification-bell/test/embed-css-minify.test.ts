import { describe, expect, it } from 'vitest';
import { minifyCss, minifyCssTemplates } from '../scripts/minify-css-templates.js';

describe('css`` template minification (self-contained build)', () => {
  it('drops comments and whitespace where CSS never needs it', () => {
    expect(minifyCss(`
      /* the item's box */
      :host > .a , .b {
        color : red;
        margin: 0 4px;
      }
      @media (min-width: 600px) { .x { color: red !important; } }
    `)).toBe(':host>.a, .b{color :red;margin:0 4px}@media (min-width:600px){.x{color:red !important}}');
  });

  it('keeps strings, calc() operators, fallbacks after commas and descendant pseudo-classes as written', () => {
    expect(minifyCss(`.a :hover { content: " ; { }  /* x */ "; width: calc(100% - 2px + 1em); font: var(--f, 14px/1.4 system-ui, sans-serif); }`)).toBe(
      `.a :hover{content:" ; { }  /* x */ ";width:calc(100% - 2px + 1em);font:var(--f, 14px/1.4 system-ui, sans-serif)}`,
    );
    expect(minifyCss(`[data-x='a  b'] ~ .c + .d { color: red }`)).toBe(`[data-x='a  b'] ~ .c + .d{color:red}`);
  });

  it('rewrites only css`` templates without interpolations or backslashes', () => {
    const source = 'const a = css`\n  .a { color: red; }\n`;\nconst b = css`.b { color: ${x}; }`;\nconst c = html`<p> a </p>`;\nconst d = css`.d::before { content: "\\\\2022"; }`;';
    expect(minifyCssTemplates(source)).toBe('const a = css`.a{color:red}`;\nconst b = css`.b { color: ${x}; }`;\nconst c = html`<p> a </p>`;\nconst d = css`.d::before { content: "\\\\2022"; }`;');
  });
});
