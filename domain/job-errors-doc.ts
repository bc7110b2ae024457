import { ERROR_AREAS, ERROR_CATALOGUE, type ErrorArea } from './job-errors';

/** docs/errors.md, made from the catalogue (domain/job-errors.ts, its English words from the errors catalog) so the two cannot drift apart. */

const AREA_TITLES: Record<ErrorArea, string> = {
  device: 'The device',
  link: 'The cable, radio or network to the device',
  file: 'Files (firmware, configuration, work packages)',
  cache: 'Working offline (the firmware cache and kept files)',
  service: 'The service',
  outbox: 'Confirmations waiting in the outbox',
  app: 'The app',
};

export function errorsDoc(): string {
  const lines = [
    '# Errors',
    '',
    '<!-- Made from the English errors catalog (domain/i18n/locales/en/errors.json, codes and areas in domain/job-errors.ts) by `npx tsx scripts/errors-doc.ts > docs/errors.md`; edit those, not this file. -->',
    '',
    'Every error code a technician can meet, in bench words: what happened, why it matters, what to do.',
    'The Workbench and the CLI show this text first and the code after it; give the code to support.',
    'A code ending in `*` stands for a family (`COAP_4.04`, `HTTP_502`). The rules a configuration',
    'must keep, each with its own code, are in [configuration-rules.md](configuration-rules.md).',
    '',
    'The same texts in German, French, Spanish and Simplified Chinese are in',
    '`domain/i18n/locales/<de|fr|es|zh>/errors.json`, keyed `CODE.what`, `CODE.why`, `CODE.todo`; the',
    'app and the CLI show them in the technician’s language (see [i18n.md](i18n.md)). Codes never change.',
    '',
  ];
  for (const area of ERROR_AREAS) {
    const entries = ERROR_CATALOGUE.filter((entry) => entry.area === area);
    if (entries.length === 0) continue;
    lines.push(
      `## ${AREA_TITLES[area]}`,
      '',
      '| code | what happened | why it matters | what to do |',
      '|---|---|---|---|',
    );
    for (const entry of entries)
      lines.push(`| \`${entry.code}\` | ${cell(entry.what)} | ${cell(entry.why)} | ${cell(entry.todo)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
