/**
 * Every catalog, by language and namespace. One namespace per part of the product, each kept by
 * one owner: common (words every part uses), app (the shell and settings), errors (job error
 * texts, domain/job-errors.ts), domain (field, choice and step names), cli, report (the
 * commissioning and shift reports), workbench, station, designer, screens (the other screens) and core (the core's refusals and
 * findings said in the reader's language: a work package's refusal, a broken ledger link, what a
 * function test observed).
 * English is the source; tests keep the others complete (test/domain/i18n/catalogs.test.ts).
 */
import en_common from './locales/en/common.json' with { type: 'json' };
import en_app from './locales/en/app.json' with { type: 'json' };
import en_errors from './locales/en/errors.json' with { type: 'json' };
import en_domain from './locales/en/domain.json' with { type: 'json' };
import en_cli from './locales/en/cli.json' with { type: 'json' };
import en_report from './locales/en/report.json' with { type: 'json' };
import en_workbench from './locales/en/workbench.json' with { type: 'json' };
import en_station from './locales/en/station.json' with { type: 'json' };
import en_designer from './locales/en/designer.json' with { type: 'json' };
import en_screens from './locales/en/screens.json' with { type: 'json' };
import en_core from './locales/en/core.json' with { type: 'json' };
import de_common from './locales/de/common.json' with { type: 'json' };
import de_app from './locales/de/app.json' with { type: 'json' };
import de_errors from './locales/de/errors.json' with { type: 'json' };
import de_domain from './locales/de/domain.json' with { type: 'json' };
import de_cli from './locales/de/cli.json' with { type: 'json' };
import de_report from './locales/de/report.json' with { type: 'json' };
import de_workbench from './locales/de/workbench.json' with { type: 'json' };
import de_station from './locales/de/station.json' with { type: 'json' };
import de_designer from './locales/de/designer.json' with { type: 'json' };
import de_screens from './locales/de/screens.json' with { type: 'json' };
import de_core from './locales/de/core.json' with { type: 'json' };
import fr_common from './locales/fr/common.json' with { type: 'json' };
import fr_app from './locales/fr/app.json' with { type: 'json' };
import fr_errors from './locales/fr/errors.json' with { type: 'json' };
import fr_domain from './locales/fr/domain.json' with { type: 'json' };
import fr_cli from './locales/fr/cli.json' with { type: 'json' };
import fr_report from './locales/fr/report.json' with { type: 'json' };
import fr_workbench from './locales/fr/workbench.json' with { type: 'json' };
import fr_station from './locales/fr/station.json' with { type: 'json' };
import fr_designer from './locales/fr/designer.json' with { type: 'json' };
import fr_screens from './locales/fr/screens.json' with { type: 'json' };
import fr_core from './locales/fr/core.json' with { type: 'json' };
import es_common from './locales/es/common.json' with { type: 'json' };
import es_app from './locales/es/app.json' with { type: 'json' };
import es_errors from './locales/es/errors.json' with { type: 'json' };
import es_domain from './locales/es/domain.json' with { type: 'json' };
import es_cli from './locales/es/cli.json' with { type: 'json' };
import es_report from './locales/es/report.json' with { type: 'json' };
import es_workbench from './locales/es/workbench.json' with { type: 'json' };
import es_station from './locales/es/station.json' with { type: 'json' };
import es_designer from './locales/es/designer.json' with { type: 'json' };
import es_screens from './locales/es/screens.json' with { type: 'json' };
import es_core from './locales/es/core.json' with { type: 'json' };
import zh_common from './locales/zh/common.json' with { type: 'json' };
import zh_app from './locales/zh/app.json' with { type: 'json' };
import zh_errors from './locales/zh/errors.json' with { type: 'json' };
import zh_domain from './locales/zh/domain.json' with { type: 'json' };
import zh_cli from './locales/zh/cli.json' with { type: 'json' };
import zh_report from './locales/zh/report.json' with { type: 'json' };
import zh_workbench from './locales/zh/workbench.json' with { type: 'json' };
import zh_station from './locales/zh/station.json' with { type: 'json' };
import zh_designer from './locales/zh/designer.json' with { type: 'json' };
import zh_screens from './locales/zh/screens.json' with { type: 'json' };
import zh_core from './locales/zh/core.json' with { type: 'json' };

export const NAMESPACES = [
  'common',
  'app',
  'errors',
  'domain',
  'cli',
  'report',
  'workbench',
  'station',
  'designer',
  'screens',
  'core',
] as const;
export type Namespace = (typeof NAMESPACES)[number];
export type Catalog = Readonly<Record<string, string>>;

export const CATALOGS = {
  en: {
    common: en_common as Catalog,
    app: en_app as Catalog,
    errors: en_errors as Catalog,
    domain: en_domain as Catalog,
    cli: en_cli as Catalog,
    report: en_report as Catalog,
    workbench: en_workbench as Catalog,
    station: en_station as Catalog,
    designer: en_designer as Catalog,
    screens: en_screens as Catalog,
    core: en_core as Catalog,
  },
  de: {
    common: de_common as Catalog,
    app: de_app as Catalog,
    errors: de_errors as Catalog,
    domain: de_domain as Catalog,
    cli: de_cli as Catalog,
    report: de_report as Catalog,
    workbench: de_workbench as Catalog,
    station: de_station as Catalog,
    designer: de_designer as Catalog,
    screens: de_screens as Catalog,
    core: de_core as Catalog,
  },
  fr: {
    common: fr_common as Catalog,
    app: fr_app as Catalog,
    errors: fr_errors as Catalog,
    domain: fr_domain as Catalog,
    cli: fr_cli as Catalog,
    report: fr_report as Catalog,
    workbench: fr_workbench as Catalog,
    station: fr_station as Catalog,
    designer: fr_designer as Catalog,
    screens: fr_screens as Catalog,
    core: fr_core as Catalog,
  },
  es: {
    common: es_common as Catalog,
    app: es_app as Catalog,
    errors: es_errors as Catalog,
    domain: es_domain as Catalog,
    cli: es_cli as Catalog,
    report: es_report as Catalog,
    workbench: es_workbench as Catalog,
    station: es_station as Catalog,
    designer: es_designer as Catalog,
    screens: es_screens as Catalog,
    core: es_core as Catalog,
  },
  zh: {
    common: zh_common as Catalog,
    app: zh_app as Catalog,
    errors: zh_errors as Catalog,
    domain: zh_domain as Catalog,
    cli: zh_cli as Catalog,
    report: zh_report as Catalog,
    workbench: zh_workbench as Catalog,
    station: zh_station as Catalog,
    designer: zh_designer as Catalog,
    screens: zh_screens as Catalog,
    core: zh_core as Catalog,
  },
} as const satisfies Record<string, Record<Namespace, Catalog>>;
