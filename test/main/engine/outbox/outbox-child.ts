/**
 * A second process for outbox tests: opens the outbox in argv[2] and runs one send pass against
 * the service at argv[3] (organization argv[4]). Prints "done <json report>" when finished.
 */
import { createServiceClient } from '../../../../main/cloud';
import { Outbox } from '../../../../main/engine/outbox/outbox';
import { clientConfirmationSender } from '../../../../main/engine/outbox/outbox-sender';

const [dir, baseUrl, orgId] = process.argv.slice(2) as [string, string, string];
const client = createServiceClient({ baseUrl, orgId, apiKey: 'child-key', retry: { attempts: 1 } });
const outbox = new Outbox({ dir, sender: clientConfirmationSender(() => client) });
const report = await outbox.syncNow({ force: true });
process.stdout.write(`done ${JSON.stringify(report)}\n`);
