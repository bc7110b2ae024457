import type { Translator } from './translator.js';

/**
 * Numbers, sizes, dates and times in the reader's locale, through `Intl`. Sizes are in binary
 * units with the unit the locale writes (Intl's byte units are decimal-free words: kB means 1000,
 * so we say KiB/MiB as the product always has).
 */
export interface LocaleFormat {
  number(value: number, fractionDigits?: number): string;
  percent(fraction: number): string;
  bytes(count: number): string;
  dateTime(at: Date | string | number): string;
  date(at: Date | string | number): string;
  time(at: Date | string | number): string;
}

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export function localeFormat(translator: Pick<Translator, 'locale'>, timeZone?: string): LocaleFormat {
  const { locale } = translator;
  const zone = timeZone === undefined ? {} : { timeZone };
  const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', ...zone });
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...zone });
  const timeFormat = new Intl.DateTimeFormat(locale, { timeStyle: 'medium', ...zone });
  const number = (value: number, fractionDigits = 0): string =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    }).format(value);
  return {
    number,
    percent: (fraction) =>
      new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(fraction),
    bytes: (count) => {
      let value = count;
      let unit = 0;
      while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
        value /= 1024;
        unit += 1;
      }
      return `${number(value, unit === 0 ? 0 : 1)} ${BINARY_UNITS[unit]}`;
    },
    dateTime: (at) => dateTimeFormat.format(new Date(at)),
    date: (at) => dateFormat.format(new Date(at)),
    time: (at) => timeFormat.format(new Date(at)),
  };
}
