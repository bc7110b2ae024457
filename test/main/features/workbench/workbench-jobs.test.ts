import { describe, expect, it } from 'vitest';
import { initialSnapshot } from '../../../../main/engine/jobs/job-state';
import { toJobView } from '../../../../main/features/workbench/workbench-jobs';

describe('toJobView', () => {
  const uploading = {
    ...initialSnapshot({
      jobId: 'j1',
      linkId: 'serial:/dev/pts/4',
      action: 'firmware',
      serialNumber: 'EPC000101',
      now: new Date(0),
    }),
    phase: 'uploading' as const,
  };

  it('carries how a firmware upload travels to the workbench row', () => {
    expect(toJobView({ ...uploading, transferCoding: 'compressed, 1.6× faster' }).transferCoding).toBe(
      'compressed, 1.6× faster',
    );
    expect(toJobView(uploading).transferCoding).toBeNull();
    // And as terms, for a row in another language.
    expect(
      toJobView({ ...uploading, transferCodingTerms: { coding: 'deflate', factor: 1.6 } }).transferCodingTerms,
    ).toEqual({ coding: 'deflate', factor: 1.6 });
    expect(toJobView(uploading).transferCodingTerms).toBeNull();
  });

  it('carries the seconds a transfer has gone unanswered, so the row can say "check the cable"', () => {
    expect(toJobView({ ...uploading, silentSeconds: 6 }).silentSeconds).toBe(6);
    expect(toJobView(uploading).silentSeconds).toBeNull();
  });

  it('leaves out what only the core keeps (the link used, the signer, resume offsets)', () => {
    const view = toJobView({
      ...uploading,
      link: 'serial:/dev/pts/4',
      resumedFrom: 1024,
      firmwareSigner: { keyId: 'k', name: 'Release' },
    });
    expect(view).not.toHaveProperty('link');
    expect(view).not.toHaveProperty('resumedFrom');
    expect(view).not.toHaveProperty('firmwareSigner');
  });
});
