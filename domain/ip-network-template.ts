import { z } from 'zod';
import { TEMPLATE_INTERFACES, type TemplateInterface } from './enums';
import { caseInsensitiveEnum, ipv4Field, nameserversField, optionalField, withRule } from './fields';
import { checkNetmask } from './rules/field-rules';
import { boundedText, TEXT_LIMITS } from './text-limits';
import { validateIpNetworkTemplate } from './rules/ip-network-template';
import { violation } from './violations';

const templateNameField = withRule(
  boundedText(TEXT_LIMITS.name).transform((s) => s.trim()),
  (name, field) =>
    name.length >= 1
      ? null
      : violation('TEMPLATE_NAME_TOO_SHORT', field, 'The template needs a name: enter at least one character.'),
);

const templateNetmaskField = withRule(boundedText(TEXT_LIMITS.address), (value, field) =>
  value.trim().length === 0
    ? violation('TEMPLATE_NETMASK_TOO_SHORT', field, 'The template needs a netmask, e.g. 255.255.255.0.')
    : checkNetmask(value, field),
);

/** POST ipNetworkTemplates. */
export const ipNetworkTemplateCreateSchema = z
  .strictObject({
    ipNetworkTemplateName: templateNameField,
    commInterface: caseInsensitiveEnum(TEMPLATE_INTERFACES),
    netmask: templateNetmaskField,
    gatewayIpAddress: optionalField(ipv4Field),
    nameservers: optionalField(nameserversField),
    ssid: optionalField(boundedText(TEXT_LIMITS.wifiSsid)),
    password: optionalField(boundedText(TEXT_LIMITS.wifiPassword)),
  })
  .superRefine((template, ctx) => {
    // Only the rules across fields; the field rules already ran above.
    for (const broken of validateIpNetworkTemplate(template).filter((v) => v.code === 'WIFI_FIELD_WITHOUT_WIFI')) {
      ctx.addIssue({ code: 'custom', path: [broken.field], message: broken.message, params: { code: broken.code } });
    }
  });
export type IpNetworkTemplateCreateInput = z.input<typeof ipNetworkTemplateCreateSchema>;

/** What the template rules and template application look at (a payload or a stored template). */
export type IpNetworkTemplateSettings = {
  ipNetworkTemplateName?: string | null | undefined;
  commInterface: TemplateInterface;
  netmask?: string | null | undefined;
  gatewayIpAddress?: string | null | undefined;
  nameservers?: readonly string[] | null | undefined;
  ssid?: string | null | undefined;
  password?: string | null | undefined;
};

/** A template as the service returns it. The Wifi password is a secret: only passwordSet is returned. */
export const ipNetworkTemplateRecordSchema = z.object({
  id: z.uuid(),
  ipNetworkTemplateName: z.string(),
  commInterface: z.enum(TEMPLATE_INTERFACES),
  netmask: z.string(),
  gatewayIpAddress: z.string().nullable(),
  nameservers: z.array(z.string()).nullable(),
  ssid: z.string().nullable(),
  passwordSet: z.boolean(),
  password: z.never().optional(),
  createdAt: z.iso.datetime({ offset: true }),
  lastEditedAt: z.iso.datetime({ offset: true }),
});
export type IpNetworkTemplateRecord = z.output<typeof ipNetworkTemplateRecordSchema>;
