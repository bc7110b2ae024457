/**
 * Numbered, append-only migrations. A released migration is never edited: change the schema with
 * a new entry. Each runs in its own transaction together with its row in `schema_migrations`.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE organizations (
  id text PRIMARY KEY,
  name text NOT NULL,
  region text NOT NULL CHECK (region IN ('NA', 'EU')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- What the factory built: imported by an operator, claimed by an organization on registration.
CREATE TABLE manufacturing_records (
  serial_number text PRIMARY KEY,
  device_type text NOT NULL CHECK (device_type IN ('SRCP', 'WESP', 'EPC', 'NSCP')),
  model text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now()
);

-- A serial number is the primary key: a device is registered in at most one organization.
CREATE TABLE devices (
  serial_number text PRIMARY KEY REFERENCES manufacturing_records (serial_number),
  org_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  image text,
  firmware_version text,
  last_firmware_apply jsonb,
  last_configuration_apply jsonb,
  -- What the last successful configuration apply put on the device, to tell Deployed from Outdated.
  deployed_sync_id uuid,
  deployed_settings_hash text,
  deploy_status text NOT NULL DEFAULT 'NotDeployed',
  registered_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_org ON devices (org_id, serial_number);

CREATE TABLE configurations (
  id uuid PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  settings jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_edited_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX configurations_org_edited ON configurations (org_id, last_edited_at);

-- The serial number is the primary key: a device is in at most one configuration.
CREATE TABLE configuration_devices (
  serial_number text PRIMARY KEY REFERENCES devices (serial_number),
  configuration_id uuid NOT NULL REFERENCES configurations (id) ON DELETE CASCADE,
  org_id text NOT NULL REFERENCES organizations (id),
  settings jsonb NOT NULL,
  -- Kept apart from settings so that it is sealed and never returned.
  wifi_password_sealed bytea,
  -- Hash of the file content the service serves this device now; null while the configuration is
  -- incomplete. Recomputed in the transaction of every change to the configuration.
  current_settings_hash text,
  position integer NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX configuration_devices_configuration ON configuration_devices (configuration_id, position);

CREATE TABLE ip_network_templates (
  id uuid PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  comm_interface text NOT NULL,
  netmask text NOT NULL,
  gateway_ip_address text,
  nameservers jsonb,
  ssid text,
  password_sealed bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_edited_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ip_network_templates_org ON ip_network_templates (org_id);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  email text NOT NULL,
  first_name text,
  last_name text,
  role text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_activity_at timestamptz
);
CREATE UNIQUE INDEX users_org_email ON users (org_id, lower(email));

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  role text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  key_suffix text NOT NULL,
  key_sealed bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  UNIQUE (org_id, name)
);

-- Every syncId the service put in a configuration file, per device and effective settings:
-- the same settings give the same syncId back; a confirmation must name one of these.
CREATE TABLE sync_ids (
  sync_id uuid PRIMARY KEY,
  serial_number text NOT NULL REFERENCES manufacturing_records (serial_number),
  org_id text NOT NULL REFERENCES organizations (id),
  settings_hash text NOT NULL,
  configuration_id uuid,
  issued_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (serial_number, settings_hash)
);

-- Confirm-apply calls as received. Clients replay them from an outbox: the unique key makes a
-- replay a no-op that returns the first answer.
CREATE TABLE confirmations (
  id uuid PRIMARY KEY,
  serial_number text NOT NULL REFERENCES manufacturing_records (serial_number),
  org_id text NOT NULL REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('firmware', 'configuration')),
  payload_hash text NOT NULL,
  payload jsonb NOT NULL,
  outcome text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (serial_number, kind, payload_hash)
);

CREATE TABLE firmware_bundles (
  device_type text NOT NULL CHECK (device_type IN ('SRCP', 'WESP', 'EPC', 'NSCP')),
  version text NOT NULL,
  bundle bytea NOT NULL,
  sha256 text NOT NULL,
  size integer NOT NULL,
  manifest jsonb NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_type, version)
);

-- Secrets the service makes once: the configuration-file signing key pair and the key that
-- seals recoverable API keys and Wifi passwords.
CREATE TABLE service_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 2,
    name: 'configuration records kept with their configuration',
    // The record a read returns, rebuilt in the transaction of every change: a read is one indexed
    // row, on PGlite and on a server alike. Null for rows written before; those are rebuilt on read.
    sql: `ALTER TABLE configurations ADD COLUMN record jsonb`,
  },
  {
    version: 3,
    name: 'configuration files signed per organization, with a sequence per device',
    // Keys are made on first use (server/configurations/organization-keys.ts): SQL cannot make key
    // pairs, and an organization needs one only once a file of it is made.
    sql: `
-- Each organization's configuration-file signing key: its private key sealed with the sealing key,
-- and the service root key's certificate for its public key (every file carries it).
CREATE TABLE organization_signing_keys (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  key_id text NOT NULL UNIQUE,
  public_key_pem text NOT NULL,
  private_key_sealed bytea NOT NULL,
  certificate bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The sequence of configuration files: devices refuse a file older than the one they applied, so
-- a number is never issued twice. One counter for every device: nextval neither blocks nor fails
-- under concurrent SERIALIZABLE transactions, where a counter row per device would make concurrent
-- downloads of one device fail to serialize. Each device still sees its numbers only go up.
CREATE SEQUENCE config_file_sequence AS bigint START 1;
`,
  },
  {
    version: 4,
    name: 'firmware release keys and signed bundles',
    sql: `
-- Ed25519 public keys the service trusts to sign firmware manifests. A signed manifest may retire a
-- key: the row stays, retired, so the key is never trusted again by mistake. A key retired before it
-- was ever trusted is kept as its id alone (no public key).
CREATE TABLE firmware_release_keys (
  key_id text PRIMARY KEY,
  name text NOT NULL,
  public_key_pem text,
  trusted_at timestamptz,
  retired_at timestamptz,
  -- The key whose signed manifest retired this one.
  retired_by text
);

-- Who signed each bundle, and its anti-rollback counter. Null for bundles imported before
-- signatures were required: they are never served (devices refuse unsigned firmware).
ALTER TABLE firmware_bundles ADD COLUMN key_id text;
ALTER TABLE firmware_bundles ADD COLUMN security_counter integer;
`,
  },
  {
    version: 5,
    name: 'idempotency keys of confirmations',
    sql: `
-- The Idempotency-Key each confirm-apply request came with and the confirmation it resolved to: a
-- request repeated with the same key, through any instance, is answered as the first one was.
CREATE TABLE confirmation_requests (
  org_id text NOT NULL REFERENCES organizations (id),
  idempotency_key text NOT NULL,
  confirmation_id uuid NOT NULL REFERENCES confirmations (id) ON DELETE CASCADE,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, idempotency_key)
);
`,
  },
  {
    version: 6,
    name: 'firmware patches between releases',
    sql: `
-- Patches (domain/files/firmware-patch.ts) from earlier releases of a device type to a later one,
-- made when the later one is imported: a device running from_version gets to_version in a fraction
-- of the bytes. base_sha256 and target_sha256 are the images' SHA-256 (hex), what devices compare.
CREATE TABLE firmware_patches (
  device_type text NOT NULL,
  from_version text NOT NULL,
  to_version text NOT NULL,
  base_sha256 text NOT NULL,
  target_sha256 text NOT NULL,
  patch bytea NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_type, from_version, to_version)
);
`,
  },
  {
    version: 7,
    name: 'the organization ledger chain',
    sql: `
-- Every ledger entry a workstation of the organization sent (domain/ledger.ts), in the order they
-- were received, each linked to the one before: org_hash = sha256(org_prev_hash || entry_hash).
-- Rows are only ever added; an entry sent again (by hash) is not added twice.
CREATE TABLE ledger_entries (
  org_id text NOT NULL REFERENCES organizations (id),
  org_seq bigint NOT NULL,
  entry_hash text NOT NULL,
  org_prev_hash text NOT NULL,
  org_hash text NOT NULL,
  workstation text NOT NULL,
  seq integer NOT NULL,
  serial_number text NOT NULL,
  action text NOT NULL,
  entry jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, org_seq),
  UNIQUE (org_id, entry_hash)
);
CREATE INDEX ledger_entries_serial ON ledger_entries (org_id, serial_number);
`,
  },
  {
    version: 8,
    name: 'what each syncId sets',
    sql: `
-- The settings a syncId stands for (the file's content without what each issue adds; the Wifi
-- password replaced by its keyed hash), so a workstation can show what an apply will change against
-- the file a device holds, even when it kept no copy. Null for syncIds issued before this.
ALTER TABLE sync_ids ADD COLUMN settings jsonb;
`,
  },
  {
    version: 9,
    name: 'enrolled workstation keys',
    sql: `
-- The ledger key of each workstation of an organization, as a signed-in user enrolled it
-- (domain/workstation-keys.ts). A ledger entry is taken only when the key enrolled for the
-- workstation it names signed it. A key ends by rotation (an Admin enrols another for the same
-- workstation) or revocation; valid_through_seq is the last entry the service had from it then.
-- A key is enrolled once per organization; a workstation has at most one key that has not ended.
CREATE TABLE workstation_keys (
  org_id text NOT NULL REFERENCES organizations (id),
  public_key text NOT NULL,
  workstation text NOT NULL,
  enrolled_by text NOT NULL,
  enrolled_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  ended_by text,
  end_kind text CHECK (end_kind IN ('rotated', 'revoked')),
  end_reason text,
  valid_through_seq integer,
  PRIMARY KEY (org_id, public_key)
);
CREATE UNIQUE INDEX workstation_keys_active ON workstation_keys (org_id, workstation) WHERE ended_at IS NULL;
`,
  },
  {
    version: 10,
    name: 'API keys that end',
    sql: `
-- An API key ends by revocation (its row is deleted: refused on the next request) or by rotation:
-- a new key is issued under the same name and role, and the old one keeps working until
-- expires_at, then is refused. A name has one key that does not end, and any number ending.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
ALTER TABLE api_keys DROP CONSTRAINT api_keys_org_id_name_key;
CREATE UNIQUE INDEX api_keys_current_name ON api_keys (org_id, name) WHERE expires_at IS NULL;
`,
  },
  {
    version: 11,
    name: 'one-time enrolment grants of work packages',
    sql: `
-- A grant travels in a work package: the plant laptop that imports it enrols its ledger key with it,
-- offline, and the enrolment reaches the service with the confirmations. Only the token's SHA-256
-- is kept. A grant is used once (used_at) and is good until its package expires.
CREATE TABLE workstation_enrolment_grants (
  grant_id uuid PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  token_sha256 text NOT NULL,
  package_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  issued_by text NOT NULL,
  issued_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz,
  used_by text,
  used_key text
);
`,
  },
  {
    version: 12,
    name: 'keys of the ledger entries received before enrolment',
    sql: `
-- Ledger entries received before workstation keys were enrolled (migration 9) would no longer
-- verify. Each key that signed them is enrolled now, by the service, for the workstation its entries
-- name: the workstation's latest key stays active, an earlier one ends as rotated, good for the
-- entries it signed. A key seen under two workstation ids is enrolled for the first only.
INSERT INTO workstation_keys (org_id, public_key, workstation, enrolled_by, enrolled_at, ended_at, ended_by, end_kind, end_reason, valid_through_seq)
SELECT org_id, public_key, workstation, 'the service (entries received before keys were enrolled)', first_received,
  CASE WHEN newest = 1 THEN NULL ELSE now() END,
  CASE WHEN newest = 1 THEN NULL ELSE 'the service' END,
  CASE WHEN newest = 1 THEN NULL ELSE 'rotated' END,
  CASE WHEN newest = 1 THEN NULL ELSE 'a later key of the workstation signed after it' END,
  CASE WHEN newest = 1 THEN NULL ELSE last_seq END
FROM (
  SELECT org_id, workstation, entry->>'signerKey' AS public_key, min(received_at) AS first_received, max(seq) AS last_seq,
    row_number() OVER (PARTITION BY org_id, workstation ORDER BY max(org_seq) DESC) AS newest
  FROM ledger_entries
  GROUP BY org_id, workstation, entry->>'signerKey'
) AS signed
ORDER BY first_received
ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 13,
    name: 'device list buckets: counts and page boundaries kept with the devices',
    // The device list at a million devices (issue 30, docs/decisions.md "The device list pages from
    // buckets"): each organization's devices, in list order, cut into buckets of at most
    // DEVICE_LIST_BUCKET_MAX (1024) devices, each counted (all, and in no configuration). A page N
    // is a seek from its bucket's first serial number plus an offset inside one bucket, and the
    // list's totalCount is a sum over buckets: neither reads the organization's devices. Kept by
    // statement triggers, so every way in (the API, imports, bulk loads, cascades) keeps them true
    // in the writing transaction.
    sql: `
CREATE TABLE device_list_buckets (
  org_id text NOT NULL REFERENCES organizations (id),
  -- The bucket holds the devices from first_serial up to the next bucket's first_serial; the
  -- first bucket of an organization starts at '' (before every serial number).
  first_serial text NOT NULL,
  devices integer NOT NULL,
  unconfigured integer NOT NULL,
  PRIMARY KEY (org_id, first_serial)
);

CREATE FUNCTION device_list_bucket_of(p_org text, p_serial text) RETURNS text LANGUAGE sql STABLE AS $fn$
  SELECT COALESCE((SELECT first_serial FROM device_list_buckets WHERE org_id = p_org AND first_serial <= p_serial
                   ORDER BY first_serial DESC LIMIT 1), '')
$fn$;

-- Cuts one bucket into buckets of 512 devices, reading only that bucket's devices.
CREATE FUNCTION device_list_rebucket(p_org text, p_first text) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  next_first text;
BEGIN
  SELECT min(first_serial) INTO next_first FROM device_list_buckets WHERE org_id = p_org AND first_serial > p_first;
  DELETE FROM device_list_buckets WHERE org_id = p_org AND first_serial = p_first;
  INSERT INTO device_list_buckets (org_id, first_serial, devices, unconfigured)
  SELECT p_org, CASE WHEN chunk = 0 THEN p_first ELSE min(serial_number) END, count(*), count(*) FILTER (WHERE unconfigured)
  FROM (
    SELECT d.serial_number, cd.serial_number IS NULL AS unconfigured, (row_number() OVER (ORDER BY d.serial_number) - 1) / 512 AS chunk
    FROM devices d LEFT JOIN configuration_devices cd ON cd.serial_number = d.serial_number
    WHERE d.org_id = p_org AND d.serial_number >= p_first AND (next_first IS NULL OR d.serial_number < next_first)
  ) AS ranked
  GROUP BY chunk;
END
$fn$;

CREATE FUNCTION device_list_devices_added() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  full_bucket record;
BEGIN
  INSERT INTO device_list_buckets AS b (org_id, first_serial, devices, unconfigured)
  SELECT org_id, device_list_bucket_of(org_id, serial_number), count(*), count(*) FROM added GROUP BY 1, 2
  ON CONFLICT (org_id, first_serial) DO UPDATE SET devices = b.devices + EXCLUDED.devices, unconfigured = b.unconfigured + EXCLUDED.unconfigured;
  FOR full_bucket IN
    SELECT b.org_id, b.first_serial FROM device_list_buckets b WHERE b.org_id IN (SELECT org_id FROM added) AND b.devices > 1024
  LOOP
    PERFORM device_list_rebucket(full_bucket.org_id, full_bucket.first_serial);
  END LOOP;
  RETURN NULL;
END
$fn$;

-- A device in a configuration cannot be deleted (configuration_devices refers to it): every
-- device removed was unconfigured.
CREATE FUNCTION device_list_devices_removed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE device_list_buckets b SET devices = b.devices - g.n, unconfigured = b.unconfigured - g.n
  FROM (SELECT org_id, device_list_bucket_of(org_id, serial_number) AS first_serial, count(*) AS n FROM removed GROUP BY 1, 2) AS g
  WHERE b.org_id = g.org_id AND b.first_serial = g.first_serial;
  DELETE FROM device_list_buckets WHERE org_id IN (SELECT org_id FROM removed) AND devices = 0 AND first_serial <> '';
  RETURN NULL;
END
$fn$;

-- Devices joining or leaving configurations (a configuration deleted cascades here too).
CREATE FUNCTION device_list_configurations_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE device_list_buckets b SET unconfigured = b.unconfigured + CASE WHEN TG_OP = 'INSERT' THEN -g.n ELSE g.n END
  FROM (SELECT d.org_id, device_list_bucket_of(d.org_id, d.serial_number) AS first_serial, count(*) AS n
        FROM changed c JOIN devices d ON d.serial_number = c.serial_number GROUP BY 1, 2) AS g
  WHERE b.org_id = g.org_id AND b.first_serial = g.first_serial;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER device_list_devices_added AFTER INSERT ON devices REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION device_list_devices_added();
CREATE TRIGGER device_list_devices_removed AFTER DELETE ON devices REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION device_list_devices_removed();
CREATE TRIGGER device_list_configured AFTER INSERT ON configuration_devices REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION device_list_configurations_changed();
CREATE TRIGGER device_list_unconfigured AFTER DELETE ON configuration_devices REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION device_list_configurations_changed();

-- The buckets keep no record of a device that changes organization or serial number: refused.
CREATE FUNCTION device_list_keys_fixed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'a device''s serial number and organization do not change: release it and register it again';
END
$fn$;
CREATE TRIGGER device_list_keys_fixed BEFORE UPDATE OF serial_number, org_id ON devices FOR EACH ROW
  WHEN (OLD.serial_number IS DISTINCT FROM NEW.serial_number OR OLD.org_id IS DISTINCT FROM NEW.org_id)
  EXECUTE FUNCTION device_list_keys_fixed();

-- The devices registered before this migration.
DO $fn$
DECLARE
  org record;
BEGIN
  FOR org IN SELECT DISTINCT org_id FROM devices LOOP
    PERFORM device_list_rebucket(org.org_id, '');
  END LOOP;
END
$fn$;

-- Search by serial-number prefix, case-insensitively (serial numbers are ASCII): a byte-order
-- range over this index, whatever the database's collation.
CREATE INDEX devices_org_serial_upper ON devices (org_id, (upper(serial_number)) COLLATE "C");
`,
  },
  {
    version: 14,
    name: 'configuration list indexes in each order the list sorts by',
    // The configuration list at 10,000 configurations (issue 30, docs/performance.md): a page is
    // found on an index in the list's own order, its tie-break (id) included, so that the rows
    // before the page are skipped in the index alone and only the page's records are read
    // (server/store/configurations.ts). The older index lacked the tie-break: a page sorted every
    // row of the organization with its record.
    sql: `
DROP INDEX configurations_org_edited;
CREATE INDEX configurations_org_edited ON configurations (org_id, last_edited_at, id);
CREATE INDEX configurations_org_name ON configurations (org_id, lower(name), id);
`,
  },
  {
    version: 15,
    name: 'the number of configurations of each organization, kept with them',
    // The configuration list's totalCount without a search (issue 30): one row, not a count over the
    // organization's configurations on every page. Kept by a statement trigger in the writing
    // transaction, like the device list's buckets (migration 13). Trade-off: two configurations
    // created in one organization at the same moment write the same row, so under SERIALIZABLE one
    // is retried; creating a configuration is rare next to listing them.
    sql: `
CREATE TABLE configuration_counts (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  configurations integer NOT NULL
);

CREATE FUNCTION configuration_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO configuration_counts AS c (org_id, configurations)
  SELECT org_id, CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END FROM changed GROUP BY org_id
  ON CONFLICT (org_id) DO UPDATE SET configurations = c.configurations + EXCLUDED.configurations;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER configuration_counts_added AFTER INSERT ON configurations REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION configuration_counts_changed();
CREATE TRIGGER configuration_counts_removed AFTER DELETE ON configurations REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION configuration_counts_changed();

-- The count keeps no record of a configuration that changes organization: refused.
CREATE FUNCTION configuration_org_fixed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'a configuration''s organization does not change';
END
$fn$;
CREATE TRIGGER configuration_org_fixed BEFORE UPDATE OF org_id ON configurations FOR EACH ROW
  WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id) EXECUTE FUNCTION configuration_org_fixed();

-- The configurations made before this migration.
INSERT INTO configuration_counts (org_id, configurations) SELECT org_id, count(*) FROM configurations GROUP BY org_id;
`,
  },
  {
    version: 16,
    name: 'trigram indexes for the device search, where pg_trgm can be had',
    // A device search that starts no serial number (ILIKE '%…%' over name, serial number, model and
    // type) read every device of the organization: seconds at a million (issue 30,
    // docs/performance.md). Trigram GIN indexes serve it, one per column, once the filter is split
    // per table (server/store/devices.ts). They need the pg_trgm extension: trusted, so a role with
    // CREATE on the database (its owner, as docs/operations.md asks) creates it. A role that may
    // not, or a server without the contrib files, gets no indexes and a service that starts and
    // searches as before, slowly; device_search_indexes() says why, the service logs it on every
    // start (server/db/search-indexes.ts) and creates the indexes on the first start after the
    // owner has run CREATE EXTENSION pg_trgm (docs/decisions.md, "Trigram indexes for the device
    // search, and who creates pg_trgm").
    sql: `
CREATE FUNCTION device_search_indexes() RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  trgm_schema text;
  wanted record;
BEGIN
  SELECT extnamespace::regnamespace::text INTO trgm_schema FROM pg_extension WHERE extname = 'pg_trgm';
  IF trgm_schema IS NULL THEN
    BEGIN
      CREATE EXTENSION pg_trgm;
    EXCEPTION WHEN insufficient_privilege OR undefined_file OR feature_not_supported THEN
      RETURN SQLERRM;
    END;
    SELECT extnamespace::regnamespace::text INTO trgm_schema FROM pg_extension WHERE extname = 'pg_trgm';
  END IF;
  -- Each index is on lower(column), and the search matches lower(column) ILIKE its pattern (the
  -- same rows: ILIKE folds case anyway): pg_trgm 1.6 also serves "=", and the planner took a
  -- trigram index on the bare serial_number for the joins on it (a serial-prefix search went from
  -- 12 ms to 800 ms at 20,000 devices).
  -- A pending list of 256 kB, not 4 MB: new entries wait there until it fills (or a vacuum), and
  -- every search reads it whole. At 100,000 devices just loaded, a one-device search took 100 ms
  -- with 4 MB and 12 ms with 256 kB; the load took 20 s either way (73 s with no list at all).
  -- The operator class is named with its schema: the owner may have created the extension anywhere.
  FOR wanted IN
    SELECT * FROM (VALUES
      ('devices_name_trgm', 'devices', 'name'),
      ('devices_serial_trgm', 'devices', 'serial_number'),
      ('manufacturing_records_model_trgm', 'manufacturing_records', 'model'),
      ('manufacturing_records_type_trgm', 'manufacturing_records', 'device_type')) AS w (index_name, table_name, column_name)
  LOOP
    IF to_regclass(wanted.index_name) IS NULL THEN
      EXECUTE format('CREATE INDEX %I ON %I USING gin (lower(%I) %s.gin_trgm_ops) WITH (gin_pending_list_limit = 256)',
        wanted.index_name, wanted.table_name, wanted.column_name, trgm_schema);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;

SELECT device_search_indexes();
`,
  },
];
