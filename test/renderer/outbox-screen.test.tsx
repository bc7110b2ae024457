// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntryView, OutboxView } from '../../contract/index';
import { OutboxScreen } from '../../renderer/screens/OutboxScreen';
import { useOutbox } from '../../renderer/stores/outbox';
import { useSession } from '../../renderer/stores/session';
import { wireEvents } from '../../renderer/stores/wire-events';
import { button, click, mount, settle, type Mounted } from './dom';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';

/**
 * Issue 30: the Outbox screen with many confirmations waiting shows the count and one page of
 * them, and pages on by the core's cursor. The fake core here pages its list as outbox.get does
 * (entries after the cursor, oldest first); the real paging is test/main/engine/outbox/outbox-page.test.ts.
 */

const WAITING = 250;
const PAGE = 100;

function entry(index: number): OutboxEntryView {
  return {
    id: `id-${String(index).padStart(5, '0')}`,
    kind: 'firmware',
    serialNumber: `EPC${String(index).padStart(6, '0')}`,
    serviceUrl: 'http://127.0.0.1:1',
    orgId: 'demo',
    state: 'pending',
    createdAt: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
    attempts: 1,
    lastError: 'service unreachable',
    nextAttemptAt: null,
    summary: 'Firmware 1.1.0 applied',
  };
}

/** The core's answer for the page after `after` of `entries`. */
function pageOf(entries: readonly OutboxEntryView[], after: string | null | undefined): OutboxView {
  const offset = after ? entries.findIndex((e) => e.id > after) : 0;
  const start = offset < 0 ? entries.length : offset;
  const page = entries.slice(start, start + PAGE);
  const more = start + PAGE < entries.length;
  return {
    entries: page,
    pendingCount: entries.length,
    rejectedCount: 0,
    oldestPendingSince: entries[0]?.createdAt ?? null,
    totalCount: entries.length,
    offset: start,
    limit: PAGE,
    nextCursor: more ? page.at(-1)!.id : null,
  };
}

let outbox: OutboxEntryView[] = [];
let api: FakeApi;
let view: Mounted | undefined;
let unwire: () => void = () => undefined;

beforeEach(async () => {
  outbox = Array.from({ length: WAITING }, (_, i) => entry(i));
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  useOutbox.setState({ outbox: null, earlier: [], after: null, lines: [], sending: false, error: null });
  api = new FakeApi()
    .answer('outbox.get', (input) => pageOf(outbox, input.after))
    .answer('logs.recent', [])
    .install();
  unwire = wireEvents();
  view = await mount(<OutboxScreen />);
  await settle();
});
afterEach(() => {
  unwire();
  view?.unmount();
  view = undefined;
});

const serials = (): string[] =>
  [...view!.container.querySelectorAll('tbody tr td:first-child')].map((cell) => cell.textContent ?? '');
const pagerText = (): string => view!.container.querySelector('.pager__text')?.textContent ?? '';
const pageAsked = (): unknown[] => api.calls.filter((c) => c.channel === 'outbox.get').map((c) => c.input);

describe('the Outbox screen with 250 confirmations waiting', () => {
  it('opens on the count and the oldest page', () => {
    expect(view!.container.querySelector('.screen-header')?.textContent).toContain('250 confirmations waiting since');
    expect(serials()).toEqual(outbox.slice(0, PAGE).map((e) => e.serialNumber));
    expect(pagerText()).toBe('1–100 of 250 · page 1 of 3');
    expect(button(view!.container, '← Previous').disabled).toBe(true);
    expect(pageAsked()).toEqual([{}]);
  });

  it('pages on by the cursor to the newest and back again', async () => {
    await click(button(view!.container, 'Next →'));
    await settle();
    expect(pageAsked().at(-1)).toEqual({ after: outbox[PAGE - 1]!.id });
    expect(serials()).toEqual(outbox.slice(PAGE, 2 * PAGE).map((e) => e.serialNumber));
    expect(pagerText()).toBe('101–200 of 250 · page 2 of 3');

    await click(button(view!.container, 'Next →'));
    await settle();
    expect(serials()).toEqual(outbox.slice(2 * PAGE).map((e) => e.serialNumber));
    expect(pagerText()).toBe('201–250 of 250 · page 3 of 3');
    expect(button(view!.container, 'Next →').disabled).toBe(true);

    await click(button(view!.container, '← Previous'));
    await settle();
    expect(pageAsked().at(-1)).toEqual({ after: outbox[PAGE - 1]!.id });
    expect(serials()).toEqual(outbox.slice(PAGE, 2 * PAGE).map((e) => e.serialNumber));
    await click(button(view!.container, '← Previous'));
    await settle();
    expect(pageAsked().at(-1)).toEqual({});
    expect(pagerText()).toBe('1–100 of 250 · page 1 of 3');
  });

  it('while the outbox drains, a later page keeps its rows and takes the new counts; the first page follows', async () => {
    await click(button(view!.container, 'Next →'));
    await settle();
    const secondPage = serials();
    // The core sends ten and says so with its first page.
    outbox = outbox.slice(10);
    await act(async () => api.emit('outbox.changed', pageOf(outbox, null)));
    expect(serials()).toEqual(secondPage);
    expect(view!.container.querySelector('.screen-header')?.textContent).toContain('240 confirmations waiting since');

    await click(button(view!.container, '← Previous'));
    await settle();
    expect(serials()).toEqual(outbox.slice(0, PAGE).map((e) => e.serialNumber));
    await act(async () => api.emit('outbox.changed', pageOf(outbox.slice(5), null)));
    expect(serials()[0]).toBe(outbox[5]!.serialNumber);
  });
});
