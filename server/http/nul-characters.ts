/**
 * PostgreSQL cannot store U+0000 in text or jsonb: a NUL that reached a query would fail it with
 * a database error (a 500). Where the first NUL in a request part is, as a dotted field path
 * ('name', 'devices.0.wifiSsid'; a key that holds one names itself), or undefined when there is
 * none. Walks without recursion: a body may nest as deep as its size allows.
 */
export function findNulCharacter(value: unknown): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    for (const [key, item] of Object.entries(current)) {
      const itemPath = path === '' ? key : `${path}.${key}`;
      if (key.includes('\u0000')) return itemPath;
      pending.push({ value: item, path: itemPath });
    }
  }
  return undefined;
}
