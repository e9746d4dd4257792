const HOOK_PATH = /^(https?:\/\/[^/?#]+\/hooks\/[^/?#]+\/)(.+)$/i;

/** The secret part of a webhook URL: everything after `/hooks/<id>/`. */
export function webhookSecret(webhook: string): string | undefined {
  return HOOK_PATH.exec(webhook)?.[2];
}

/** The webhook URL with its token replaced, safe for messages and logs. */
export function redactWebhook(webhook: string): string {
  const match = HOOK_PATH.exec(webhook);
  return match ? `${match[1]}***` : '[webhook]';
}

/**
 * Removes every occurrence of the secret (raw and URL-decoded/encoded forms)
 * from text we put into errors and logs, in case a server or proxy echoes it.
 */
export function redactText(text: string, secret: string | undefined): string {
  if (!secret) return text;
  const forms = new Set([secret, safeDecode(secret), encodeURIComponent(secret)]);
  let out = text;
  for (const form of forms) {
    if (form.length >= 4) out = out.split(form).join('***');
  }
  return out;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
