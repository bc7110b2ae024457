/**
 * Bytes, rates and durations: the CLI's words, from the domain. Dates and "how long ago" in the
 * screens' language: renderer/components/use-date-text.ts and DateText.tsx.
 */
export { bytesText, durationText, rateText } from '../../domain/job-text';
