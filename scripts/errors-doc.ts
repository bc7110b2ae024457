import { errorsDoc } from '../domain/job-errors-doc';

// Prints docs/errors.md from the catalogue: npx tsx scripts/errors-doc.ts > docs/errors.md
process.stdout.write(errorsDoc());
