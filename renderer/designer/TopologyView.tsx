import {
  Background,
  Handle,
  Position,
  ReactFlow,
  useReactFlow,
  type Edge,
  type Node,
  type NodeHandle,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo } from 'react';
import { deviceRoleLabel } from '../../domain/choice-labels';
import type { Translator } from '../../domain/i18n/index.js';
import type { Violation } from '../../domain/violations';
import { configurationTopology, type TopologyConfiguration, type TopologyNode, type TopologyStatus } from './topology';
import { NODE_HEIGHT, NODE_WIDTH, topologyLayout } from './topology-layout';
import { violationText } from '../components/violation-text';
import { useTranslator } from '../i18n/I18nProvider';

interface Props {
  /** A ConfigurationView has all of it. */
  configuration: TopologyConfiguration;
  status: TopologyStatus | null;
}

type DeviceNodeData = TopologyNode & Record<string, unknown>;
type DeviceFlowNode = Node<DeviceNodeData, 'device'>;

const NODE_TYPES = { device: DeviceNode };

/** React Flow's own handle size (its stylesheet's .react-flow__handle), centred on the node's side. */
const HANDLE_SIZE = 6;

/**
 * Where each device's two handles sit, given rather than measured. React Flow otherwise draws a
 * link only once it has measured both ends in the DOM, and forgets that measure each time the
 * nodes are handed over anew (a status refresh, a save); on a busy machine a link then stayed
 * undrawn for good. Given, every link is drawn from the first render on, with or without a DOM.
 */
const DEVICE_HANDLES: NodeHandle[] = [
  {
    type: 'target',
    position: Position.Left,
    x: -HANDLE_SIZE / 2,
    y: (NODE_HEIGHT - HANDLE_SIZE) / 2,
    width: HANDLE_SIZE,
    height: HANDLE_SIZE,
  },
  {
    type: 'source',
    position: Position.Right,
    x: NODE_WIDTH - HANDLE_SIZE / 2,
    y: (NODE_HEIGHT - HANDLE_SIZE) / 2,
    width: HANDLE_SIZE,
    height: HANDLE_SIZE,
  },
];

function problemTone(problems: readonly Violation[]): 'error' | 'warning' | null {
  if (problems.some((p) => p.severity !== 'warning')) return 'error';
  return problems.length > 0 ? 'warning' : null;
}

function problemCount(problems: readonly Violation[], t: Translator['t']): string {
  const errors = problems.filter((p) => p.severity !== 'warning').length;
  const warnings = problems.length - errors;
  if (errors > 0 && warnings > 0) return t('designer:topology.errorsAndWarnings', { errors, warnings });
  return errors > 0
    ? t('designer:topology.errors', { count: errors })
    : warnings > 0
      ? t('designer:topology.warnings', { count: warnings })
      : '';
}

/**
 * The configuration as a picture, redrawn from what is being edited: which device sends to which,
 * over what, at which address, and where the problems are. The graph itself is for the eye; the
 * list under it says the same in words for a screen reader.
 */
export function TopologyView({ configuration, status }: Props) {
  const words = useTranslator();
  const { t } = words;
  const topology = useMemo(() => configurationTopology(configuration, status, words), [configuration, status, words]);
  const { nodes, edges } = useMemo(() => {
    const positions = topologyLayout(topology);
    const flowNodes: DeviceFlowNode[] = topology.nodes.map((node) => ({
      id: node.id,
      type: 'device',
      position: positions.get(node.id) ?? { x: 0, y: 0 },
      data: node as DeviceNodeData,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      measured: { width: NODE_WIDTH, height: NODE_HEIGHT },
      handles: DEVICE_HANDLES,
      className: `topology-node topology-node--${node.group}`,
    }));
    const flowEdges: Edge[] = topology.edges.map((edge) => {
      const tone = problemTone(edge.problems);
      return {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        label: tone ? `${edge.label} · ${problemCount(edge.problems, t)}` : edge.label,
        className: tone ? `topology-edge topology-edge--${tone}` : 'topology-edge',
        labelBgPadding: [6, 3] as [number, number],
        labelBgBorderRadius: 4,
        focusable: false,
        ariaLabel: t('designer:topology.link', { source: edge.source, target: edge.target, media: edge.label }),
      };
    });
    return { nodes: flowNodes, edges: flowEdges };
  }, [topology, t]);

  // React Flow's own descriptions for assistive technology, in the reader's language.
  const ariaLabels = useMemo(
    () => ({
      'node.a11yDescription.default': t('designer:topology.a11yNode'),
      'node.a11yDescription.keyboardDisabled': t('designer:topology.a11yNode'),
      'edge.a11yDescription.default': t('designer:topology.a11yEdge'),
    }),
    [t],
  );

  const placed = [
    ...topology.nodes.flatMap((n) => n.problems.map((p) => ({ where: n.serialNumber, problem: p }))),
    ...topology.edges.flatMap((e) => e.problems.map((p) => ({ where: `${e.source} → ${e.target}`, problem: p }))),
  ];

  return (
    <section className="panel topology" aria-labelledby="topology-title">
      <div className="panel__header">
        <h2 id="topology-title">{t('designer:topology.title')}</h2>
        <span className="muted">
          {t('designer:topology.summary', { devices: topology.nodes.length, links: topology.edges.length })}
        </span>
      </div>
      {topology.nodes.length === 0 ? (
        <p className="muted">{t('designer:topology.addDevices')}</p>
      ) : (
        <div
          className="topology__canvas"
          data-testid="topology-canvas"
          role="img"
          aria-label={systemDescription(
            topology.nodes.length,
            topology.edges.map((e) =>
              t('designer:topology.link', { source: e.source, target: e.target, media: e.label }),
            ),
            words,
          )}
        >
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            fitView
            fitViewOptions={FIT_VIEW_OPTIONS}
            nodesDraggable={false}
            nodesConnectable={false}
            nodesFocusable={false}
            edgesFocusable={false}
            elementsSelectable={false}
            zoomOnScroll={false}
            preventScrolling={false}
            minZoom={0.3}
            proOptions={{ hideAttribution: true }}
            ariaLabelConfig={ariaLabels}
          >
            <Background gap={24} />
            <FitViewOnChange layout={nodes.map((n) => `${n.id}@${n.position.x},${n.position.y}`).join(' ')} />
          </ReactFlow>
        </div>
      )}
      {placed.length > 0 ? (
        <ul className="topology__problems">
          {placed.map(({ where, problem }, i) => (
            <li
              key={`${where}-${problem.code}-${i}`}
              className={problem.severity === 'warning' ? 'topology__problem--warning' : 'topology__problem--error'}
            >
              <span className="mono" translate="no">
                {where}
              </span>
              : {violationText(problem, words)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

const FIT_VIEW_OPTIONS = { padding: 0.15 } as const;

/**
 * React Flow fits the view once, when it first draws: a device added afterwards (a receiver beside
 * the one sender) came up cut off at the edge, the sender huge. Fit again whenever the devices or
 * their places change, so the whole system is always in view.
 */
function FitViewOnChange({ layout }: { layout: string }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    void fitView(FIT_VIEW_OPTIONS);
  }, [layout, fitView]);
  return null;
}

function systemDescription(devices: number, links: string[], words: Pick<Translator, 't' | 'locale'>): string {
  if (links.length === 0) return words.t('designer:topology.picture', { devices, links: 0 });
  const list = new Intl.ListFormat(words.locale, { style: 'narrow', type: 'unit' }).format(links);
  return words.t('designer:topology.pictureLinks', { devices, links: links.length, list });
}

function DeviceNode({ data }: NodeProps<DeviceFlowNode>) {
  const words = useTranslator();
  const { t } = words;
  const tone = problemTone(data.problems);
  return (
    <div className={`topology-device${tone ? ` topology-device--${tone}` : ''}`} data-serial={data.serialNumber}>
      <Handle type="target" position={Position.Left} isConnectable={false} className="topology-device__handle" />
      <div className="topology-device__title">
        <span className="mono" translate="no">
          {data.serialNumber}
        </span>
        <span className="topology-device__role">
          {data.role ? deviceRoleLabel(data.role, words) : t('designer:topology.noRole')}
        </span>
      </div>
      <div className="topology-device__line">
        {data.deviceType ? <span translate="no">{data.deviceType}</span> : t('designer:topology.unknownType')} ·{' '}
        {data.media ? <span translate="no">{data.media}</span> : t('designer:topology.noInterface')}
      </div>
      <div className="topology-device__line mono">
        {data.ipAddress ? (
          <>
            <span translate="no">{data.ipAddress}</span>
            {data.ipAddressAssigned ? (
              <span className="topology-device__note">{t('designer:topology.assigned')}</span>
            ) : null}
          </>
        ) : (
          <span className="topology-device__note">{t('designer:topology.noIp')}</span>
        )}
      </div>
      {tone ? (
        <div className={`topology-device__problems topology-device__problems--${tone}`}>
          {problemCount(data.problems, t)}
        </div>
      ) : null}
      <Handle type="source" position={Position.Right} isConnectable={false} className="topology-device__handle" />
    </div>
  );
}
