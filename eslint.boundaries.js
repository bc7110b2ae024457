// The folders of the product and the arrows allowed between them (docs/architecture.md draws the
// same map; test/architecture.test.ts checks that the two agree). An import along an arrow not
// listed here fails `npm run lint`, and so `npm test`.
import boundaries from 'eslint-plugin-boundaries';

/** Each element: the folder it owns. Order matters: the first pattern that matches a file wins. */
export const ELEMENTS = [
  { type: 'domain', pattern: 'domain/**' },
  { type: 'protocol', pattern: 'protocol/**' },
  { type: 'platform', pattern: 'platform/**' },
  { type: 'contract', pattern: 'contract/**' },
  { type: 'server', pattern: 'server/**' },
  { type: 'simulator', pattern: 'simulator/**' },
  { type: 'cloud', pattern: 'main/cloud/**' },
  { type: 'devices', pattern: 'main/devices/**' },
  { type: 'engine', pattern: 'main/engine/**' },
  { type: 'features', pattern: 'main/features/**' },
  { type: 'core', pattern: 'main/core/**' },
  { type: 'hosts', pattern: 'main/hosts/**' },
  { type: 'preload', pattern: 'preload/**' },
  { type: 'renderer', pattern: 'renderer/**' },
];

/**
 * Who may import whom, besides itself. domain/ is pure and imports nothing of ours; protocol/ is
 * the device protocol both ends speak; platform/ holds the file-system primitives every process
 * uses. The app's core is three rooms, each above the last: engine/ (jobs, cache, outbox, ledger),
 * features/ built on it (station, workbench, packages, report, function test) and core/, which
 * composes them and serves the contract. core/ embeds the service (the local workspace), and only
 * the hosts may start the simulator (web mode's --simulate, the simulated BLE radio of the CLI).
 */
export const ARROWS = {
  domain: [],
  protocol: ['domain'],
  platform: [],
  contract: ['domain'],
  server: ['domain', 'platform'],
  simulator: ['domain', 'protocol', 'platform'],
  cloud: ['domain', 'platform'],
  devices: ['domain', 'protocol'],
  engine: ['domain', 'protocol', 'platform', 'contract', 'cloud', 'devices'],
  features: ['domain', 'protocol', 'platform', 'contract', 'cloud', 'devices', 'engine'],
  core: ['domain', 'platform', 'contract', 'cloud', 'devices', 'server', 'engine', 'features'],
  hosts: ['domain', 'platform', 'contract', 'cloud', 'devices', 'core', 'server', 'simulator'],
  preload: ['contract'],
  renderer: ['domain', 'contract'],
};

export const boundariesConfig = {
  files: ['**/*.{ts,tsx,mjs,js}'],
  plugins: { boundaries },
  settings: {
    'boundaries/elements': ELEMENTS.map(({ type, pattern }) => ({ type, pattern, partialMatch: false })),
    'boundaries/include': ELEMENTS.map(({ pattern }) => pattern),
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js'] } },
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        policies: Object.entries(ARROWS).map(([from, to]) => ({
          from: { element: { type: from } },
          allow: { to: { element: { types: { anyOf: [from, ...to] } } } },
        })),
      },
    ],
  },
};

/**
 * The hosts (Electron, web, CLI) come into the core by its front door only, main/core/index.ts:
 * createCore or createCliCore, the contract's channels and events, and the types they hand out.
 * Not by a file of core/, engine/ or features/ behind it (engine/ and features/ are no arrow of
 * the hosts' at all; this rule also says what to do instead, and keeps core/'s other files out).
 */
const BEHIND_THE_DOOR = [
  // From main/hosts/<host>/…: ../../engine/…, ../../../features/…, ../../core/<not index>.
  '^(\\.\\./)+(engine|features)(/|$)',
  '^(\\.\\./)+core/(?!index(\\.[jt]s)?$)',
];
const DOOR_MESSAGE =
  'A host comes into the core by main/core/index.ts only: call a contract channel (contract/), or add one with its handler in main/core/handlers/.';

export const hostsEntryConfig = {
  files: ['main/hosts/**/*.{ts,tsx}'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      { patterns: BEHIND_THE_DOOR.map((regex) => ({ regex, message: DOOR_MESSAGE })) },
    ],
    'no-restricted-syntax': [
      'error',
      ...BEHIND_THE_DOOR.map((regex) => ({
        selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`,
        message: DOOR_MESSAGE,
      })),
    ],
  },
};
