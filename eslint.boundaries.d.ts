// Types of eslint.boundaries.js, for test/architecture.test.ts.
export declare const ELEMENTS: ReadonlyArray<{ type: string; pattern: string }>;
export declare const ARROWS: Readonly<Record<string, readonly string[]>>;
export declare const boundariesConfig: object;
export declare const hostsEntryConfig: object;
