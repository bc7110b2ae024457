// Types of service-heap.mjs for the TypeScript that imports it (scripts/stack.ts, the benches, its tests).
export declare const SERVICE_HEAP_FLAGS: readonly string[];
export declare function serviceHeapArgs(nodeOptions?: string): string[];
export declare function runsServe(args: readonly string[]): boolean;
