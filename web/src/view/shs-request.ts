// The History Server request contract, checked in the browser before it is sent (the server
// checks it again: src/fetch/history_server_request.h is the reference). Trimmed fields; an
// absolute credential-free http(s) base URL without query or fragment, its path prefix kept;
// application_<ts>_<n>, local-<ts> or app-<id>; a path-safe attempt id.
export interface ShsFields { baseUrl: string; appId: string; attemptId: string }
export type ShsErrors = Partial<Record<keyof ShsFields, string>>;

const SAFE_ID = /^[A-Za-z0-9._-]+$/;
const APP_ID = /^(application_[0-9]+_[0-9]+|local-[0-9]+|app-[A-Za-z0-9][A-Za-z0-9._-]*)$/;

export function validateShs(fields: ShsFields): ShsErrors {
  const errors: ShsErrors = {};
  const base = fields.baseUrl.trim();
  let url: URL | null = null;
  try { url = new URL(base); } catch { url = null; }
  if (!base) errors.baseUrl = 'Give the History Server address, e.g. http://history-server:18080/';
  else if (!url || !/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(base)) errors.baseUrl = 'Give an absolute URL: http://host:port/';
  else if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.baseUrl = 'Only http:// and https:// are fetched.';
  else if (url.username || url.password || base.includes('@')) errors.baseUrl = 'Leave credentials out of the URL: none are ever sent.';
  else if (base.includes('?')) errors.baseUrl = 'Leave the query (?…) out of the base URL.';
  else if (base.includes('#')) errors.baseUrl = 'Leave the fragment (#…) out of the base URL.';
  const app = fields.appId.trim();
  if (!APP_ID.test(app) || app === '.' || app === '..' || app.length > 128) {
    errors.appId = 'An application id looks like application_1700000000000_0001, local-1700000000000 or app-20240101120000-0001.';
  }
  const attempt = fields.attemptId.trim();
  if (attempt && (!SAFE_ID.test(attempt) || attempt === '.' || attempt === '..' || attempt.length > 128)) {
    errors.attemptId = 'An attempt id has letters, digits, dots, dashes and underscores only.';
  }
  return errors;
}

// What to tell the user for each stable error code the server returns.
export const SHS_GUIDANCE: Record<string, string> = {
  'invalid-base-url': 'The base URL was refused: give the History Server\'s own address, http:// or https://, without credentials, query or fragment.',
  'invalid-app-id': 'The application id was refused: copy it from the History Server\'s application list.',
  'invalid-attempt-id': 'The attempt id was refused: leave it empty unless the application has several attempts.',
  unreachable: 'The History Server could not be reached from the machine running SparkForensics: check the address and that it is up.',
  timeout: 'The History Server took too long to answer. Try again, or download the log and upload it here.',
  redirect: 'The History Server answered with a redirect, which is never followed: give the address it redirects to (a proxy or login page cannot be used).',
  'not-found': 'The History Server has no such application (or attempt).',
  'upstream-error': 'The History Server answered with an error. Check that the application\'s logs can be downloaded there.',
  'too-large': 'The download passed the size limit. Download the log yourself and open it from the log directory.',
  'write-failed': 'The download could not be saved by SparkForensics (disk full?).',
  cancelled: 'The download was stopped.',
};
