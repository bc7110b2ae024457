// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { DEMO_FLOWS } from '../../server/seed/typical-flows';
import { TopologyView } from '../../renderer/designer/TopologyView';
import type { TopologyStatus } from '../../renderer/designer/topology';
import { asTopologyConfiguration, senderReceiverPairs } from '../fixtures/demo-topology';
import { mount, settle, type Mounted } from './dom';

/**
 * The drawn picture, where no layout engine measures anything (happy-dom has none): every link
 * must be drawn from what the view hands React Flow, and stay drawn when the view hands it over
 * anew. In a browser a link once waited on React Flow's own measure of both its ends, and on a
 * busy machine it stayed undrawn.
 */

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

function drawnLinks(container: HTMLElement): string[] {
  return [...container.querySelectorAll('.react-flow__edge')].map((edge) => edge.getAttribute('data-id') ?? '?').sort();
}

function drawnDevices(container: HTMLElement): number {
  return container.querySelectorAll('.react-flow__node').length;
}

describe('TopologyView', () => {
  it.each(DEMO_FLOWS.map((flow) => [flow.key, flow] as const))(
    '%s: draws every device and every sender-receiver link without measuring',
    async (_key, flow) => {
      mounted = await mount(<TopologyView configuration={asTopologyConfiguration(flow)} status={null} />);
      await settle();
      expect(drawnDevices(mounted.container)).toBe(flow.devices.length);
      expect(drawnLinks(mounted.container)).toEqual(senderReceiverPairs(flow).sort());
    },
  );

  it('keeps every link drawn when a status refresh hands the picture over anew', async () => {
    const flow = DEMO_FLOWS.find((f) => f.key === 'epc-to-nscp-over-ethernet');
    if (!flow) throw new Error('flow missing');
    const status = (): TopologyStatus => ({ violations: [], warnings: [] });
    mounted = await mount(<TopologyView configuration={asTopologyConfiguration(flow)} status={status()} />);
    await settle();
    for (let refresh = 0; refresh < 3; refresh += 1) {
      await act(async () =>
        mounted?.root.render(<TopologyView configuration={asTopologyConfiguration(flow)} status={status()} />),
      );
      await settle();
      expect(drawnLinks(mounted.container)).toEqual(senderReceiverPairs(flow).sort());
    }
  });
});
