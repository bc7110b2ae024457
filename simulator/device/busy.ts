import { DEVICE_ERROR } from '../../protocol/constants';
import { OPTION, uintOption } from '../../protocol/coap';
import { DeviceError } from './errors';

/** 5.03 BUSY with Max-Age: how many seconds the host should wait before asking again. */
export function busyError(what: string, seconds: number): DeviceError {
  return new DeviceError(DEVICE_ERROR.busy, `The device is ${what}; try again in ${seconds} s.`, {}, [
    uintOption(OPTION.MAX_AGE, Math.max(1, Math.ceil(seconds))),
  ]);
}
