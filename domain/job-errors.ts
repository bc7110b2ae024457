/**
 * Every error code a technician can meet (device, link, file, cache, service, outbox, app), in
 * the words of someone at a bench: what happened, why it matters, what to do. docs/errors.md is
 * made from this list (`npx tsx scripts/errors-doc.ts > docs/errors.md`); the UI and the CLI show
 * an entry's text first and the code after it, for support. A test checks that every code the
 * service, the device protocol and the host code can produce has an entry here, and that no text
 * names an HTTP method, a route, an internal type or a stack. Pure data.
 */

export const ERROR_AREAS = ['device', 'link', 'file', 'cache', 'service', 'outbox', 'app'] as const;
export type ErrorArea = (typeof ERROR_AREAS)[number];

export interface ErrorCatalogueEntry {
  /** The stable code; a trailing `*` stands for a family (`COAP_4.04`, `HTTP_502`). */
  code: string;
  area: ErrorArea;
  /** What happened. */
  what: string;
  /** Why it matters. */
  why: string;
  /** What to do. */
  todo: string;
}

const e = (code: string, area: ErrorArea, what: string, why: string, todo: string): ErrorCatalogueEntry => ({ code, area, what, why, todo });

const SAFE_DEVICE = 'The device keeps running what it ran before.';
const NOTHING_CHANGED = 'Nothing was changed on the device.';
const ADMIN = 'Ask an administrator of your organization.';

export const ERROR_CATALOGUE: readonly ErrorCatalogueEntry[] = [
  // The device refused something (its own answer).
  e('BAD_REQUEST', 'device', 'The device did not understand a request.', `${SAFE_DEVICE} This usually means the device runs firmware too old for this version of the app.`, 'Run the job again; if it repeats, note the device and its firmware version and contact support.'),
  e('FS_FILE_MISMATCH', 'device', 'A vendor device holds other bytes than were sent for a file: its own length and CRC-32 of the file differ from ours.', `${SAFE_DEVICE} The file is sent again up to three times before the job fails; a file it does not hold whole is not installed.`, 'Check the USB cable and run the job again; if it repeats, contact support with the device and its firmware version.'),
  e('NOT_FOUND', 'device', 'The device, or the service, does not know what was asked for.', 'Either the device firmware lacks this function, or the record was removed in the service meanwhile.', 'Refresh the screen or rescan; if it repeats, contact support with the code.'),
  e('BUSY', 'device', 'The device is busy with another job (another workstation or an update in progress).', `${SAFE_DEVICE} Two jobs at once could leave it half updated, so it refuses the second.`, 'Wait until the other job ends, then run this one again.'),
  e('METHOD_NOT_ALLOWED', 'device', 'The device does not allow that request on that part of it.', SAFE_DEVICE, 'Check that the device type is the one you expect; if it is, contact support with the code.'),
  e('BLOCK_TOO_LARGE', 'device', 'The device asked for smaller pieces than were sent.', 'The transfer stopped before anything was installed.', 'Run the job again; if it repeats, contact support with the code.'),
  e('INTERNAL_ERROR', 'device', 'The device, or the service, hit an internal fault.', 'The step did not complete; nothing half done is kept on the device.', 'Run the job again. If it repeats, restart the device (power off and on) and try once more, then contact support with the code.'),
  e('FW_NOT_ANNOUNCED', 'device', 'The device received firmware without being told first what was coming (it restarted during the transfer).', SAFE_DEVICE, 'Run the same job again: it starts the transfer properly.'),
  e('FW_TOO_LARGE', 'device', 'The firmware is larger than the device can hold.', `${SAFE_DEVICE} This firmware is not for this hardware.`, 'Check the device model; use firmware released for it.'),
  e('FW_OUT_OF_WINDOW', 'device', 'A piece of the firmware arrived out of order.', 'The transfer stopped; the device keeps what it received and the running firmware.', 'Run the same job again to resume.'),
  e('FW_INCOMPLETE', 'device', 'The device was told to install firmware it has not fully received.', SAFE_DEVICE, 'Run the same job again to finish the transfer.'),
  e('FW_HASH_MISMATCH', 'device', 'The firmware received does not match its checksum: it was damaged on the way or in the file.', `${SAFE_DEVICE} Installing a damaged image could disable the device, so it was refused.`, 'Run the job again. If it repeats, download the firmware again (provisioner device firmware download) and try once more.'),
  e('FW_WRONG_TYPE', 'device', 'The firmware is for another type of device.', `${SAFE_DEVICE} Firmware of another type would not run on it.`, 'Use the firmware for this device type.'),
  e('FW_BAD_HEADER', 'device', 'The firmware image is damaged at its start.', SAFE_DEVICE, 'Download the firmware again; if it repeats, contact support with the code.'),
  e('FW_UNSIGNED', 'device', 'The firmware carries no signature.', `${SAFE_DEVICE} A device installs only firmware signed by the manufacturer.`, 'Use a released firmware bundle, not a bare image.'),
  e('FW_BAD_SIGNATURE', 'device', 'The firmware signature is not valid: the file was changed after it was signed.', `${SAFE_DEVICE} An altered firmware is never installed.`, 'Download the firmware again from the service; do not use this file.'),
  e('FW_UNTRUSTED_KEY', 'device', 'The firmware is signed with a key this device (or this app) does not trust.', SAFE_DEVICE, 'Use firmware released for this device; if you believe it is right, contact support with the code.'),
  e('FW_KEY_RETIRED', 'device', 'The firmware is signed with a key that a newer release retired.', `${SAFE_DEVICE} Old keys are retired so that withdrawn firmware cannot come back.`, 'Install the latest firmware instead.'),
  e('FW_ROLLBACK', 'device', 'The firmware is older than a security level the device has already reached.', `${SAFE_DEVICE} Going back could reopen a fixed safety or security flaw.`, 'Install the latest firmware instead.'),
  e('FW_CODING_UNSUPPORTED', 'device', 'The device cannot unpack the compressed form the firmware was sent in.', SAFE_DEVICE, 'Run the job again: the app sends the full image when the device cannot take a smaller form.'),
  e('FW_CODING_CORRUPT', 'device', 'The compressed firmware did not unpack correctly.', SAFE_DEVICE, 'Run the job again; if it repeats, download the firmware again and try once more.'),
  e('FW_BASE_MISMATCH', 'device', 'A firmware patch was made for another version than the device runs.', SAFE_DEVICE, 'Run the job again: the app sends the full image when the device cannot take a smaller form.'),
  e('FW_APPLY_FAILED', 'device', 'The device could not install the firmware it received.', 'The device restarted on its previous firmware.', 'Run the same job again; if it fails twice, set the device aside and contact support.'),
  e('FW_BAD_OFFSET', 'device', 'The device reported a resume point that does not fit the firmware.', 'The transfer stopped before anything was installed.', 'Run the same job again: the transfer starts over.'),
  e('FW_NOT_RUNNING', 'device', 'After restarting, the device does not run the new firmware: the install did not take (power lost while installing?).', 'The device runs its previous firmware; the service is told the update failed.', 'Keep the device powered and run the same job again.'),
  e('CONFIG_BAD_FORMAT', 'file', 'The configuration file is damaged or not a configuration file.', NOTHING_CHANGED, 'Download the configuration file again (or apply from the service).'),
  e('CONFIG_CHECKSUM_MISMATCH', 'file', 'The configuration file does not match its checksum: it was damaged.', NOTHING_CHANGED, 'Download the configuration file again.'),
  e('CONFIG_BAD_SIGNATURE', 'file', 'The configuration file signature is not valid: it was changed after it was signed.', `${NOTHING_CHANGED} A safety device takes only configurations signed by its organization.`, 'Download the file again from the service; do not use this one.'),
  e('CONFIG_WRONG_DEVICE', 'file', 'The configuration file is for another device (another serial number).', `${NOTHING_CHANGED} Each device has its own file.`, 'Use the file of this device: apply from the service, or download its own file.'),
  e('CONFIG_WRONG_TYPE', 'file', 'The configuration file is for another type of device.', NOTHING_CHANGED, 'Use the file of this device.'),
  e('CONFIG_TOO_LARGE', 'device', 'The configuration file is larger than the device can hold.', NOTHING_CHANGED, 'Check the configuration in Configurations; contact support with the code.'),
  e('CONFIG_WRONG_ORGANIZATION', 'device', 'The device belongs to another organization, or the file was made by another organization.', `${NOTHING_CHANGED} A device takes configurations only from the organization that claimed it.`, 'Sign in to the organization the device belongs to. A device changes organization only after a factory reset.'),
  e('CONFIG_SUPERSEDED', 'device', 'The device already holds a newer configuration than this file.', `${NOTHING_CHANGED} Older files are refused so that an old setting cannot come back.`, 'Apply the current configuration from the service.'),
  e('CONFIG_OUT_OF_WINDOW', 'device', 'A piece of the configuration file arrived out of order.', NOTHING_CHANGED, 'Run the same job again.'),
  e('CONFIG_NOT_APPLIED', 'device', 'After restarting, the device does not hold the configuration that was sent.', 'The device keeps its previous configuration; the service is told the apply failed.', 'Run the same job again; if it repeats, contact support.'),
  e('PARAMETERS_MISMATCH', 'device', 'The device took the configuration file (its syncId is right) but runs other parameters than the file intends: a value stored wrongly, or its checksum differs.', 'The safety function may not behave as configured. The device is not commissioned; the service is told the apply failed.', 'Do not put the device in service. Apply the configuration again and verify again (provisioner device verify SN --parameters); if a parameter still differs, replace the device.'),
  e('PARAMETERS_NOT_CONFIRMED', 'file', "At a Station: the device runs its configuration file, but that file intends other parameters than the operator confirmed at the start of the shift (the configuration changed during the shift).", 'No one confirmed what the device runs. The Station fails it and keeps it apart; it is not commissioned.', 'Stop the station and start a new shift, confirming the new configuration checksum; then plug the device in again.'),
  e('CONFIG_SYNC_ID_MISMATCH', 'device', 'The device reports another configuration than the one sent, or the kept copy of a file does not match.', 'What the device holds is not what was meant; the service is told.', 'Run the same job again from the service.'),
  e('DEVICE_MISMATCH', 'device', 'Another device answered than the one expected (another serial number on that port).', `${NOTHING_CHANGED} Jobs never continue on a device they were not meant for.`, 'Check which device is on which cable, then run the job again.'),
  e('DIFFERENT_DEVICE', 'link', 'After a reconnection, another device answered than the one the job started on.', 'The job stopped so it would not finish on the wrong device.', 'Plug the right device back in and run the same job again.'),
  e('DEVICE_PROTOCOL', 'device', 'The device answered something unexpected.', 'The step stopped; the device may run firmware this app does not know.', 'Run the job again; if it repeats, note the firmware version and contact support.'),
  e('COAP_RESET', 'link', 'The device refused a message (it restarted or lost track of the exchange).', 'The step stopped.', 'Run the same job again.'),
  e('COAP_*', 'device', 'The device refused a request with a numbered answer and no explanation.', 'The step did not complete.', 'Run the job again; if it repeats, contact support with the code.'),
  // The link to the device.
  e('DEVICE_DISCONNECTED', 'link', 'The device disconnected during the job (cable pulled, power lost, BLE out of range).', 'The step stopped. A firmware transfer resumes where it stopped; the running firmware is untouched.', 'Reconnect the device and run the same job again.'),
  e('DEVICE_GONE', 'link', 'The device went away and did not come back in time.', 'The step stopped. A firmware transfer resumes where it stopped.', 'Plug it in, check it has power, and run the same job again.'),
  e('DEVICE_NOT_ANSWERING', 'link', 'No device answers on this port or address.', NOTHING_CHANGED, 'Check the cable, the power and the address, then run the job again.'),
  e('DEVICE_TIMEOUT', 'link', 'The device stopped answering in the middle of a step.', 'The step stopped; a firmware transfer resumes where it stopped.', 'Check the cable and the power, then run the same job again.'),
  e('DEVICE_UNREACHABLE', 'link', 'The port or address could not be opened (in use by another program, or not there).', NOTHING_CHANGED, 'Close other programs using the port, check the cable, then run the job again.'),
  e('DEVICE_NOT_FOUND', 'link', 'The device is not attached, or the service has no record of it.', NOTHING_CHANGED, 'Check the cable and rescan; if the device is attached, register it in Devices.'),
  e('CANCELLED', 'app', 'The job was cancelled.', 'A firmware transfer that was cancelled resumes where it stopped; the running firmware is untouched.', 'Run the same job again when ready.'),
  // Files.
  e('FW_BAD_BUNDLE', 'file', 'The firmware file is damaged or not a firmware bundle.', 'It was not installed.', 'Download the firmware again from the service.'),
  e('FW_BUNDLE_TOO_LARGE', 'file', 'The firmware file is larger than any firmware may be.', 'It was not installed.', 'Check that you picked the right file; download the firmware again.'),
  e('FW_SIZE_MISMATCH', 'file', 'The firmware image is not the size its bundle states.', 'It was not installed.', 'Download the firmware again.'),
  e('FW_WRONG_VERSION', 'file', 'The firmware file holds another version than its name says.', 'It was not installed.', 'Download the firmware again from the service.'),
  e('RELEASE_KEY_INVALID', 'file', 'A firmware release key is damaged.', 'Firmware signed with it cannot be checked, so it is not installed.', 'Sign in again so the keys are fetched again; if it repeats, contact support.'),
  e('WP_NOT_A_PACKAGE', 'file', 'The file is not a work package.', 'Nothing was imported.', 'Pick the work package file you were given.'),
  e('WP_TAMPERED', 'file', 'The work package was changed after it was made.', 'Nothing was imported: a changed package cannot be trusted.', 'Ask for the work package again.'),
  e('WP_EXPIRED', 'file', 'The work package has expired.', 'Nothing was imported.', 'Ask for a new work package.'),
  e('WP_NOT_YET_VALID', 'file', 'The work package is not valid yet (or this computer’s clock is wrong).', 'Nothing was imported.', 'Check the computer’s date and time; otherwise wait until the package is valid.'),
  e('WP_TOO_LARGE', 'file', 'The work package is larger than a package may be.', 'Nothing was imported.', 'Check that you picked the right file.'),
  e('WP_WRONG_ORGANIZATION', 'file', 'The work package or confirmations file is for another organization than this workstation works for.', 'Nothing was imported.', 'Import it on a workstation signed in to that organization.'),
  e('WP_UNTRUSTED_SIGNER', 'file', 'The file is not signed by a key the service vouches for (a work package by its organization’s key, a confirmations file by an enrolled workstation), or not by the one required.', 'Nothing was imported: its origin cannot be trusted.', 'Do not use it; ask for the file again from a workstation signed in to the service.'),
  e('WP_NO_TRUSTED_ROOT', 'file', 'This laptop has never been signed in to the package’s service, so it has no root key to check the package against.', 'Nothing was imported.', 'Give the root key’s fingerprint with --root-fingerprint (provisioner status shows it on a laptop signed in to that service), or sign in.'),
  e('WP_TOO_LONG', 'file', 'The work package claims to be good for longer than 365 days, which the service never signs.', 'Nothing was imported: it is forged or broken.', 'Do not use it; ask for a new work package.'),
  e('WP_ROOT_KEY_MISMATCH', 'file', 'The work package carries another service key than this workstation knows, or than the fingerprint given.', 'Nothing was imported: it may not come from your service.', 'Do not use it; ask for a new work package and contact support.'),
  e('WP_NOTHING_TO_EXPORT', 'outbox', 'No confirmation waits in the outbox, so there is nothing to carry back.', 'The service already has every confirmation this workstation made.', 'Nothing to do.'),
  e('WP_NO_SUCH_CONFIGURATION', 'file', 'No configuration has that name.', 'No work package was made.', 'Check the name on the Configurations screen (upper and lower case count).'),
  e('WP_AMBIGUOUS_CONFIGURATION', 'file', 'Several configurations have that name.', 'No work package was made: it would be unclear which one.', 'Rename one of them in Configurations, then export again.'),
  e('WP_EMPTY_CONFIGURATION', 'file', 'The configuration has no devices.', 'No work package was made.', 'Add its devices in Configurations, then export again.'),
  e('WP_CONFIGURATION_INCOMPLETE', 'file', 'The configuration is not complete, so its devices have no configuration files yet.', 'No work package was made.', 'Complete it in Configurations, then export again.'),
  e('WP_SERVICE_INCONSISTENT', 'file', 'The service sent a file that does not match what it announced.', 'No work package was made.', 'Export again; if it repeats, contact support with the code.'),
  e('WP_SERVICE_UNREACHABLE', 'file', 'The service could not be reached while making the work package.', 'No work package was made: one is made only while the service is reachable.', 'Check the network and export again.'),
  // The firmware cache and kept files, when the service cannot be reached.
  e('NO_FIRMWARE_CACHED', 'cache', 'The service cannot be reached and no firmware for this device is kept on this computer.', NOTHING_CHANGED, 'Connect to the network and run the job again, or download the firmware while online first.'),
  e('NO_CONFIG_FILE_CACHED', 'cache', 'The service cannot be reached and no configuration file of this device is kept on this computer.', NOTHING_CHANGED, 'Connect to the network and run the job again.'),
  e('FW_RELEASE_KEYS_UNKNOWN', 'cache', 'The keys that check firmware signatures are not on this computer yet, and the service cannot be reached.', 'Firmware that cannot be checked is not installed.', 'Connect to the network once and run the job again.'),
  // The service.
  e('SERVICE_UNREACHABLE', 'service', 'The service cannot be reached (no network, or the service is down).', 'Jobs that need the service wait; confirmations wait in the outbox and are sent later.', 'Check the network. Confirmations are sent by themselves once it is back (or use Send now on the Outbox screen).'),
  e('SERVICE_ANSWER', 'service', 'The service sent an answer this app could not read.', 'The step did not complete.', 'Run the job again; if it repeats, check that the app is up to date and contact support.'),
  e('SERVICE_ERROR', 'service', 'The service reported a fault.', 'What was asked was not done.', 'Run it again later; if it repeats, contact support with the code.'),
  e('HTTP_*', 'service', 'The service refused the request with a numbered answer and no explanation.', 'What was asked was not done.', 'Run it again; if it repeats, contact support with the code.'),
  e('DATABASE_UNAVAILABLE', 'service', 'The service cannot reach its database right now.', 'Nothing was recorded; confirmations wait in the outbox.', 'Wait a minute and try again.'),
  e('CONCURRENT_CHANGE', 'service', 'Someone else changed the same record at the same moment.', 'Your change was not saved, so neither change is lost silently.', 'Reload, check the record, and make your change again.'),
  e('DEVICE_NOT_IN_CONFIGURATION', 'service', 'The device is in no configuration, so there is no configuration to apply.', 'Nothing was applied: the device keeps what it had. Firmware can still be installed.', 'Add the device in Configurations, then apply the configuration.'),
  e('CONFIGURATION_INCOMPLETE', 'service', 'The device’s configuration is not complete, so no file can be made for it.', 'Nothing was applied.', 'Open the configuration in Configurations and fix what it lists.'),
  e('CONFIGURATION_NOT_FOUND', 'service', 'The configuration does not exist (any more).', 'Nothing was changed.', 'Reload the list of configurations.'),
  e('DEVICE_NOT_REGISTERED', 'service', 'The device is not registered in this organization.', 'It cannot be added to a configuration or confirmed.', 'Register the device in Devices first.'),
  e('DEVICE_ALREADY_REGISTERED', 'service', 'The device is already registered.', 'Nothing was changed.', 'Find it in Devices.'),
  e('DEVICE_REGISTERED_ELSEWHERE', 'service', 'The device is registered in another organization.', 'It cannot be registered twice.', `The other organization must release it first. ${ADMIN}`),
  e('DEVICE_ALREADY_IN_CONFIGURATION', 'service', 'The device is already in this configuration.', 'Nothing was changed.', 'Nothing to do.'),
  e('DEVICE_IN_OTHER_CONFIGURATION', 'service', 'The device is already in another configuration.', 'A device is in one configuration at a time.', 'Remove it from the other configuration first, in Configurations.'),
  e('DEVICE_IN_CONFIGURATION', 'service', 'The device is still in a configuration.', 'A device in a configuration cannot be released.', 'Remove it from its configuration in Configurations first.'),
  e('SERIAL_NUMBER_UNKNOWN', 'service', 'No device with this serial number was made.', 'It cannot be registered.', 'Check the serial number on the label.'),
  e('FIRMWARE_NOT_AVAILABLE', 'service', 'The service has no firmware for this device type.', NOTHING_CHANGED, 'Ask an administrator to upload a firmware release for this type.'),
  e('FIRMWARE_PATCH_NOT_AVAILABLE', 'service', 'The service has no small update (patch) from the version the device runs to the latest.', 'Nothing is lost: the full firmware is sent instead, which takes longer.', 'Nothing to do; let the job send the full firmware.'),
  e('SYNC_ID_NOT_FOUND', 'service', 'The service never issued that configuration for this device, so it cannot show what an apply would change.', 'The comparison is not shown; nothing was changed.', 'Apply the configuration from the service, or download its current file.'),
  e('SYNC_ID_NOT_ISSUED', 'outbox', 'A confirmation names a configuration the service never issued.', 'The service cannot record it; the confirmation is kept in the outbox for support.', 'Contact support with the code; do not delete the outbox entry.'),
  e('IDEMPOTENCY_KEY_INVALID', 'outbox', 'A confirmation carried a malformed identifier.', 'The service cannot record it; it is kept in the outbox.', 'Update the app; contact support with the code.'),
  e('IDEMPOTENCY_KEY_REUSED', 'outbox', 'Two different confirmations carried the same identifier.', 'The second was not recorded; it is kept in the outbox.', 'Contact support with the code; do not delete the outbox entry.'),
  e('LEDGER_ENTRY_INVALID', 'outbox', 'An entry of this workstation’s record of actions is damaged or out of order.', 'The service refuses a record that may have been altered.', 'Contact support with the code; keep this computer’s data as it is.'),
  e('LEDGER_ENTRY_OTHER_ORGANIZATION', 'outbox', 'An entry of this workstation’s record belongs to another organization.', 'It was not recorded here.', 'Sign in to that organization and send again.'),
  e('LEDGER_KEY_NOT_ENROLLED', 'outbox', 'An entry of a workstation’s record is not signed by the key the service has enrolled for that workstation.', 'The service refuses it, and every entry sent with it: an entry anyone could have signed proves nothing.', 'Run `provisioner ledger enrol` on the workstation that wrote it, signed in; a replaced key needs an Admin’s `--rotate`.'),
  e('WORKSTATION_PROOF_INVALID', 'service', 'The workstation’s key did not prove that it belongs to the enrolment.', 'Nothing was enrolled.', 'Enrol from the workstation that holds the key (`provisioner ledger enrol`).'),
  e('WORKSTATION_ROTATION_ADMIN_ONLY', 'service', 'Only an Admin may replace a workstation’s enrolled key.', 'Nothing was changed.', ADMIN),
  e('WORKSTATION_KEY_TAKEN', 'service', 'This key is enrolled already, for another workstation, or it was retired.', 'Nothing was enrolled.', 'A key signs for one workstation; a retired key never comes back. Let the workstation make a new key.'),
  e('WORK_PACKAGE_REFUSED', 'service', 'The service will not sign the work package: it would grant more than the service vouches for (other keys, an expiry past 365 days, another organization) or its clock differs.', 'No work package was made.', 'Export again from an up-to-date Provisioner; check this computer’s clock.'),
  e('WORKSTATION_HAS_KEY', 'service', 'This workstation has another key enrolled.', 'Nothing was enrolled; entries signed by the new key are refused.', 'If the workstation’s key was really replaced, an Admin runs `provisioner ledger enrol --rotate` on it.'),
  e('WORKSTATION_GRANT_INVALID', 'service', 'The work package’s enrolment grant is not valid here: not issued by this organization, used already for another key, or expired.', 'The plant laptop’s key was not enrolled, and nothing of its confirmations file was taken.', 'Export a new work package for the plant laptop, or sign it in once where the service is reachable.'),
  e('WORKSTATION_KEY_NOT_FOUND', 'service', 'The workstation has no enrolled key that is still good.', 'Nothing was changed.', 'Check the workstation id in the list of enrolled keys.'),
  e('API_KEY_NAME_TAKEN', 'service', 'This organization already has a key with that name.', 'No key was made.', 'Rotate the existing key, or revoke it first, or pick another name.'),
  e('API_KEY_MISSING', 'service', 'No key was given to the service.', 'You are not signed in to it.', 'Sign in again.'),
  e('API_KEY_INVALID', 'service', 'The service does not accept the key (it was revoked, expired or mistyped).', 'Nothing can be done with the service until you sign in again.', 'Sign in again with a valid key. An administrator can make you a new one.'),
  e('AUTHORIZATION_MALFORMED', 'service', 'The key was sent in a form the service does not read.', 'You are not signed in.', 'Sign in again; check the key was pasted whole.'),
  e('API_KEY_NOT_FOUND', 'service', 'The key does not exist (any more).', 'Nothing was changed.', 'Reload the list of keys.'),
  e('KEY_FORMAT_FORBIDDEN', 'service', 'That kind of key cannot be made here.', 'Nothing was changed.', ADMIN),
  e('ROLE_FORBIDDEN', 'service', 'Your role does not allow this.', 'Nothing was changed.', `Ask for a role that may do it. ${ADMIN}`),
  e('ROLE_ESCALATION_FORBIDDEN', 'service', 'You cannot give a role higher than your own.', 'Nothing was changed.', ADMIN),
  e('ORGANIZATION_FORBIDDEN', 'service', 'Your key is for another organization.', 'Nothing was changed.', 'Sign in to the right organization.'),
  e('ORGANIZATION_NOT_FOUND', 'service', 'The organization does not exist on this service.', 'Nothing can be done there.', 'Check the organization name and the service address when signing in.'),
  e('METRICS_FORBIDDEN', 'service', 'The service’s figures may be read only from where it allows.', 'Nothing was shown.', ADMIN),
  e('TEMPLATE_NOT_FOUND', 'service', 'The template does not exist (any more).', 'Nothing was changed.', 'Reload the list of templates.'),
  e('USER_NOT_FOUND', 'service', 'The user does not exist (any more).', 'Nothing was changed.', 'Reload the list of users.'),
  e('USER_ALREADY_EXISTS', 'service', 'A user with this name already exists.', 'Nothing was changed.', 'Pick another name, or edit the existing user.'),
  e('BODY_REQUIRED', 'service', 'The service received an empty request.', 'Nothing was changed.', 'Update the app; if it repeats, contact support with the code.'),
  e('BODY_TOO_LARGE', 'service', 'What was sent is larger than the service takes.', 'Nothing was changed.', 'Send less in one go: fewer devices, or a smaller file.'),
  e('INVALID_JSON', 'service', 'The service could not read what was sent.', 'Nothing was changed.', 'Update the app; if it repeats, contact support with the code.'),
  e('INVALID_CONTENT_LENGTH', 'service', 'What was sent arrived cut short.', 'Nothing was changed.', 'Check the network and try again.'),
  e('UNSUPPORTED_MEDIA_TYPE', 'service', 'The service does not take that kind of content.', 'Nothing was changed.', 'Update the app; if it repeats, contact support with the code.'),
  e('NUL_CHARACTER', 'service', 'A text contains an invisible control character.', 'Nothing was saved.', 'Retype the text (do not paste it from another program).'),
  e('REQUEST_REJECTED', 'service', 'The service refused the request.', 'Nothing was changed.', 'Try again; if it repeats, contact support with the code.'),
  e('ROUTE_NOT_FOUND', 'service', 'The service does not offer what this app asked for: the app and the service are of different versions.', 'Nothing was changed.', 'Update the app, or ask an administrator which version the service runs.'),
  // The app itself.
  e('NOT_SIGNED_IN', 'app', 'Nobody is signed in.', 'Jobs and lists need an account or the local workspace.', 'Sign in, or use the local workspace.'),
  e('AUTH_FAILED', 'app', 'Signing in failed: the service does not accept the key.', 'You are not signed in.', 'Check the key, the organization and the service address, then sign in again.'),
  e('NOT_ALLOWED', 'app', 'Your role does not allow this.', 'Nothing was changed.', `Ask for a role that may do it. ${ADMIN}`),
  e('INSECURE_SERVICE_URL', 'app', 'The service address is not secure (not https).', 'A key sent over it could be read by others.', 'Use the https address of the service.'),
  e('INVALID_INPUT', 'app', 'A value entered is not valid.', 'Nothing was changed.', 'Correct the value shown beside the field.'),
  e('VALIDATION', 'app', 'Values entered break the configuration rules.', 'Nothing was saved.', 'Correct the values listed beside their fields.'),
  e('CONFLICT', 'app', 'What you did conflicts with the current state (already there, still in use).', 'Nothing was changed.', 'Read the reason shown, reload, and try again.'),
  e('DEVICE_ERROR', 'app', 'Talking to the device failed.', 'The step did not complete.', 'Check the cable and run it again.'),
  e('UNKNOWN_CHANNEL', 'app', 'The app’s window asked its core for something it does not offer: the two are of different versions.', 'Nothing was changed.', 'Restart the app; reinstall it if it repeats.'),
  e('INTERNAL', 'app', 'The app hit an unexpected fault.', 'The job or action stopped; nothing half done is kept on the device.', 'Run it again. If it repeats, export a support report (Outbox screen) and contact support.'),
];

const BY_CODE = new Map(ERROR_CATALOGUE.map((entry) => [entry.code, entry]));

/** The entry for a code, or for its family (`COAP_4.04` → `COAP_*`); undefined for a code not in the catalogue. */
export function catalogueEntry(code: string): ErrorCatalogueEntry | undefined {
  const exact = BY_CODE.get(code);
  if (exact) return exact;
  for (const entry of ERROR_CATALOGUE) if (entry.code.endsWith('*') && code.startsWith(entry.code.slice(0, -1))) return entry;
  return undefined;
}

/** What happened and what to do, in one line, for the technician; the caller shows the code after it. */
export function errorAdvice(code: string): string | null {
  const entry = catalogueEntry(code);
  return entry ? `${entry.what} ${entry.todo}` : null;
}
