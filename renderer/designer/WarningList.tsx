import type { Violation } from '../../domain/violations';
import { ViolationList } from '../components/misc';

/**
 * Our own rules a configuration breaks (severity 'warning'): the interface accepts what they find,
 * so they stop no save and hold back no file, but the technician reads them before applying.
 */
export function WarningList({ title, warnings }: { title: string; warnings: readonly Violation[] }) {
  return <ViolationList title={title} violations={warnings} tone="warn" testId="designer-warnings" />;
}
