import type { Page } from 'playwright-core';

/**
 * What the pseudo-locale (en-XA) test finds wrong on a page as it is drawn: text a person sees
 * that came from no catalog, and labels cut off or spilling out of their box.
 *
 * Text from a catalog is between ⟦ and ⟧ in en-XA (domain/i18n/pseudo.ts). Anything else with a
 * letter in it is an offender, unless it is data: under an element marked translate="no" (serial
 * numbers, names, versions, addresses), a date inside <time datetime> (Intl writes it for the
 * locale), or figures with their units (12.5 kB/s, 37 %, 5 s).
 * Hidden text (display: none, visibility: hidden, a closed <details>) is not seen and not judged;
 * text only a screen reader reads (the visually-hidden class) is judged, as it is read out.
 *
 * A box is cut off or overflowing when its content is wider than the box (scrollWidth >
 * clientWidth) and the box is not meant to scroll (overflow-x neither auto nor scroll), or taller
 * than a box that hides what is taller (overflow-y hidden or clip). text-overflow: ellipsis is
 * the first case: the text is wider than its box.
 */
export interface PageAudit {
  /** "button.sidebar__item: “Outbox & logs”": where, and the text as seen. */
  untranslated: string[];
  /** "td.cell-clip: 312 px of text in a 180 px box: “USB ttyACM0…”". */
  clipped: string[];
}

/**
 * The audit as the page runs it: plain JavaScript (this test project has no DOM types, and a
 * function handed to page.evaluate would carry the transpiler's helpers with it).
 */
const AUDIT_IN_PAGE = `(() => {
  const OPEN = '⟦';
  const CLOSE = '⟧';
  // Figures and the units Intl and the domain write after them: data, not words.
  const UNITS = /\\d[\\d.,\\u202f\\u00a0 ]*\\s?(?:kbit\\/s|bit\\/s|kB\\/s|MB\\/s|B\\/s|KiB|MiB|GiB|kB|MB|GB|ms|min|dBm|kHz|MHz|Hz|%|B|s|h|×)(?![\\p{L}])/gu;
  const describe = (element) => {
    const classes = [...element.classList].slice(0, 2).join('.');
    const testId = element.getAttribute('data-testid');
    return \`\${element.tagName.toLowerCase()}\${classes ? \`.\${classes}\` : ''}\${testId ? \`[data-testid=\${testId}]\` : ''}\`;
  };
  const short = (text) => {
    const flat = text.replace(/\\s+/g, ' ').trim();
    return flat.length > 90 ? \`\${flat.slice(0, 90)}…\` : flat;
  };
  // Data: marked translate="no", or a date Intl wrote for the locale inside a <time datetime>.
  const isData = (element) => element.closest('[translate="no"], time[datetime]') !== null;
  const outside = (text) => {
    // Innermost first: a message whose value is itself a message nests the marks.
    let rest = text;
    for (let i = 0; i < 20; i += 1) {
      const next = rest.replace(/⟦[^⟦⟧]*⟧/gu, ' ');
      if (next === rest) break;
      rest = next;
    }
    return rest.replace(UNITS, ' ');
  };
  const hasWords = (text) => /\\p{L}/u.test(text);
  const shown = (element) => element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });

  const untranslated = [];
  const judge = (element, text, what) => {
    if (isData(element)) return;
    const left = outside(text);
    if (hasWords(left)) untranslated.push(\`\${what}: “\${short(text)}”\${left.includes(OPEN) || left.includes(CLOSE) ? ' (unbalanced marks)' : ''}\`);
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent ?? '';
    if (!parent || !hasWords(text)) continue;
    if (parent.closest('script, style, noscript, template, option, select')) continue;
    if (!shown(parent)) continue;
    judge(parent, text, describe(parent));
  }
  for (const select of document.querySelectorAll('select')) {
    const option = select.selectedOptions[0];
    if (option && shown(select) && !isData(option) && !isData(select)) judge(option, option.text, \`\${describe(select)} (chosen option)\`);
  }
  for (const field of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    const placeholder = field.getAttribute('placeholder') ?? '';
    if (hasWords(placeholder) && shown(field)) judge(field, placeholder, \`\${describe(field)} (placeholder)\`);
  }

  const clipped = [];
  // Boxes that pan a picture (the designer's canvas) hide what lies outside them by design.
  const PANNED = '.react-flow, .react-flow__renderer, .react-flow__pane, .react-flow__viewport, .react-flow__container';
  const overflowing = [];
  for (const element of document.body.querySelectorAll('*')) {
    if (!(element instanceof HTMLElement) || element.closest('svg, select, option, input, textarea')) continue;
    if (element.matches(PANNED) || !shown(element)) continue;
    const style = getComputedStyle(element);
    // Rows and row groups: their cells are judged; inline boxes have no width of their own.
    if (['inline', 'contents', 'table-row', 'table-row-group', 'table-header-group', 'table-footer-group'].includes(style.display) || style.position === 'fixed') continue;
    // The visually-hidden pattern (1 px, clipped): read out, never drawn.
    if (element.clientWidth <= 1 || element.clientHeight <= 1) continue;
    const text = short(element.innerText || element.textContent || '');
    if (!hasWords(text)) continue;
    const scrolls = (overflow) => overflow === 'auto' || overflow === 'scroll';
    if (!scrolls(style.overflowX) && element.scrollWidth > element.clientWidth + 1) {
      overflowing.push([element, \`\${describe(element)}: \${element.scrollWidth} px of content in a \${element.clientWidth} px box\${style.textOverflow === 'ellipsis' ? ' (cut with an ellipsis)' : ''}: “\${text}”\`]);
    } else if ((style.overflowY === 'hidden' || style.overflowY === 'clip') && element.scrollHeight > element.clientHeight + 1) {
      overflowing.push([element, \`\${describe(element)}: \${element.scrollHeight} px of content in a \${element.clientHeight} px high box: “\${text}”\`]);
    }
  }
  // The innermost box that overflows is the one to fix: the boxes around it overflow because of it.
  for (const [element, line] of overflowing) {
    if (!overflowing.some(([other]) => other !== element && element.contains(other))) clipped.push(line);
  }
  return { untranslated: [...new Set(untranslated)], clipped: [...new Set(clipped)] };
})()`;

export function auditPage(page: Page): Promise<PageAudit> {
  return page.evaluate(AUDIT_IN_PAGE) as Promise<PageAudit>;
}

/** One screen's findings as lines a person reads in a failed test's output. */
export function findingsOf(screen: string, audit: PageAudit): string[] {
  return [
    ...audit.untranslated.map((line) => `${screen}: not from a catalog: ${line}`),
    ...audit.clipped.map((line) => `${screen}: cut off or overflowing: ${line}`),
  ];
}
