/**
 * What the store conformance suite needs from a test runner, declared here so that this kit imports none:
 * callers pass vitest's namespace (`import * as vitest` of the vitest module), which has this
 * shape, or any runner that does. Only what the suite calls is listed, so the interface says what
 * a runner must offer.
 */
export interface TestRunner {
  describe(name: string, body: () => void): void;
  it: It;
  beforeAll(hook: () => Promise<void>): void;
  afterAll(hook: () => Promise<void>): void;
  expect: Expect;
}

export interface It {
  (name: string, test: () => Promise<void>): void;
  /** One test per case; `%s` in the name is replaced by the case's first value. */
  each<Case extends readonly unknown[]>(cases: readonly Case[]): (name: string, test: (...values: [...Case]) => Promise<void>) => void;
}

export interface Expect {
  (actual: unknown): Matchers;
  /** Matches any string that contains `expected`, inside `toEqual` or `toMatchObject`. */
  stringContaining(expected: string): unknown;
}

/** The matchers the suite uses, with their usual meaning (`toEqual`: deep equality, `toMatchObject`: a subset). */
export interface Matchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatch(expected: RegExp): void;
  toMatchObject(expected: object): void;
  toBeNull(): void;
  not: Matchers;
  /** The matchers applied to the reason a promise rejected with. */
  rejects: { toMatchObject(expected: object): Promise<void> };
}
