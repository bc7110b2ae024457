/**
 * What grew between two heap snapshots of the Station (bench/soak.ts --heap-snapshots):
 *
 *   npx tsx bench/soak-heap.ts WARM.heapsnapshot END.heapsnapshot [--top 30]
 *
 * Counts the live objects of each snapshot by kind and constructor (a heap snapshot holds only
 * what is reachable: V8 collects garbage before it writes one) and prints those whose bytes grew
 * most, with the count and the bytes at each end. Strings are grouped by their first characters,
 * so that a text kept once per device shows as a row.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface HeapSnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapGroup {
  count: number;
  bytes: number;
}

/** Live objects by "kind name" (a string's name is its first 40 characters). */
export function heapGroups(file: HeapSnapshotFile): Map<string, HeapGroup> {
  const fields = file.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = file.snapshot.meta.node_types[0];
  const groups = new Map<string, HeapGroup>();
  for (let i = 0; i < file.nodes.length; i += width) {
    const type = types[file.nodes[i + typeAt]!] ?? '?';
    let name = file.strings[file.nodes[i + nameAt]!] ?? '?';
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string')
      name = JSON.stringify(name.slice(0, 40));
    const key = `${type} ${name}`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += file.nodes[i + sizeAt]!;
    groups.set(key, group);
  }
  return groups;
}

export interface HeapGrowth {
  key: string;
  before: HeapGroup;
  after: HeapGroup;
}

/** The groups whose bytes grew most from `before` to `after`, most first. */
export function heapGrowth(before: Map<string, HeapGroup>, after: Map<string, HeapGroup>, top: number): HeapGrowth[] {
  const none = { count: 0, bytes: 0 };
  return [...after.keys()]
    .map((key) => ({ key, before: before.get(key) ?? none, after: after.get(key)! }))
    .sort((a, b) => b.after.bytes - b.before.bytes - (a.after.bytes - a.before.bytes))
    .slice(0, top);
}

function total(groups: Map<string, HeapGroup>): HeapGroup {
  let count = 0;
  let bytes = 0;
  for (const group of groups.values()) {
    count += group.count;
    bytes += group.bytes;
  }
  return { count, bytes };
}

const read = (path: string) => heapGroups(JSON.parse(readFileSync(path, 'utf8')) as HeapSnapshotFile);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

if (process.argv[1]?.endsWith('soak-heap.ts')) {
  const { values, positionals } = parseArgs({
    options: { top: { type: 'string', default: '30' } },
    allowPositionals: true,
  });
  if (positionals.length !== 2) {
    console.error('usage: npx tsx bench/soak-heap.ts WARM.heapsnapshot END.heapsnapshot [--top 30]');
    process.exit(2);
  }
  const before = read(positionals[0]!);
  const after = read(positionals[1]!);
  const [b, a] = [total(before), total(after)];
  console.log(`live objects ${b.count} → ${a.count}, ${kib(b.bytes)} → ${kib(a.bytes)}`);
  for (const row of heapGrowth(before, after, Number(values.top)))
    console.log(
      `${kib(row.after.bytes - row.before.bytes).padStart(10)}  ${String(row.before.count).padStart(7)} → ${String(row.after.count).padEnd(7)} ${row.key.slice(0, 100)}`,
    );
}
