import type { IpNetworkTemplateSettings, SortDirection, TemplateInterface, TemplateSortBy } from '../../domain';
import type { Queryable } from '../db/database';
import { likePattern } from '../http/query';

export interface StoredTemplate {
  id: string;
  orgId: string;
  ipNetworkTemplateName: string;
  commInterface: TemplateInterface;
  netmask: string;
  gatewayIpAddress: string | null;
  nameservers: string[] | null;
  ssid: string | null;
  passwordSealed: Uint8Array | null;
  createdAt: Date;
  lastEditedAt: Date;
}

interface Row {
  id: string;
  org_id: string;
  name: string;
  comm_interface: TemplateInterface;
  netmask: string;
  gateway_ip_address: string | null;
  nameservers: string[] | null;
  ssid: string | null;
  password_sealed: Uint8Array | null;
  created_at: Date;
  last_edited_at: Date;
}

/** The settings a template gives a device: what the rules, the file builder and the interface's record share. */
export type TemplateNetworkSettings = Pick<
  StoredTemplate,
  'ipNetworkTemplateName' | 'commInterface' | 'netmask' | 'gatewayIpAddress' | 'nameservers' | 'ssid'
>;

/** The template's network settings without its sealed password or its bookkeeping (id, times). */
export function networkSettingsOf({
  ipNetworkTemplateName,
  commInterface,
  netmask,
  gatewayIpAddress,
  nameservers,
  ssid,
}: StoredTemplate): TemplateNetworkSettings {
  return { ipNetworkTemplateName, commInterface, netmask, gatewayIpAddress, nameservers, ssid };
}

const toStored = (row: Row): StoredTemplate => ({
  id: row.id,
  orgId: row.org_id,
  ipNetworkTemplateName: row.name,
  commInterface: row.comm_interface,
  netmask: row.netmask,
  gatewayIpAddress: row.gateway_ip_address,
  nameservers: row.nameservers,
  ssid: row.ssid,
  passwordSealed: row.password_sealed,
  createdAt: row.created_at,
  lastEditedAt: row.last_edited_at,
});

export async function insertTemplate(
  db: Queryable,
  input: {
    id: string;
    orgId: string;
    settings: IpNetworkTemplateSettings & { ipNetworkTemplateName: string; netmask: string };
    passwordSealed: Uint8Array | null;
  },
): Promise<StoredTemplate> {
  const { rows } = await db.query<Row>(
    `INSERT INTO ip_network_templates (id, org_id, name, comm_interface, netmask, gateway_ip_address, nameservers, ssid, password_sealed)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) RETURNING *`,
    [
      input.id,
      input.orgId,
      input.settings.ipNetworkTemplateName,
      input.settings.commInterface,
      input.settings.netmask,
      input.settings.gatewayIpAddress ?? null,
      input.settings.nameservers ? JSON.stringify(input.settings.nameservers) : null,
      input.settings.ssid ?? null,
      input.passwordSealed,
    ],
  );
  return toStored(rows[0]!);
}

export async function getTemplate(db: Queryable, orgId: string, id: string): Promise<StoredTemplate | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM ip_network_templates WHERE id = $1 AND org_id = $2', [id, orgId]);
  return rows[0] && toStored(rows[0]);
}

export async function getTemplates(db: Queryable, orgId: string, ids: readonly string[]): Promise<StoredTemplate[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<Row>(
    'SELECT * FROM ip_network_templates WHERE org_id = $1 AND id = ANY($2::uuid[])',
    [orgId, [...ids]],
  );
  return rows.map(toStored);
}

export async function listTemplates(
  db: Queryable,
  orgId: string,
  query: {
    nameFilter?: string | undefined;
    typeFilter?: TemplateInterface | undefined;
    sortBy: TemplateSortBy;
    sortDirection: SortDirection;
    limit: number;
    page: number;
  },
): Promise<StoredTemplate[]> {
  const direction = query.sortDirection === 'Descending' ? 'DESC' : 'ASC';
  const order =
    query.sortBy === 'LastEdited'
      ? `last_edited_at ${direction}, id ${direction}`
      : `lower(name) ${direction}, id ${direction}`;
  const { rows } = await db.query<Row>(
    `SELECT * FROM ip_network_templates
     WHERE org_id = $1 AND ($2::text IS NULL OR name ILIKE $2) AND ($3::text IS NULL OR comm_interface = $3)
     ORDER BY ${order} LIMIT $4 OFFSET $5`,
    [
      orgId,
      query.nameFilter === undefined ? null : likePattern(query.nameFilter),
      query.typeFilter ?? null,
      query.limit,
      (query.page - 1) * query.limit,
    ],
  );
  return rows.map(toStored);
}
