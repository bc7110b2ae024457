// The technician's words for a job's state are the domain's (domain/job-progress-text.ts): the CLI
// says them from the records the contract carries, the jobs engine and the station from here.
export * from '../../../domain/job-progress-text';
