import { z } from 'zod';
import { optionalField, pushViolation, withRule } from './fields';
import { queryBoolean } from './queries';
import { boundedText, TEXT_LIMITS } from './text-limits';
import { violation, type Violation } from './violations';

/**
 * The interface leaves the encoding of deviceImage open. We take it as a string (a data URL such
 * as 'data:image/png;base64,...' or bare base64) and keep it as sent; only its size is limited,
 * because every device list carries it.
 */
export const MAX_DEVICE_IMAGE_LENGTH = 2_000_000;

const deviceNameField = withRule(
  boundedText(TEXT_LIMITS.name).transform((s) => s.trim()),
  (name, field) =>
    name.length >= 1
      ? null
      : violation('DEVICE_NAME_TOO_SHORT', field, 'The device needs a name: enter at least one character.'),
);

const serialNumberQueryField = boundedText(TEXT_LIMITS.serialNumber).transform((s, ctx) => {
  const serial = s.trim();
  if (serial.length === 0)
    pushViolation(
      ctx,
      s,
      'SERIAL_NUMBER_TOO_SHORT',
      'The serial number is empty: enter the serial number printed on the device.',
    );
  return serial;
});

const deviceImageField = withRule(z.string(), (image, field) =>
  image.length <= MAX_DEVICE_IMAGE_LENGTH
    ? null
    : violation(
        'DEVICE_IMAGE_TOO_LARGE',
        field,
        `The device image is too large: use an image under ${MAX_DEVICE_IMAGE_LENGTH / 1_000_000} MB once encoded.`,
      ),
);

/** POST devices: name and serialNumber travel in the query string. */
export const deviceRegisterQuerySchema = z.strictObject({
  name: deviceNameField,
  serialNumber: serialNumberQueryField,
});

/** Body of POST devices and PATCH devices/{serialNumber}; an absent body is an empty one. */
export const deviceImageBodySchema = z.preprocess(
  (body) => body ?? {},
  z.strictObject({ deviceImage: optionalField(deviceImageField) }),
);
export type DeviceImageBody = z.output<typeof deviceImageBodySchema>;

/** DELETE devices/{serialNumber} (ours): the answer of a release. */
export const deviceReleasedSchema = z.object({ serialNumber: z.string(), released: z.literal(true) });

/** PATCH devices/{serialNumber}: rename and/or delete the image. */
export const deviceRenameQuerySchema = z.strictObject({
  name: deviceNameField.optional(),
  deleteImage: queryBoolean.optional().default(false),
});
export type DeviceRenameQuery = z.output<typeof deviceRenameQuerySchema>;

/** deleteImage=true and a new image in the same request contradict each other. */
export function validateDeviceRename(query: DeviceRenameQuery, body: DeviceImageBody): Violation[] {
  return query.deleteImage && body.deviceImage !== undefined
    ? [
        violation(
          'DELETE_IMAGE_WITH_IMAGE',
          'deleteImage',
          'The request both deletes the image and sends a new one: send the new image alone to replace it.',
        ),
      ]
    : [];
}
