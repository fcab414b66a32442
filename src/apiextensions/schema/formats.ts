import { isIP } from 'node:net';

/**
 * The string formats a CRD schema may declare and the apiserver checks (kube-openapi's strfmt registry restricted
 * to the formats apiextensions supports); any other string format is ignored, as are integer formats other than
 * int32/int64 and number formats other than float/double. Names are compared without dashes ("date-time" is
 * "datetime").
 */
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\p{S}\p{L}])(-?[a-zA-Z0-9\p{S}\p{L}]){1,62})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const BSON_OBJECT_ID = /^[0-9a-fA-F]{24}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_COLOR =
  /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const SCALA_DURATION =
  /^\s*(\d+)\s*(ns|nano|nanos|nanosecond|nanoseconds|us|micro|micros|microsecond|microseconds|ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|wk|wks|week|weeks)\s*$/;
const MAC_COLON =
  /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}[:-]){19}[0-9a-fA-F]{2}$/;
const MAC_DOT = /^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$|^([0-9a-fA-F]{4}\.){3}[0-9a-fA-F]{4}$|^([0-9a-fA-F]{4}\.){9}[0-9a-fA-F]{4}$/;
// net/mail accepts "addr-spec" and "Name <addr-spec>"; this covers the forms seen in practice.
const EMAIL_ADDR = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[^\s@<>()[\],;:"]+$/;
const EMAIL_NAMED = /^[^<>]*<([^<>]+)>$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= (days[m - 1] ?? 0);
}

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (m === null || !validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && (m[7] === undefined || Number(m[7]) < 60);
}

function isRequestUri(s: string): boolean {
  // Go's url.ParseRequestURI: an absolute URI, or an absolute path; no fragment handling of its own.
  if (s.startsWith('/')) return !/\s/.test(s);
  try {
    const u = new URL(s);
    return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s) && u.protocol !== '';
  } catch {
    return false;
  }
}

function isCidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const family = isIP(ip);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

function isIsbn10(s: string): boolean {
  const digits = s.replace(/[\s-]/g, '');
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (i + 1) * (digits[i] === 'X' ? 10 : Number(digits[i]));
  return sum % 11 === 0;
}

function isIsbn13(s: string): boolean {
  const digits = s.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

function isCreditCard(s: string): boolean {
  const digits = s.replace(/[^0-9]/g, '');
  if (
    !/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/.test(
      digits,
    )
  )
    return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function isEmail(s: string): boolean {
  const named = EMAIL_NAMED.exec(s.trim());
  return EMAIL_ADDR.test(named?.[1] ?? s.trim());
}

const CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  bsonobjectid: (s) => BSON_OBJECT_ID.test(s),
  uri: isRequestUri,
  email: isEmail,
  hostname: (s) => HOSTNAME.test(s) && s.length <= 255 && s.split('.').every((p) => p.length <= 63),
  ipv4: (s) => isIP(s) === 4,
  ipv6: (s) => isIP(s) === 6,
  cidr: isCidr,
  mac: (s) => MAC_COLON.test(s) || MAC_DOT.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isIsbn10(s) || isIsbn13(s),
  isbn10: isIsbn10,
  isbn13: isIsbn13,
  creditcard: isCreditCard,
  ssn: (s) => SSN.test(s),
  hexcolor: (s) => HEX_COLOR.test(s),
  rgbcolor: (s) => RGB_COLOR.test(s),
  byte: (s) => BASE64.test(s),
  password: () => true,
  date: isDate,
  duration: (s) => GO_DURATION.test(s) || SCALA_DURATION.test(s),
  datetime: isDateTime,
};

function normalize(format: string): string {
  return format.replaceAll('-', '');
}

/** The format the apiserver keeps for a schema of this type (it blanks the unsupported ones before validating). */
export function effectiveFormat(type: string | undefined, format: string | undefined): string {
  if (format === undefined || format === '') return '';
  switch (type ?? '') {
    case '':
    case 'string':
      return normalize(format) in CHECKS ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

/** Whether the registry knows this string format (only then is it checked). */
export function isKnownStringFormat(format: string): boolean {
  return normalize(format) in CHECKS;
}

export function matchesFormat(format: string, value: string): boolean {
  const check = CHECKS[normalize(format)];
  return check === undefined || check(value);
}
