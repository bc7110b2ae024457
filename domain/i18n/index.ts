export * from './languages.js';
export { CATALOGS, NAMESPACES, type Catalog, type Namespace } from './catalogs.js';
export { createTranslator, type Translator, type MessageValues } from './translator.js';
export { localeFormat, type LocaleFormat } from './format.js';
export { pseudoLocalizeMessage, pseudoLocalizeCatalog, PSEUDO_OPEN, PSEUDO_CLOSE } from './pseudo.js';
