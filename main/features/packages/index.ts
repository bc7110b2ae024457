export { WorkPackageError } from './errors';
export {
  exportWorkPackage,
  type ExportedPackage,
  type ExportPackageOptions,
  type PackageSourceClient,
} from './export-package';
export { checkWorkPackage, importWorkPackage, type ImportedPackage, type ImportPackageOptions } from './import-package';
export {
  deliverConfirmations,
  exportConfirmations,
  type DeliveryOutcome,
  type DeliveryReport,
  type ExportConfirmationsOptions,
  type ExportedConfirmations,
} from './confirmations-transfer';
export {
  NOT_SIGNED_IN_MESSAGE,
  offlineClient,
  offlinePackageAccount,
  type OfflinePackageAccount,
} from './offline-account';
export { packagePaths, type PackagePaths } from './package-paths';
