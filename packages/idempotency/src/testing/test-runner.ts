/**
 * What the conformance suite needs from a test runner, declared here so this kit imports none:
 * pass vitest's namespace (`import * as vitest from 'vitest'`), or any runner of this shape.
 */
export interface TestRunner {
  describe(name: string, body: () => void): void;
  /** `timeoutMs` replaces the runner's default for this test. */
  it(name: string, test: () => Promise<void>, timeoutMs?: number): void;
  afterEach(hook: () => Promise<void>): void;
  expect: Expect;
}

export interface Expect {
  /** `message` is shown when the assertion fails. */
  (actual: unknown, message?: string): Matchers;
}

/** The matchers the suite uses, with their usual meaning (`toEqual`: deep equality, `toMatchObject`: a subset). */
export interface Matchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
}
