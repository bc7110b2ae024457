/**
 * Order of firmware versions: numeric runs compare as numbers ('2.10.0' > '2.9.1'), other runs as
 * text; a version with a pre-release suffix sorts before the same version without ('2.0.0-rc1' <
 * '2.0.0'). A leading 'v' ('v2.1.0') is ignored.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string): { core: string[]; pre: string | undefined } => {
    const [core = '', ...rest] = v.trim().replace(/^v/i, '').split('-');
    return { core: core.split(/[.+]/), pre: rest.length > 0 ? rest.join('-') : undefined };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.core.length, y.core.length); i += 1) {
    const p = x.core[i] ?? '0';
    const q = y.core[i] ?? '0';
    const bothNumeric = /^\d+$/.test(p) && /^\d+$/.test(q);
    const order = bothNumeric ? Number(p) - Number(q) : p.localeCompare(q);
    if (order !== 0) return Math.sign(order);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return Math.sign(x.pre.localeCompare(y.pre, undefined, { numeric: true }));
}
