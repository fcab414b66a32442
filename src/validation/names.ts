/**
 * Name and label syntax checks with apimachinery's messages (pkg/util/validation). Each returns the list of
 * problems (empty = valid), so callers can attach them to whichever field they validate.
 */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME_PART = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME_PART})?`;

const dns1123LabelRe = new RegExp(`^${DNS1123_LABEL}$`);
const dns1123SubdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const dns1035LabelRe = new RegExp(`^${DNS1035_LABEL}$`);
const qualifiedNamePartRe = new RegExp(`^${QUALIFIED_NAME_PART}$`);
const labelValueRe = new RegExp(`^${LABEL_VALUE}$`);

const maxLength = (n: number): string => `must be no more than ${n} characters`;

/** Go's regexError: "<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')" — the double space is Kubernetes'. */
function regexError(message: string, regex: string, ...examples: string[]): string {
  const quoted = examples.map((e) => `'${e}'`).join(',  or ');
  return `${message} (e.g. ${quoted}, regex used for validation is '${regex}')`;
}

function dns1123LabelProblems(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLength(63));
  if (!dns1123LabelRe.test(value)) {
    // Text a subdomain's pattern accepts can only have failed the label's on its dots, and Kubernetes says just that.
    const dotted = dns1123SubdomainRe.test(value);
    errs.push(
      dotted
        ? 'must not contain dots'
        : regexError(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
            DNS1123_LABEL,
            'my-name',
            '123-abc',
          ),
    );
  }
  return errs;
}

function dns1123SubdomainProblems(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLength(253));
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  }
  return errs;
}

export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLength(63));
  if (!dns1035LabelRe.test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errs;
}

/** path.IsValidPathSegmentName: every stored name must be usable as one URL path segment (R1.31). */
export function isValidPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  if (value.includes('/')) errs.push("may not contain '/'");
  if (value.includes('%')) errs.push("may not contain '%'");
  return errs;
}

/** The common case of isQualifiedName, decided without splitting or building messages. */
function isPlainQualifiedName(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return value.length <= 63 && qualifiedNamePartRe.test(value);
  const name = value.slice(slash + 1);
  const prefix = value.slice(0, slash);
  return (
    name.length <= 63 && !name.includes('/') && qualifiedNamePartRe.test(name) && prefix.length <= 253 && dns1123SubdomainRe.test(prefix)
  );
}

/** IsQualifiedName: optional DNS-subdomain prefix + "/" + a 1–63 character name part. */
function qualifiedNameProblems(value: string): string[] {
  if (isPlainQualifiedName(value)) return [];
  const parts = value.split('/');
  let name: string;
  const errs: string[] = [];
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const e of isDns1123Subdomain(prefix)) errs.push(`prefix part ${e}`);
  } else {
    return [
      regexError(
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME_PART,
        'MyName',
        'my.name',
        '123-abc',
      ).replace(/\)$/, ") with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLength(63)}`);
  // Not an else: Go's pattern cannot match "", so an empty name part gets the pattern error after "non-empty".
  if (!qualifiedNamePartRe.test(name)) {
    errs.push(
      `name part ${regexError(
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME_PART,
        'MyName',
        'my.name',
        '123-abc',
      )}`,
    );
  }
  return errs;
}

function labelValueProblems(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLength(63));
  if (!labelValueRe.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** How many accepted values each check remembers before it starts over. */
const MAX_REMEMBERED = 2048;

/**
 * A check that remembers the values it recently accepted. Names, label keys and values repeat across creates (every
 * replica of a workload carries the same ones), and a set lookup costs a fraction of the pattern match; the set is
 * emptied when full, so a stream of distinct values cannot grow it. Only acceptance is remembered: problems are
 * rare and their messages are built afresh.
 */
function rememberingAccepted(check: (value: string) => string[]): (value: string) => string[] {
  const accepted = new Set<string>();
  return (value) => {
    if (accepted.has(value)) return [];
    const problems = check(value);
    if (problems.length === 0) {
      if (accepted.size >= MAX_REMEMBERED) accepted.clear();
      accepted.add(value);
    }
    return problems;
  };
}

export const isDns1123Label = rememberingAccepted(dns1123LabelProblems);
export const isDns1123Subdomain = rememberingAccepted(dns1123SubdomainProblems);
export const isQualifiedName = rememberingAccepted(qualifiedNameProblems);
export const isValidLabelValue = rememberingAccepted(labelValueProblems);
