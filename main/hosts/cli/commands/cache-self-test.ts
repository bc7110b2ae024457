import type { CliContext } from '../context';
import { t } from '../cli-language';
import { CliError, EXIT } from '../errors';

/**
 * `cache self-test` (hidden, for support and for the test of the single executable): whether this
 * install makes the firmware cache's zopfli streams, asked of the core (`support.cacheSelfTest`:
 * one stream made from a built-in sample on the worker thread bundled into the build, checked by
 * inflating it back). An install that cannot would send zlib's larger streams.
 */
export async function cacheSelfTest(ctx: CliContext): Promise<number> {
  const result = await ctx.core().invoke('support.cacheSelfTest', {});
  if (result.outcome === 'cannot') throw new CliError(t('cli:cacheSelfTest.cannot', { error: result.message }));
  if (result.outcome === 'aboveLimit') throw new CliError(t('cli:cacheSelfTest.aboveLimit'));
  const { sourceBytes, streamBytes } = result;
  if (ctx.out.json) ctx.out.jsonLine({ zopfli: { sourceBytes, streamBytes, inflatesBack: true } });
  else ctx.out.line(t('cli:cacheSelfTest.done', { sourceBytes, streamBytes }));
  return EXIT.ok;
}
