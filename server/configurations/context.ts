import type { ConfigurationContext, IpNetworkTemplateSettings, Region } from '../../domain';
import type { Queryable } from '../db/database';
import { getOrganization } from '../store/organizations';
import { getTemplates, networkSettingsOf, type StoredTemplate } from '../store/templates';
import type { SecretBox } from '../auth/secret-box';

/** An organization's region never changes once created, so it is read once per process. */
const regions = new Map<string, Region>();

export async function regionOf(db: Queryable, orgId: string): Promise<Region> {
  const known = regions.get(orgId);
  if (known) return known;
  const org = await getOrganization(db, orgId);
  if (!org) throw new Error(`Organization ${orgId} vanished while a request of one of its keys was served.`);
  regions.set(orgId, org.region);
  return org.region;
}

export function templateSettings(template: StoredTemplate, box?: SecretBox): IpNetworkTemplateSettings {
  return {
    ...networkSettingsOf(template),
    // Only the file builder opens the password; rules need to know a template, not its secret.
    password: box && template.passwordSealed ? box.open(template.passwordSealed) : null,
  };
}

/**
 * The domain's ConfigurationContext for one organization: its region and a lookup of the templates
 * that the given devices name (loaded up front, because the domain's lookup is synchronous).
 */
export async function configurationContext(
  db: Queryable,
  orgId: string,
  templateIds: readonly (string | null | undefined)[],
  box?: SecretBox,
): Promise<ConfigurationContext> {
  const ids = [...new Set(templateIds.filter((id): id is string => typeof id === 'string'))];
  // One after the other: a transaction is one connection.
  const region = await regionOf(db, orgId);
  const templates = await getTemplates(db, orgId, ids);
  const byId = new Map(templates.map((template) => [template.id, templateSettings(template, box)]));
  return { region, findNetworkTemplate: (id) => byId.get(id) ?? null };
}
