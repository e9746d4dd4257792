/**
 * What the conformance suites need from a test runner, declared here so that this kit imports none:
 * callers pass vitest's namespace (`import * as vitest` of the vitest module), which has this
 * shape, or any runner that does. Only what the suites call is listed, so the interface says what
 * a runner must offer.
 */
export interface TestRunner {
  describe: Describe;
  /** `timeoutMs` replaces the runner's default for this test. */
  it(name: string, test: () => Promise<void>, timeoutMs?: number): void;
  afterEach(hook: () => Promise<void>): void;
  expect: Expect;
}

export interface Describe {
  (name: string, body: () => void): void;
  /** The suite is skipped (reported, not run) when `condition` is true. */
  skipIf(condition: boolean): (name: string, body: () => void) => void;
}

export interface Expect {
  /** `message` is shown when the assertion fails. */
  (actual: unknown, message?: string): Matchers;
  /** Reads `actual` again until the matcher passes or `timeout` ms passed. */
  poll(actual: () => unknown, options?: { timeout?: number; interval?: number }): PollMatchers;
  fail(message: string): never;
}

/** The matchers the suites use, with their usual meaning (`toEqual`: deep equality, `toMatchObject`: a subset). */
export interface Matchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toBeUndefined(): void;
  toBeGreaterThan(expected: number): void;
  toBeLessThanOrEqual(expected: number): void;
}

export interface PollMatchers {
  toBe(expected: unknown): Promise<void>;
}
