// Types of node-runtime.mjs for the TypeScript that imports it (its tests).
export declare const NODE_MAJOR_NEEDED: number;
export declare const NODE_PACKAGES: Readonly<Record<string, string>>;
export declare function nodeTooOldMessage(facts: {
  command: string;
  version?: string;
  execPath?: string;
  platform?: string;
  arch?: string;
  root?: string;
}): string | null;
export declare function exitIfNodeTooOld(command: string): void;
export declare function linkOwnNode(where?: { root?: string; platform?: string; arch?: string }): string | null;
